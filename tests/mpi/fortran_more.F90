! The Fortran bindings whose arguments are more than references to C's:
! datatype arrays with one entry per process (MPI_Alltoallw, also in
! place) or per neighbour (MPI_Neighbor_alltoallw), MPI_UNWEIGHTED and
! weight arrays (MPI_Dist_graph_*), and address results (MPI_Win_allocate,
! MPI_Win_allocate_shared + MPI_Win_shared_query, MPI_Alloc_mem: TYPE(C_PTR),
! through OpenMPI's *_cptr entry points with the mpi module), CHARACTER
! results (MPI_Get_processor_name and MPI_Error_string as C gives them,
! blank-padded or truncated, and the resultlen; the get_name calls,
! MPI_Info_get / _get_nthkey, MPI_File_get_view, MPI_Get_library_version,
! MPI_Open_port), MPI_WTIME / MPI_WTICK, INTEGER ranges(3, n)
! (MPI_Group_range_incl/excl), MPI_Request_get_status and MPI_Status_set_*
! (with MPI_STATUS_IGNORE: no call, as OpenMPI's entry points),
! MPI_Type_get_contents, MPI_Buffer_detach, and the MPI-1 calls with
! INTEGER addresses (MPI_Address, MPI_Type_extent/lb/ub,
! MPI_Type_hvector/hindexed/struct, called without an interface, as old
! programs do).  Built twice:
! with the mpi module, and with -DF08 with mpi_f08.  The program checks
! its results and writes its call counts to PREFIX.<rank>.
! Usage: fortran_more PREFIX
#ifdef F08
#define HCOMM type(MPI_Comm)
#define HTYPE type(MPI_Datatype)
#define HWIN type(MPI_Win)
#define HREQ type(MPI_Request)
#define HGRP type(MPI_Group)
#define HINFO type(MPI_Info)
#define HFILE type(MPI_File)
#define HSTAT type(MPI_Status)
#define SRCOF(s) s%MPI_SOURCE
#define TAGOF(s) s%MPI_TAG
#define FVAL(h) h%MPI_VAL
#else
#define HCOMM integer
#define HTYPE integer
#define HWIN integer
#define HREQ integer
#define HGRP integer
#define HINFO integer
#define HFILE integer
#define HSTAT integer, dimension(MPI_STATUS_SIZE)
#define SRCOF(s) s(MPI_SOURCE)
#define TAGOF(s) s(MPI_TAG)
#define FVAL(h) h
#endif
program fortran_more
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer, c_int, c_char
  implicit none
  interface
    ! the C bindings' answers, untraced (PMPI_), to compare with
    integer(c_int) function c_procname(name, resultlen) &
        bind(C, name='PMPI_Get_processor_name')
      import :: c_int, c_char
      character(kind=c_char) :: name(*)
      integer(c_int) :: resultlen
    end function c_procname
    integer(c_int) function c_errstr(code, str, resultlen) &
        bind(C, name='PMPI_Error_string')
      import :: c_int, c_char
      integer(c_int), value :: code
      character(kind=c_char) :: str(*)
      integer(c_int) :: resultlen
    end function c_errstr
    integer(c_int) function c_libver(version, resultlen) &
        bind(C, name='PMPI_Get_library_version')
      import :: c_int, c_char
      character(kind=c_char) :: version(*)
      integer(c_int) :: resultlen
    end function c_libver
  end interface
  integer, parameter :: nf = 70
  character(len=32) :: names(nf)
  integer :: counts(nf)
  integer :: ierr, rank, nprocs, right, left, i, nin, nout
  integer :: scnt(64), sdsp(64), rcnt(64), rdsp(64), sbuf(64), rbuf(64)
  integer(kind=MPI_ADDRESS_KIND) :: asd(2), ard(2), wsize
  integer :: srcs(1), dsts(1), wts(1), got_s(1), got_d(1), got_sw(1), got_dw(1)
  integer :: disp, degs(1)
  logical :: weighted
  HTYPE :: stypes(64), rtypes(64)
  HCOMM :: cart, dg, dg2, dg3, shm
  HWIN :: win, swin
  HREQ :: req
  type(c_ptr) :: base, qbase, mem
  integer, pointer :: wbuf(:), qbuf(:), mbuf(:)
  character(len=256) :: prefix
  character(len=16) :: rs
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname, cname
  character(len=3) :: short
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lver, cver
  character(len=MPI_MAX_ERROR_STRING) :: estr, cstr
  character(len=MPI_MAX_OBJECT_NAME) :: oname
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=16) :: val, drep
  character(len=MPI_MAX_PORT_NAME) :: port
  integer :: plen, clen, vlen, k, olen, gs, ngs, cnt, ni, na, nd, comb
  integer :: ranges(3, 2), tr(2), ival, sval, ints(2), dts_i, bsize
  integer :: bbuf(1000), abuf(4), m1t(3), ext, lb, ub, a1, a2
  integer(kind=MPI_ADDRESS_KIND) :: addrs(1), baddr
  integer(kind=MPI_OFFSET_KIND) :: fdisp
  double precision :: t0, t1, tk
  logical :: flag
  HGRP :: wgrp, g1, g2, g3
  HINFO :: info
  HFILE :: fh
  HSTAT :: st
  HTYPE :: hv, dts(1), et, ft
  HREQ :: rreq, sreq
#ifdef F08
  type(c_ptr) :: bptr
#endif

  names = [character(len=32) :: 'MPI_Init', 'MPI_Comm_rank', &
       'MPI_Comm_size', 'MPI_Alltoallw', 'MPI_Ialltoallw', 'MPI_Wait', &
       'MPI_Cart_create', 'MPI_Neighbor_alltoallw', &
       'MPI_Ineighbor_alltoallw', 'MPI_Dist_graph_create_adjacent', &
       'MPI_Dist_graph_create', 'MPI_Dist_graph_neighbors', &
       'MPI_Dist_graph_neighbors_count', 'MPI_Comm_free', &
       'MPI_Win_allocate', 'MPI_Win_fence', 'MPI_Put', 'MPI_Win_free', &
       'MPI_Comm_split_type', 'MPI_Win_allocate_shared', &
       'MPI_Win_shared_query', 'MPI_Alloc_mem', 'MPI_Get_processor_name', &
       'MPI_Get_library_version', 'MPI_Error_string', 'MPI_Comm_get_name', &
       'MPI_Type_get_name', 'MPI_Win_set_name', 'MPI_Win_get_name', &
       'MPI_Info_create', 'MPI_Info_set', 'MPI_Info_get_nthkey', &
       'MPI_Info_get', 'MPI_Info_free', 'MPI_File_open', 'MPI_File_set_view', &
       'MPI_File_get_view', 'MPI_File_close', 'MPI_Wtime', 'MPI_Wtick', &
       'MPI_Comm_group', 'MPI_Group_range_incl', 'MPI_Group_range_excl', &
       'MPI_Group_size', 'MPI_Group_translate_ranks', 'MPI_Group_free', &
       'MPI_Irecv', 'MPI_Isend', 'MPI_Request_get_status', &
       'MPI_Status_set_elements', 'MPI_Status_set_elements_x', &
       'MPI_Status_set_cancelled', 'MPI_Get_count', 'MPI_Test_cancelled', &
       'MPI_Type_create_hvector', 'MPI_Type_get_envelope', &
       'MPI_Type_get_contents', 'MPI_Type_free', 'MPI_Buffer_attach', &
       'MPI_Buffer_detach', 'MPI_Type_hvector', 'MPI_Type_extent', &
       'MPI_Type_lb', 'MPI_Type_ub', 'MPI_Type_hindexed', 'MPI_Type_struct', &
       'MPI_Address', 'MPI_Open_port', 'MPI_Close_port', 'MPI_Get_address']
  counts = 0
  call get_command_argument(1, prefix)
  call MPI_Init(ierr)
  call tick('MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call tick('MPI_Comm_rank')
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call tick('MPI_Comm_size')
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  ! alltoallw: one integer to every process, its datatypes per process
  do i = 1, nprocs
    scnt(i) = 1
    rcnt(i) = 1
    sdsp(i) = 4 * (i - 1)
    rdsp(i) = 4 * (i - 1)
    stypes(i) = MPI_INTEGER
    rtypes(i) = MPI_INTEGER
    sbuf(i) = 100 * rank + i - 1
    rbuf(i) = -1
  end do
  call MPI_Alltoallw(sbuf, scnt, sdsp, stypes, rbuf, rcnt, rdsp, rtypes, &
                     MPI_COMM_WORLD, ierr)
  call tick('MPI_Alltoallw')
  do i = 1, nprocs
    call expect(rbuf(i) == 100 * (i - 1) + rank, 'Alltoallw')
  end do
  ! in place: the send side's arrays are not read
  do i = 1, nprocs
    rbuf(i) = 1000 * rank + i - 1
  end do
  call MPI_Alltoallw(MPI_IN_PLACE, scnt, sdsp, stypes, rbuf, rcnt, rdsp, &
                     rtypes, MPI_COMM_WORLD, ierr)
  call tick('MPI_Alltoallw')
  do i = 1, nprocs
    call expect(rbuf(i) == 1000 * (i - 1) + rank, 'Alltoallw in place')
  end do
  call MPI_Ialltoallw(sbuf, scnt, sdsp, stypes, rbuf, rcnt, rdsp, rtypes, &
                      MPI_COMM_WORLD, req, ierr)
  call tick('MPI_Ialltoallw')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call tick('MPI_Wait')
  call expect(rbuf(nprocs) == 100 * (nprocs - 1) + rank, 'Ialltoallw')

  ! neighbour alltoallw on a periodic ring: two neighbours, left then right
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [nprocs], [.true.], .false., &
                       cart, ierr)
  call tick('MPI_Cart_create')
  sbuf(1) = 10 * rank + 1
  sbuf(2) = 10 * rank + 2
  asd = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
  ard = asd
  rbuf(1:2) = -1
  call MPI_Neighbor_alltoallw(sbuf, scnt, asd, stypes, rbuf, rcnt, ard, &
                              rtypes, cart, ierr)
  call tick('MPI_Neighbor_alltoallw')
  ! from the left neighbour its block for the right, and the reverse
  call expect(rbuf(1) == 10 * left + 2 .and. rbuf(2) == 10 * right + 1, &
              'Neighbor_alltoallw')
  call MPI_Ineighbor_alltoallw(sbuf, scnt, asd, stypes, rbuf, rcnt, ard, &
                               rtypes, cart, req, ierr)
  call tick('MPI_Ineighbor_alltoallw')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call tick('MPI_Wait')
  call MPI_Comm_free(cart, ierr)
  call tick('MPI_Comm_free')

  ! distributed graphs: unweighted, weighted, and from edges
  srcs(1) = left
  dsts(1) = right
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, &
       MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, .false., &
       dg, ierr)
  call tick('MPI_Dist_graph_create_adjacent')
  call MPI_Dist_graph_neighbors_count(dg, nin, nout, weighted, ierr)
  call tick('MPI_Dist_graph_neighbors_count')
  call expect(nin == 1 .and. nout == 1 .and. .not. weighted, 'unweighted')
  wts(1) = 7 + rank
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, wts, 1, &
       dsts, wts, MPI_INFO_NULL, .false., dg2, ierr)
  call tick('MPI_Dist_graph_create_adjacent')
  call MPI_Dist_graph_neighbors(dg2, 1, got_s, got_sw, 1, got_d, got_dw, ierr)
  call tick('MPI_Dist_graph_neighbors')
  call expect(got_s(1) == left .and. got_d(1) == right .and. &
              got_sw(1) == 7 + rank .and. got_dw(1) == 7 + rank, &
              'Dist_graph_neighbors weights')
  degs(1) = 1
  call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, [rank], degs, dsts, wts, &
       MPI_INFO_NULL, .false., dg3, ierr)
  call tick('MPI_Dist_graph_create')
  call MPI_Dist_graph_neighbors(dg3, 1, got_s, got_sw, 1, got_d, got_dw, ierr)
  call tick('MPI_Dist_graph_neighbors')
  call expect(got_s(1) == left .and. got_d(1) == right .and. &
              got_dw(1) == 7 + rank .and. got_sw(1) == 7 + left, &
              'Dist_graph_create weights')
  call MPI_Comm_free(dg, ierr)
  call MPI_Comm_free(dg2, ierr)
  call MPI_Comm_free(dg3, ierr)
  do i = 1, 3
    call tick('MPI_Comm_free')
  end do

  ! a window the library allocates: put our rank into the right's memory
  wsize = 16
  call MPI_Win_allocate(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, &
                        win, ierr)
  call tick('MPI_Win_allocate')
  call c_f_pointer(base, wbuf, [4])
  wbuf = -1
  call MPI_Win_fence(0, win, ierr)
  call tick('MPI_Win_fence')
  sbuf(1) = rank
  call MPI_Put(sbuf, 1, MPI_INTEGER, right, 2_MPI_ADDRESS_KIND, 1, &
               MPI_INTEGER, win, ierr)
  call tick('MPI_Put')
  call MPI_Win_fence(0, win, ierr)
  call tick('MPI_Win_fence')
  call expect(wbuf(3) == left, 'Win_allocate + Put')
  call MPI_Win_set_name(win, '  ptwin  ', ierr)
  call tick('MPI_Win_set_name')
  oname = repeat('x', len(oname))
  call MPI_Win_get_name(win, oname, olen, ierr)
  call tick('MPI_Win_get_name')
