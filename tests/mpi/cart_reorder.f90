! A Fortran program (use mpi) that asks for a reordered Cartesian grid: the
! case a PMPI preload cannot see (Open MPI's Fortran bindings call the C
! library's internals directly) and Open MPI's topo component can. It builds
! a 2 x (n/2) grid, not periodic, with reorder = .true. (the same grid as
! topology_reorder.c's "cart", so its graph file scores this placement),
! checks every neighbour MPI_CART_SHIFT gives against MPI_CART_COORDS, and
! writes where each new rank runs (the world rank playing it, one per line).
!
!   cart_reorder PLACEMENT_FILE
program cart_reorder
  use mpi
  implicit none
  integer :: ierr, world_rank, size, cart, rank, d, disp, source, dest, errors, all_errors, k
  integer :: dims(2), coords(2), other(2)
  logical :: periods(2)
  integer, allocatable :: where(:)
  character(len=4096) :: path

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, world_rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, path)
  dims = (/ 2, size / 2 /)
  periods = .false.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  call MPI_COMM_RANK(cart, rank, ierr)
  call MPI_CART_COORDS(cart, rank, 2, coords, ierr)
  errors = 0
  do d = 0, 1
    do disp = -1, 1, 2
      call MPI_CART_SHIFT(cart, d, disp, source, dest, ierr)
      if (dest /= MPI_PROC_NULL) then
        call MPI_CART_COORDS(cart, dest, 2, other, ierr)
        if (other(d + 1) /= coords(d + 1) + disp .or. other(2 - d) /= coords(2 - d)) errors = errors + 1
      else if (coords(d + 1) + disp >= 0 .and. coords(d + 1) + disp < dims(d + 1)) then
        errors = errors + 1
      end if
    end do
  end do
  call MPI_ALLREDUCE(errors, all_errors, 1, MPI_INTEGER, MPI_SUM, cart, ierr)
  allocate(where(size))
  call MPI_GATHER(world_rank, 1, MPI_INTEGER, where, 1, MPI_INTEGER, 0, cart, ierr)
  if (rank == 0) then
    print '(a, i0, a)', 'cart (Fortran): ', all_errors, ' neighbourhood errors'
    open(unit=10, file=trim(path), status='replace', action='write')
    do k = 1, size
      write(10, '(i0)') where(k)
    end do
    close(10)
  end if
  call MPI_COMM_FREE(cart, ierr)
  call MPI_FINALIZE(ierr)
  if (all_errors /= 0) stop 1
end program cart_reorder
