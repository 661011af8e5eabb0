! MPI_Comm_spawn and MPI_Comm_spawn_multiple from Fortran (arrays of
! CHARACTER strings, OpenMPI's own entry points traced around them): the
! parent job spawns one copy of this program with the arguments "child"
! and "a b" (argv, blank-terminated), then two copies with
! MPI_Comm_spawn_multiple (MPI_ARGVS_NULL, MPI_ERRCODES_IGNORE), and its
! rank 0 sends each child a number.  The children check their arguments
! and the numbers.  Built with the mpi module, or with -DF08 mpi_f08.
! Prints "fortran_spawn: ok" on the parent's rank 0, "child ok" per child.
#ifdef F08
#define USEMPI use mpi_f08
#define HCOMM type(MPI_Comm)
#define HINFO type(MPI_Info)
#else
#define USEMPI use mpi
#define HCOMM integer
#define HINFO integer
#endif
program fortran_spawn
  USEMPI
  implicit none
  integer :: ierr, rank, v, n, i, errs(1)
  HCOMM :: parent, kids
  HINFO :: infos(2)
  character(len=256) :: cmd, arg1, arg2
  character(len=8) :: argv(3)
  character(len=256) :: cmds(2)
  integer :: maxprocs(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_get_parent(parent, ierr)
  if (parent == MPI_COMM_NULL) then
    call get_command_argument(0, cmd)
    argv(1) = 'child'
    argv(2) = 'a b'
    argv(3) = ' '
    errs = -1
    call MPI_Comm_spawn(cmd, argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &
                        kids, errs, ierr)
    call expect(ierr == MPI_SUCCESS .and. errs(1) == MPI_SUCCESS, 'spawn')
    if (rank == 0) call MPI_Send(7, 1, MPI_INTEGER, 0, 1, kids, ierr)
    call MPI_Comm_disconnect(kids, ierr)
    cmds = cmd
    maxprocs = 1
    infos = MPI_INFO_NULL
    call MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, &
                                 0, MPI_COMM_WORLD, kids, &
                                 MPI_ERRCODES_IGNORE, ierr)
    call expect(ierr == MPI_SUCCESS, 'spawn_multiple')
    call MPI_Comm_remote_size(kids, n, ierr)
    call expect(n == 2, 'spawn_multiple: 2 children')
    if (rank == 0) then
      do i = 0, 1
        call MPI_Send(8 + i, 1, MPI_INTEGER, i, 1, kids, ierr)
      end do
    end if
    call MPI_Comm_disconnect(kids, ierr)
    if (rank == 0) print '(A)', 'fortran_spawn: ok'
  else
    call get_command_argument(1, arg1)
    call get_command_argument(2, arg2)
    call MPI_Recv(v, 1, MPI_INTEGER, 0, 1, parent, MPI_STATUS_IGNORE, ierr)
    if (arg1 == 'child') then
      call expect(arg2 == 'a b' .and. v == 7, 'child of MPI_Comm_spawn')
    else
      call expect(arg1 == ' ' .and. v == 8 + rank, &
                  'child of MPI_Comm_spawn_multiple')
    end if
    print '(A)', 'child ok'
    call MPI_Comm_disconnect(parent, ierr)
  end if
  call MPI_Finalize(ierr)

contains

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'fortran_spawn: rank ', rank, ' FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end subroutine expect

end program fortran_spawn