#ifdef F08
  ! (OpenMPI 4.1's mpi_f08 declares win_name CHARACTER, DIMENSION(*) and
  ! passes its LEN, 1: one character comes back)
  call expect(olen == 5 .and. (oname == 'ptwin' .or. (oname(1:1) == 'p' &
              .and. oname(2:) == repeat('x', len(oname) - 1))), &
              'Win_get_name')
#else
  call expect(oname == 'ptwin' .and. olen == 5, 'Win_get_name')
#endif
  call MPI_Win_free(win, ierr)
  call tick('MPI_Win_free')

  ! shared memory: each process reads rank 0's segment
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, &
                           MPI_INFO_NULL, shm, ierr)
  call tick('MPI_Comm_split_type')
  call MPI_Win_allocate_shared(wsize, 4, MPI_INFO_NULL, shm, base, swin, ierr)
  call tick('MPI_Win_allocate_shared')
  call c_f_pointer(base, wbuf, [4])
  wbuf(1) = 500 + rank
  call MPI_Win_fence(0, swin, ierr)
  call tick('MPI_Win_fence')
  call MPI_Win_shared_query(swin, 0, wsize, disp, qbase, ierr)
  call tick('MPI_Win_shared_query')
  call c_f_pointer(qbase, qbuf, [4])
  call expect(qbuf(1) == 500 .and. disp == 4 .and. wsize == 16, &
              'Win_shared_query')
  call MPI_Win_fence(0, swin, ierr)
  call tick('MPI_Win_fence')
  call MPI_Win_free(swin, ierr)
  call tick('MPI_Win_free')
  call MPI_Comm_free(shm, ierr)
  call tick('MPI_Comm_free')

  call MPI_Alloc_mem(64_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem, ierr)
  call tick('MPI_Alloc_mem')
  call c_f_pointer(mem, mbuf, [16])
  mbuf = rank
  call expect(sum(mbuf) == 16 * rank, 'Alloc_mem')
  call MPI_Free_mem(mbuf, ierr)

  ! CHARACTER results: what C gives, blank-padded, or truncated
  pname = repeat('x', len(pname))
  call MPI_Get_processor_name(pname, plen, ierr)
  call tick('MPI_Get_processor_name')
  cname = ' '
  ierr = c_procname(cname, clen)
  call expect(plen == clen .and. plen > 0 .and. plen < len(pname), &
              'Get_processor_name: resultlen')
  call expect(pname(1:plen) == cname(1:clen) .and. pname(plen+1:) == ' ', &
              'Get_processor_name: the name, blank-padded')
