! Cartesian sub-communicators as CP2K makes them (its mp_cart_create /
! mp_cart_sub / mp_cart_rank): a 2-D grid over MPI_COMM_WORLD, its rows
! and columns by MPI_Cart_sub (LOGICAL remain_dims), MPI_Cart_rank of
! neighbours, then a ring exchange (Isend / Irecv / Waitall, ranks of the
! sub-communicator) and a Bcast from the last rank in each row and
! column.  Prints "done" on success.
program cartsub
  use mpi
  implicit none
  integer :: ierr, me, np, grid, sub(2), dims(2), d, sme, snp, i
  integer :: nb, coords(2), req(2), root, sbuf(4), rbuf(4), bbuf(3)
  logical :: periods(2), keep(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  periods = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  call MPI_Cart_coords(grid, me, 2, coords, ierr)
  do d = 1, 2
    keep = .false.
    keep(d) = .true.
    call MPI_Cart_sub(grid, keep, sub(d), ierr)
  end do
  ! the grid neighbour one step along the second dimension
  coords(2) = mod(coords(2) + 1, dims(2))
  call MPI_Cart_rank(grid, coords, nb, ierr)
  do d = 1, 2
    call MPI_Comm_rank(sub(d), sme, ierr)
    call MPI_Comm_size(sub(d), snp, ierr)
    do i = 1, 3
      sbuf = me * 100 + d * 10 + i
      call MPI_Irecv(rbuf, 4, MPI_INTEGER, mod(sme + snp - 1, snp), d, &
                     sub(d), req(1), ierr)
      call MPI_Isend(sbuf, 4, MPI_INTEGER, mod(sme + 1, snp), d, sub(d), &
                     req(2), ierr)
      call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    end do
    root = snp - 1
    bbuf = me
    call MPI_Bcast(bbuf, 3, MPI_INTEGER, root, sub(d), ierr)
    call MPI_Comm_free(sub(d), ierr)
  end do
  call MPI_Comm_free(grid, ierr)
  if (nb >= 0 .and. nb < np) print '(a)', 'done'
  call MPI_Finalize(ierr)
end program cartsub
