! A Fortran MPI program (the mpi module, which reaches OpenMPI's mpif.h
! entry points) for the recorder's Fortran bindings: it checks its own
! results (statuses, 1-based indices and MPI_UNDEFINED, tests that find
! nothing, more requests and statuses than the bindings keep on the stack,
! MPI_IN_PLACE, handles made and freed, graph topology arrays left as
! given, strings with leading and trailing blanks and longer than 256
! characters, MPI_Pcontrol switching recording off) and writes, per rank, the number of calls it made of each MPI
! function to PREFIX.<rank> ("MPI_Send 12" lines), to compare with the
! trace.  Usage: fortran PREFIX [ITERS]
program fortran_test
  use mpi
  implicit none
  integer, parameter :: nf = 34
  character(len=24) :: names(nf)
  integer :: counts(nf)
  integer :: ierr, rank, nprocs, right, left, i, it, iters, n, idx
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 4)
  integer :: reqs(4), indices(4), outcount
  integer :: newcomm, dupcomm, vec, info, sum, crank, csize
  integer :: sbuf(8), rbuf(8), rbuf2(8), bigbuf(16)
  logical :: flag
  character(len=256) :: prefix, arg
  character(len=32) :: fname
  character(len=16) :: rs
  character(len=400) :: longname
  integer :: mreqs(24), mstat(MPI_STATUS_SIZE, 24), mbuf(12), sarr(12)
  integer :: gindex(64), gedges(128), gi2(64), ge2(128), gcomm, fh

  names = [character(len=24) :: 'MPI_Init', 'MPI_Comm_rank', &
       'MPI_Comm_size', 'MPI_Send', 'MPI_Recv', 'MPI_Get_count', &
       'MPI_Isend', 'MPI_Irecv', 'MPI_Waitall', 'MPI_Waitany', &
       'MPI_Waitsome', 'MPI_Allreduce', 'MPI_Bcast', 'MPI_Comm_split', &
       'MPI_Comm_dup', 'MPI_Comm_free', 'MPI_Type_contiguous', &
       'MPI_Type_commit', 'MPI_Type_free', 'MPI_Sendrecv', 'MPI_Iprobe', &
       'MPI_Barrier', 'MPI_Info_create', 'MPI_Info_set', 'MPI_Testany', &
       'MPI_Testall', 'MPI_Testsome', 'MPI_Graph_create', 'MPI_Graph_get', &
       'MPI_File_open', 'MPI_File_close', 'MPI_Comm_set_name', &
       'MPI_Info_get', 'MPI_Comm_get_name']
  counts = 0
  iters = 3
  call get_command_argument(1, prefix)
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) iters
  end if

  call MPI_Init(ierr)
  call tick('MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call tick('MPI_Comm_rank')
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call tick('MPI_Comm_size')
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  do it = 1, iters
    ! blocking ring: status fields and the element count
    sbuf = rank
    if (mod(rank, 2) == 0) then
      call MPI_Send(sbuf, 8, MPI_INTEGER, right, 10 + it, MPI_COMM_WORLD, ierr)
      call tick('MPI_Send')
      call MPI_Recv(rbuf, 8, MPI_INTEGER, MPI_ANY_SOURCE, 10 + it, &
                    MPI_COMM_WORLD, status, ierr)
      call tick('MPI_Recv')
    else
      call MPI_Recv(rbuf, 8, MPI_INTEGER, MPI_ANY_SOURCE, 10 + it, &
                    MPI_COMM_WORLD, status, ierr)
      call tick('MPI_Recv')
      call MPI_Send(sbuf, 8, MPI_INTEGER, right, 10 + it, MPI_COMM_WORLD, ierr)
      call tick('MPI_Send')
    end if
    call expect(status(MPI_SOURCE) == left, 'Recv: status source')
    call expect(status(MPI_TAG) == 10 + it, 'Recv: status tag')
    call expect(rbuf(8) == left, 'Recv: data')
    call MPI_Get_count(status, MPI_INTEGER, n, ierr)
    call tick('MPI_Get_count')
    call expect(n == 8, 'Get_count')

    ! non-blocking both ways, Waitall with statuses
    call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 20, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Irecv(rbuf2, 4, MPI_INTEGER, right, 21, MPI_COMM_WORLD, reqs(2), ierr)
    call tick('MPI_Irecv'); call tick('MPI_Irecv')
    call MPI_Isend(sbuf, 4, MPI_INTEGER, right, 20, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Isend(sbuf, 4, MPI_INTEGER, left, 21, MPI_COMM_WORLD, reqs(4), ierr)
    call tick('MPI_Isend'); call tick('MPI_Isend')
    call MPI_Waitall(4, reqs, statuses, ierr)
    call tick('MPI_Waitall')
    call expect(statuses(MPI_SOURCE, 1) == left, 'Waitall: status 1 source')
    call expect(statuses(MPI_SOURCE, 2) == right, 'Waitall: status 2 source')
    call expect(statuses(MPI_TAG, 2) == 21, 'Waitall: status 2 tag')
    do i = 1, 4
      call expect(reqs(i) == MPI_REQUEST_NULL, 'Waitall: requests freed')
    end do

    ! Waitany: 1-based indices, each request once
    call MPI_Irecv(rbuf, 2, MPI_INTEGER, left, 30, MPI_COMM_WORLD, reqs(1), ierr)
    call tick('MPI_Irecv')
    call MPI_Isend(sbuf, 2, MPI_INTEGER, right, 30, MPI_COMM_WORLD, reqs(2), ierr)
    call tick('MPI_Isend')
    indices = 0
    do i = 1, 2
      call MPI_Waitany(2, reqs, idx, status, ierr)
      call tick('MPI_Waitany')
      call expect(idx == 1 .or. idx == 2, 'Waitany: index in 1..2')
      indices(idx) = indices(idx) + 1
    end do
    call expect(indices(1) == 1 .and. indices(2) == 1, 'Waitany: each once')

    ! Waitsome with MPI_STATUSES_IGNORE
    call MPI_Irecv(rbuf, 2, MPI_INTEGER, left, 40, MPI_COMM_WORLD, reqs(1), ierr)
    call tick('MPI_Irecv')
    call MPI_Isend(sbuf, 2, MPI_INTEGER, right, 40, MPI_COMM_WORLD, reqs(2), ierr)
    call tick('MPI_Isend')
    n = 0
    do while (n < 2)
      call MPI_Waitsome(2, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
      call tick('MPI_Waitsome')
      do i = 1, outcount
        call expect(indices(i) >= 1 .and. indices(i) <= 2, 'Waitsome: index')
      end do
      n = n + outcount
    end do

    ! collectives: MPI_IN_PLACE, Bcast
    sum = rank
    call MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    call tick('MPI_Allreduce')
    call expect(sum == nprocs * (nprocs - 1) / 2, 'Allreduce in place')
    n = 0
    if (rank == 0) n = 42 + it
    call MPI_Bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call tick('MPI_Bcast')
    call expect(n == 42 + it, 'Bcast')
  end do

  ! communicators and datatypes made and freed
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, newcomm, ierr)
  call tick('MPI_Comm_split')
  call MPI_Comm_rank(newcomm, crank, ierr)
  call tick('MPI_Comm_rank')
  call MPI_Comm_size(newcomm, csize, ierr)
  call tick('MPI_Comm_size')
  call expect(crank == rank / 2, 'Comm_split: rank')
  call MPI_Comm_dup(newcomm, dupcomm, ierr)
  call tick('MPI_Comm_dup')
  sum = 1
  call MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_SUM, dupcomm, ierr)
  call tick('MPI_Allreduce')
  call expect(sum == csize, 'Allreduce on a split, duplicated comm')
  call MPI_Comm_free(dupcomm, ierr)
  call tick('MPI_Comm_free')
  call expect(dupcomm == MPI_COMM_NULL, 'Comm_free: handle nulled')
  call MPI_Comm_free(newcomm, ierr)
  call tick('MPI_Comm_free')

  call MPI_Type_contiguous(4, MPI_INTEGER, vec, ierr)
  call tick('MPI_Type_contiguous')
  call MPI_Type_commit(vec, ierr)
  call tick('MPI_Type_commit')
  bigbuf = rank
  call MPI_Sendrecv(bigbuf, 2, vec, right, 50, rbuf, 8, MPI_INTEGER, left, &
                    50, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call tick('MPI_Sendrecv')
  call expect(rbuf(8) == left, 'Sendrecv with a derived type')
  call MPI_Type_free(vec, ierr)
  call tick('MPI_Type_free')
  call expect(vec == MPI_DATATYPE_NULL, 'Type_free: handle nulled')

  ! a probe that finds nothing, strings
  call MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag, status, ierr)
  call tick('MPI_Iprobe')
  call expect(.not. flag, 'Iprobe: nothing pending')
  call MPI_Info_create(info, ierr)
  call tick('MPI_Info_create')
  call MPI_Info_set(info, 'paratrace_key   ', 'a value', ierr)
  call tick('MPI_Info_set')
  call MPI_Info_get(info, 'paratrace_key', 32, fname, flag, ierr)
  call tick('MPI_Info_get')
  call expect(flag .and. fname == 'a value', 'Info_set: trailing blanks')
  call MPI_Info_set(info, '  paratrace_key2 ', 'v2', ierr)
  call tick('MPI_Info_set')
  call MPI_Info_get(info, 'paratrace_key2', 32, fname, flag, ierr)
  call tick('MPI_Info_get')
  call expect(flag .and. fname == 'v2', 'Info_set: leading blanks')
  call MPI_Info_free(info, ierr)

  ! tests that find nothing yet (the partner sends after the barrier)
  call MPI_Irecv(rbuf, 2, MPI_INTEGER, left, 60, MPI_COMM_WORLD, reqs(1), ierr)
  call tick('MPI_Irecv')
  reqs(2) = MPI_REQUEST_NULL
  call MPI_Testany(2, reqs, idx, flag, status, ierr)
  call tick('MPI_Testany')
  call expect(.not. flag .and. idx == MPI_UNDEFINED, 'Testany: nothing yet')
  call MPI_Testall(2, reqs, flag, statuses, ierr)
  call tick('MPI_Testall')
  call expect(.not. flag, 'Testall: nothing yet')
  call MPI_Testsome(2, reqs, outcount, indices, statuses, ierr)
  call tick('MPI_Testsome')
  call expect(outcount == 0, 'Testsome: nothing yet')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call tick('MPI_Barrier')
  call MPI_Isend(sbuf, 2, MPI_INTEGER, right, 60, MPI_COMM_WORLD, reqs(2), ierr)
  call tick('MPI_Isend')
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(2, reqs, idx, flag, status, ierr)
    call tick('MPI_Testany')
  end do
  call expect(idx == 1 .or. idx == 2, 'Testany: index in 1..2')
  call expect(reqs(idx) == MPI_REQUEST_NULL, 'Testany: request freed')
  if (idx == 1) call expect(status(MPI_SOURCE) == left .and. &
                            status(MPI_TAG) == 60, 'Testany: status')
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, statuses, ierr)
    call tick('MPI_Testall')
  end do
  if (idx == 2) call expect(statuses(MPI_SOURCE, 1) == left, 'Testall: status')
  call MPI_Testany(2, reqs, idx, flag, status, ierr)
  call tick('MPI_Testany')
  call expect(flag .and. idx == MPI_UNDEFINED, 'Testany: all null')
  call MPI_Testsome(2, reqs, outcount, indices, statuses, ierr)
  call tick('MPI_Testsome')
  call expect(outcount == MPI_UNDEFINED, 'Testsome: all null')

  ! 24 requests and statuses (more than the bindings keep on the stack)
  do i = 1, 12
    call MPI_Irecv(mbuf(i), 1, MPI_INTEGER, left, 100 + i, MPI_COMM_WORLD, &
                   mreqs(i), ierr)
    call tick('MPI_Irecv')
  end do
  do i = 1, 12
    sarr(i) = 1000 * i + rank
    call MPI_Isend(sarr(i), 1, MPI_INTEGER, right, 100 + i, MPI_COMM_WORLD, &
                   mreqs(12 + i), ierr)
    call tick('MPI_Isend')
  end do
  call MPI_Waitall(24, mreqs, mstat, ierr)
  call tick('MPI_Waitall')
  do i = 1, 12
    call expect(mstat(MPI_SOURCE, i) == left .and. &
                mstat(MPI_TAG, i) == 100 + i, 'Waitall 24: statuses')
    call expect(mbuf(i) == 1000 * i + left, 'Waitall 24: data')
  end do
  do i = 1, 24
    call expect(mreqs(i) == MPI_REQUEST_NULL, 'Waitall 24: requests freed')
  end do

  ! a ring graph: the index and edge arrays are the caller's, unchanged
  do i = 1, nprocs
    gindex(i) = 2 * i
    gedges(2 * i - 1) = mod(i - 2 + nprocs, nprocs)
    gedges(2 * i) = mod(i, nprocs)
  end do
  call MPI_Graph_create(MPI_COMM_WORLD, nprocs, gindex, gedges, .false., &
                        gcomm, ierr)
  call tick('MPI_Graph_create')
  do i = 1, nprocs
    call expect(gindex(i) == 2 * i, 'Graph_create: index left as given')
  end do
  call MPI_Graph_get(gcomm, nprocs, 2 * nprocs, gi2, ge2, ierr)
  call tick('MPI_Graph_get')
  do i = 1, nprocs
    call expect(gi2(i) == 2 * i, 'Graph_get: index')
    call expect(ge2(2 * i) == gedges(2 * i), 'Graph_get: edges')
  end do
  call MPI_Comm_free(gcomm, ierr)
  call tick('MPI_Comm_free')

  ! a file name between blanks
  write (rs, '(I0)') rank
  longname = ' ' // repeat('./', 50) // 'ptlong.' // trim(rs)
  call MPI_File_open(MPI_COMM_SELF, longname, &
                     MPI_MODE_CREATE + MPI_MODE_WRONLY, MPI_INFO_NULL, fh, ierr)
  call tick('MPI_File_open')
  call expect(ierr == MPI_SUCCESS, 'File_open: a long name')
  call MPI_File_close(fh, ierr)
  call tick('MPI_File_close')
  inquire (file='ptlong.' // trim(rs), exist=flag)
  call expect(flag, 'File_open: the file made')

  ! a name of 300 characters (OpenMPI keeps the first MPI_MAX_OBJECT_NAME)
  longname = '  ' // repeat('abcdefghij', 30)
  call MPI_Comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
  call tick('MPI_Comm_dup')
  call MPI_Comm_set_name(dupcomm, longname, ierr)
  call tick('MPI_Comm_set_name')
  call MPI_Comm_get_name(dupcomm, longname, n, ierr)
  call tick('MPI_Comm_get_name')
  call expect(n == MPI_MAX_OBJECT_NAME .and. &
              longname(1:20) == 'abcdefghijabcdefghij', 'Comm_set_name: 300')
  call MPI_Comm_free(dupcomm, ierr)
  call tick('MPI_Comm_free')

  ! measurement off: this barrier is not recorded
  call MPI_Pcontrol(0)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(1)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call tick('MPI_Barrier')

  write (fname, '(I0)') rank
  open (unit=10, file=trim(prefix) // '.' // trim(fname), status='replace')
  do i = 1, nf
    if (counts(i) > 0) write (10, '(A,1X,I0)') trim(names(i)), counts(i)
  end do
  write (10, '(A,1X,I0)') 'MPI_Info_free', 1
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
    print *, 'fortran_test: unknown name ', name
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end subroutine tick

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'fortran_test: rank ', rank, ' FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end subroutine expect

end program fortran_test