#ifndef F08
  ! (mpi_f08's name is CHARACTER(LEN=MPI_MAX_PROCESSOR_NAME))
  short = 'zzz'
  call MPI_Get_processor_name(short, plen, ierr)
  call tick('MPI_Get_processor_name')
  call expect(plen == clen .and. short == cname(1:min(3, clen)), &
              'Get_processor_name: truncated')
#endif
  lver = repeat('x', len(lver))
  call MPI_Get_library_version(lver, vlen, ierr)
  call tick('MPI_Get_library_version')
  cver = ' '
  ierr = c_libver(cver, clen)
  ! (OpenMPI's resultlen counts the C string's NUL)
  k = index(cver, achar(0)) - 1
  call expect(vlen == clen .and. k > 0 .and. lver(1:k) == cver(1:k) .and. &
              lver(k+1:) == ' ', 'Get_library_version')
  estr = repeat('x', len(estr))
  call MPI_Error_string(MPI_ERR_TRUNCATE, estr, plen, ierr)
  call tick('MPI_Error_string')
  cstr = ' '
  ierr = c_errstr(MPI_ERR_TRUNCATE, cstr, clen)
  call expect(plen == clen .and. plen > 0 .and. estr(1:plen) == cstr(1:clen) &
              .and. estr(plen+1:) == ' ', 'Error_string')
  oname = repeat('x', len(oname))
  call MPI_Comm_get_name(MPI_COMM_WORLD, oname, olen, ierr)
  call tick('MPI_Comm_get_name')
  call expect(oname == 'MPI_COMM_WORLD' .and. olen == 14, 'Comm_get_name')
  call MPI_Type_get_name(MPI_INTEGER, oname, olen, ierr)
  call tick('MPI_Type_get_name')
  call expect(oname == 'MPI_INTEGER' .and. olen == 11, 'Type_get_name')

  ! info keys and values (0-based n; valuelen; not found: value untouched)
  call MPI_Info_create(info, ierr)
  call tick('MPI_Info_create')
  call MPI_Info_set(info, 'k1', 'v1', ierr)
  call MPI_Info_set(info, 'key2', 'value2', ierr)
  call tick('MPI_Info_set')
  call tick('MPI_Info_set')
  key = repeat('x', len(key))
  call MPI_Info_get_nthkey(info, 1, key, ierr)
  call tick('MPI_Info_get_nthkey')
  call expect(key == 'key2', 'Info_get_nthkey')
  val = repeat('x', len(val))
  call MPI_Info_get(info, 'key2', 3, val, flag, ierr)
  call tick('MPI_Info_get')
  call expect(flag .and. val == 'val', 'Info_get: valuelen')
  val = 'untouched'
  call MPI_Info_get(info, 'nokey', len(val), val, flag, ierr)
  call tick('MPI_Info_get')
  call expect(.not. flag .and. val == 'untouched', 'Info_get: no key')
  call MPI_Info_free(info, ierr)
  call tick('MPI_Info_free')

  ! a file view, its data representation a CHARACTER result
  write (rs, '(I0)') rank
  call MPI_File_open(MPI_COMM_SELF, 'ptview.' // trim(rs), &
       MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
       MPI_INFO_NULL, fh, ierr)
  call tick('MPI_File_open')
  call MPI_File_set_view(fh, 8_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, &
                         'native', MPI_INFO_NULL, ierr)
  call tick('MPI_File_set_view')
  drep = repeat('x', len(drep))
  call MPI_File_get_view(fh, fdisp, et, ft, drep, ierr)
  call tick('MPI_File_get_view')
  call expect(ierr == MPI_SUCCESS .and. fdisp == 8 .and. drep == 'native' &
              .and. et == MPI_INTEGER .and. ft == MPI_INTEGER, &
              'File_get_view')
  call MPI_File_close(fh, ierr)
  call tick('MPI_File_close')

  ! DOUBLE PRECISION functions
  t0 = MPI_Wtime()
  call tick('MPI_Wtime')
  t1 = MPI_Wtime()
  call tick('MPI_Wtime')
  tk = MPI_Wtick()
  call tick('MPI_Wtick')
  call expect(t1 >= t0 .and. t0 >= 0 .and. tk > 0 .and. tk < 1, 'Wtime')

  ! ranges(3, n): first, last, stride
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  call tick('MPI_Comm_group')
  ranges(:, 1) = [0, nprocs - 1, 2]
  call MPI_Group_range_incl(wgrp, 1, ranges, g1, ierr)
  call tick('MPI_Group_range_incl')
  call MPI_Group_size(g1, gs, ierr)
  call tick('MPI_Group_size')
  call expect(gs == (nprocs + 1) / 2, 'Group_range_incl: stride')
  ranges(:, 1) = [0, 0, 1]
  ranges(:, 2) = [nprocs - 1, nprocs - 1, 1]
  call MPI_Group_range_incl(wgrp, 2, ranges, g2, ierr)
  call tick('MPI_Group_range_incl')
  call MPI_Group_translate_ranks(g2, 2, [0, 1], wgrp, tr, ierr)
  call tick('MPI_Group_translate_ranks')
  call expect(tr(1) == 0 .and. tr(2) == nprocs - 1, 'Group_range_incl: 2')
  call MPI_Group_range_excl(wgrp, 2, ranges, g3, ierr)
  call tick('MPI_Group_range_excl')
  call MPI_Group_size(g3, gs, ierr)
  call tick('MPI_Group_size')
  call expect(gs == nprocs - 2, 'Group_range_excl')
  call MPI_Group_free(g1, ierr)
  call MPI_Group_free(g2, ierr)
  call MPI_Group_free(g3, ierr)
  call MPI_Group_free(wgrp, ierr)
  do i = 1, 4
    call tick('MPI_Group_free')
  end do

  ! a request's status without completing it; statuses set by hand
  sval = 40 + rank
  ival = -1
  call MPI_Irecv(ival, 1, MPI_INTEGER, 0, 77, MPI_COMM_SELF, rreq, ierr)
  call tick('MPI_Irecv')
  call MPI_Isend(sval, 1, MPI_INTEGER, 0, 77, MPI_COMM_SELF, sreq, ierr)
  call tick('MPI_Isend')
  flag = .false.
  ngs = 0
  do while (.not. flag)
    call MPI_Request_get_status(rreq, flag, st, ierr)
    ngs = ngs + 1
  end do
  call tickn('MPI_Request_get_status', ngs)
  call expect(SRCOF(st) == 0 .and. TAGOF(st) == 77 .and. ival == sval, &
              'Request_get_status')
  ! (OpenMPI answers false for MPI_STATUS_IGNORE, calling nothing)
  call MPI_Request_get_status(rreq, flag, MPI_STATUS_IGNORE, ierr)
  call expect(.not. flag .and. ierr == MPI_SUCCESS, &
              'Request_get_status: MPI_STATUS_IGNORE')
  call MPI_Wait(rreq, st, ierr)
  call MPI_Wait(sreq, MPI_STATUS_IGNORE, ierr)
  call tick('MPI_Wait')
  call tick('MPI_Wait')
  call MPI_Status_set_elements(st, MPI_INTEGER, 5, ierr)
  call tick('MPI_Status_set_elements')
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call tick('MPI_Get_count')
  call expect(cnt == 5 .and. SRCOF(st) == 0, 'Status_set_elements')
  call MPI_Status_set_elements_x(st, MPI_INTEGER, 7_MPI_COUNT_KIND, ierr)
  call tick('MPI_Status_set_elements_x')
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call tick('MPI_Get_count')
  call expect(cnt == 7, 'Status_set_elements_x')
  call MPI_Status_set_cancelled(st, .true., ierr)
  call tick('MPI_Status_set_cancelled')
  call MPI_Test_cancelled(st, flag, ierr)
  call tick('MPI_Test_cancelled')
  call expect(flag, 'Status_set_cancelled')
  ierr = -1
  call MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INTEGER, 5, ierr)
  call expect(ierr == MPI_SUCCESS, 'Status_set_elements: MPI_STATUS_IGNORE')

  ! a datatype's contents: integers, addresses, datatypes
  call MPI_Type_create_hvector(2, 1, 12_MPI_ADDRESS_KIND, MPI_INTEGER, hv, &
                               ierr)
  call tick('MPI_Type_create_hvector')
  call MPI_Type_get_envelope(hv, ni, na, nd, comb, ierr)
  call tick('MPI_Type_get_envelope')
  call expect(ni == 2 .and. na == 1 .and. nd == 1 .and. &
              comb == MPI_COMBINER_HVECTOR, 'Type_get_envelope')
  ints = -1
  addrs = -1
  call MPI_Type_get_contents(hv, 2, 1, 1, ints, addrs, dts, ierr)
  call tick('MPI_Type_get_contents')
  call expect(ints(1) == 2 .and. ints(2) == 1 .and. addrs(1) == 12 .and. &
              dts(1) == MPI_INTEGER, 'Type_get_contents')
  call MPI_Type_free(hv, ierr)
  call tick('MPI_Type_free')

  ! the buffer for buffered sends: its size comes back
  call MPI_Buffer_attach(bbuf, 4000, ierr)
  call tick('MPI_Buffer_attach')
  bsize = -1
