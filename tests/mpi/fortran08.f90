! The mpi_f08 module's calls (OpenMPI routes them to its ompi_*_f entry
! points) through the recorder: a ring of blocking and non-blocking
! messages, Waitany's 1-based index, a collective in place, a
! communicator made and freed, MPI_Info strings with blanks, and calls
! the module sends to OpenMPI's Fortran profiling entries (pmpi_testall_,
! pmpi_iprobe_: those with LOGICAL arguments), MPI_Iprobe from two lines
! many times (call sites found without unwinding each call); the
! program checks its results and writes its call counts to PREFIX.<rank>.
! Usage: fortran08 PREFIX
program fortran08_test
  use mpi_f08
  implicit none
  integer :: rank, nprocs, right, left, n, sum, i, idx, ntest
  logical :: flag
  type(MPI_Info) :: info
  character(len=32) :: val
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: half
  integer :: sbuf(4), rbuf(4)
  character(len=256) :: prefix
  character(len=16) :: rs

  call get_command_argument(1, prefix)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  sbuf = rank
  if (mod(rank, 2) == 0) then
    call MPI_Send(sbuf, 4, MPI_INTEGER, right, 7, MPI_COMM_WORLD)
    call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, status)
  else
    call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, status)
    call MPI_Send(sbuf, 4, MPI_INTEGER, right, 7, MPI_COMM_WORLD)
  end if
  call expect(status%MPI_SOURCE == left .and. rbuf(4) == left, 'Recv')
  call MPI_Get_count(status, MPI_INTEGER, n)
  call expect(n == 4, 'Get_count')

  call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, statuses)
  call expect(statuses(1)%MPI_SOURCE == left, 'Waitall status')
  do i = 1, 2
    call expect(reqs(i) == MPI_REQUEST_NULL, 'Waitall: requests freed')
  end do

  call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 10, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, right, 10, MPI_COMM_WORLD, reqs(2))
  do i = 1, 2
    call MPI_Waitany(2, reqs, idx, status)
    call expect(idx == 1 .or. idx == 2, 'Waitany: index in 1..2')
    call expect(reqs(idx) == MPI_REQUEST_NULL, 'Waitany: request freed')
  end do

  call MPI_Irecv(rbuf, 4, MPI_INTEGER, left, 11, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, right, 11, MPI_COMM_WORLD, reqs(2))
  flag = .false.
  ntest = 0
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, statuses)
    ntest = ntest + 1
  end do
  call expect(statuses(1)%MPI_SOURCE == left .and. rbuf(1) == left, 'Testall')
  do i = 1, 50
    call MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag, status)
  end do
  do i = 1, 30
    call MPI_Iprobe(MPI_ANY_SOURCE, 98, MPI_COMM_WORLD, flag, status)
  end do
  call expect(.not. flag, 'Iprobe: no message')

  call MPI_Info_create(info)
  call MPI_Info_set(info, ' paratrace_key  ', 'a value   ')
  call MPI_Info_get(info, 'paratrace_key', 32, val, flag)
  call expect(flag .and. val == 'a value', 'Info_set: blanks')
  call MPI_Info_free(info)

  sum = rank
  call MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call expect(sum == nprocs * (nprocs - 1) / 2, 'Allreduce in place')
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  call MPI_Barrier(half)
  call MPI_Comm_free(half)
  call expect(half == MPI_COMM_NULL, 'Comm_free')
  call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &
                MPI_STATUS_IGNORE)

  write (rs, '(I0)') rank
  open (unit=10, file=trim(prefix) // '.' // trim(rs), status='replace')
  write (10, '(A)') 'MPI_Init 1', 'MPI_Comm_rank 1', 'MPI_Comm_size 1', &
       'MPI_Send 1', 'MPI_Recv 2', 'MPI_Get_count 1', 'MPI_Irecv 3', &
       'MPI_Isend 3', 'MPI_Waitall 1', 'MPI_Waitany 2', 'MPI_Allreduce 1', &
       'MPI_Iprobe 80', &
       'MPI_Info_create 1', 'MPI_Info_set 1', 'MPI_Info_get 1', &
       'MPI_Info_free 1', &
       'MPI_Comm_split 1', 'MPI_Barrier 1', 'MPI_Comm_free 1', 'MPI_Finalize 1'
  write (10, '(A,I0)') 'MPI_Testall ', ntest
  close (10)
  call MPI_Finalize()

contains

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'fortran08_test: rank ', rank, ' FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 2)
    end if
  end subroutine expect

end program fortran08_test
