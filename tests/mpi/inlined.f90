! A contained procedure that gfortran -O1 inlines into the main program
! (called once): its MPI calls' call sites are in the inlined body, where
! binutils 2.40's addr2line names the first address it is asked about in
! it after the enclosing MAIN__ and every later one after the procedure
! (tests/cli/mpi_inlined_sites.sh).  Shaped like the matrix-vector
! product of a PARPACK driver: a halo exchange with both neighbours.
program inlined
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, it
  double precision :: x(4), left, right
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  x = dble(rank)
  do it = 1, 3
    call exch()
  end do
  if (rank == 0) print '(a,2f6.1)', 'halo ', left, right
  call MPI_Finalize(ierr)
contains
  subroutine exch()
    integer :: reqs(4)
    left = -1d0
    right = -1d0
    reqs = MPI_REQUEST_NULL
    call MPI_Irecv(left, 1, MPI_DOUBLE_PRECISION, modulo(rank - 1, nprocs), 1, &
         MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Irecv(right, 1, MPI_DOUBLE_PRECISION, modulo(rank + 1, nprocs), 2, &
         MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Isend(x(1), 1, MPI_DOUBLE_PRECISION, modulo(rank - 1, nprocs), 2, &
         MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Isend(x(4), 1, MPI_DOUBLE_PRECISION, modulo(rank + 1, nprocs), 1, &
         MPI_COMM_WORLD, reqs(4), ierr)
    call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE, ierr)
  end subroutine exch
end program inlined
