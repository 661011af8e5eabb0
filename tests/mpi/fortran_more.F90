! The Fortran bindings whose arguments are more than references to C's:
! datatype arrays with one entry per process (MPI_Alltoallw, also in
! place) or per neighbour (MPI_Neighbor_alltoallw), MPI_UNWEIGHTED and
! weight arrays (MPI_Dist_graph_*), and address results (MPI_Win_allocate,
! MPI_Win_allocate_shared + MPI_Win_shared_query, MPI_Alloc_mem: TYPE(C_PTR),
! through OpenMPI's *_cptr entry points with the mpi module).  Built twice:
! with the mpi module, and with -DF08 with mpi_f08.  The program checks
! its results and writes its call counts to PREFIX.<rank>.
! Usage: fortran_more PREFIX
#ifdef F08
#define HCOMM type(MPI_Comm)
#define HTYPE type(MPI_Datatype)
#define HWIN type(MPI_Win)
#define HREQ type(MPI_Request)
#else
#define HCOMM integer
#define HTYPE integer
#define HWIN integer
#define HREQ integer
#endif
program fortran_more
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  integer, parameter :: nf = 22
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

  names = [character(len=32) :: 'MPI_Init', 'MPI_Comm_rank', &
       'MPI_Comm_size', 'MPI_Alltoallw', 'MPI_Ialltoallw', 'MPI_Wait', &
       'MPI_Cart_create', 'MPI_Neighbor_alltoallw', &
       'MPI_Ineighbor_alltoallw', 'MPI_Dist_graph_create_adjacent', &
       'MPI_Dist_graph_create', 'MPI_Dist_graph_neighbors', &
       'MPI_Dist_graph_neighbors_count', 'MPI_Comm_free', &
       'MPI_Win_allocate', 'MPI_Win_fence', 'MPI_Put', 'MPI_Win_free', &
       'MPI_Comm_split_type', 'MPI_Win_allocate_shared', &
       'MPI_Win_shared_query', 'MPI_Alloc_mem']
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

  subroutine tick(name)
    character(len=*), intent(in) :: name
    integer :: k
    do k = 1, nf
      if (names(k) == name) then
        counts(k) = counts(k) + 1
        return
      end if
    end do
    print *, 'fortran_more: unknown name ', name
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end subroutine tick

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'fortran_more: rank ', rank, ' FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end subroutine expect

end program fortran_more