#ifdef F08
  call MPI_Buffer_detach(bptr, bsize, ierr)
#else
  call MPI_Buffer_detach(bbuf, bsize, ierr)
#endif
  call tick('MPI_Buffer_detach')
  call expect(bsize == 4000, 'Buffer_detach: size')
#ifdef F08
  ! (mpi_f08's is OpenMPI's ompi_buffer_detach_f08: the address comes back)
  call MPI_Get_address(bbuf, baddr, ierr)
  call tick('MPI_Get_address')
  call expect(transfer(bptr, baddr) == baddr, 'Buffer_detach: address')
#endif

  ! MPI-1: addresses and extents in default INTEGERs (no interface)
  dts_i = FVAL(MPI_INTEGER)
  call MPI_Type_hvector(2, 1, 12, dts_i, m1t(1), ierr)
  call tick('MPI_Type_hvector')
  call MPI_Type_extent(m1t(1), ext, ierr)
  call tick('MPI_Type_extent')
  call MPI_Type_lb(m1t(1), lb, ierr)
  call tick('MPI_Type_lb')
  call MPI_Type_ub(m1t(1), ub, ierr)
  call tick('MPI_Type_ub')
  call expect(ext == 16 .and. lb == 0 .and. ub == 16, 'Type_hvector')
  call MPI_Type_hindexed(2, [1, 1], [0, 8], dts_i, m1t(2), ierr)
  call tick('MPI_Type_hindexed')
  call MPI_Type_extent(m1t(2), ext, ierr)
  call tick('MPI_Type_extent')
  call expect(ext == 12, 'Type_hindexed')
  call MPI_Type_struct(2, [1, 1], [0, 8], [dts_i, dts_i], m1t(3), ierr)
  call tick('MPI_Type_struct')
  call MPI_Type_extent(m1t(3), ext, ierr)
  call tick('MPI_Type_extent')
  call expect(ext == 12, 'Type_struct')
  call MPI_Address(abuf(1), a1, ierr)
  call MPI_Address(abuf(3), a2, ierr)
  call tick('MPI_Address')
  call tick('MPI_Address')
  call expect(a2 - a1 == 8, 'Address')
  do i = 1, 3
    call free_int_type(m1t(i))
    call tick('MPI_Type_free')
  end do

  ! a port name (CHARACTER result)
  port = repeat('x', len(port))
  call MPI_Open_port(MPI_INFO_NULL, port, ierr)
  call tick('MPI_Open_port')
  call expect(ierr == MPI_SUCCESS .and. len_trim(port) > 0 .and. &
              index(port, 'x') == 0 .and. port(len(port):) == ' ', 'Open_port')
  call MPI_Close_port(port, ierr)
  call tick('MPI_Close_port')

  write (rs, '(I0)') rank
  open (unit=10, file=trim(prefix) // '.' // trim(rs), status='replace')
  do i = 1, nf
    if (counts(i) > 0) write (10, '(A,1X,I0)') trim(names(i)), counts(i)
  end do
  write (10, '(A,1X,I0)') 'MPI_Free_mem', 1
  write (10, '(A,1X,I0)') 'MPI_Finalize', 1
  close (10)
  call MPI_Finalize(ierr)

contains

  subroutine tickn(name, n)
    character(len=*), intent(in) :: name
    integer, intent(in) :: n
    integer :: k
    do k = 1, nf
      if (names(k) == name) then
        counts(k) = counts(k) + n
        return
      end if
    end do
    print *, 'fortran_more: unknown name ', name
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end subroutine tickn

  subroutine tick(name)
    character(len=*), intent(in) :: name
    call tickn(name, 1)
  end subroutine tick

  ! MPI_Type_free of a datatype an MPI-1 call made (a default INTEGER)
  subroutine free_int_type(t)
    integer, intent(in) :: t
    HTYPE :: h
#ifdef F08
    h%MPI_VAL = t
#else
    h = t
#endif
    call MPI_Type_free(h, ierr)
  end subroutine free_int_type

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'fortran_more: rank ', rank, ' FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end subroutine expect

end program fortran_more
