! The Fortran twin of topology_reorder.c, built twice: with `use mpi` and
! (TMAP_F08 defined) with `use mpi_f08`. Open MPI's Fortran bindings call the
! C library's internals, not MPI_Cart_create & co., so a PMPI preload never
! sees these calls; Open MPI's topo component does. Each of the four
! constructors, with reorder = .true., on the same graphs as the C program
! (cart: a 2 x (n/2) grid, not periodic; the others: a ring visited in the
! order (7v+3) mod n). Checked on every rank: the neighbours MPI gives, as
! the standard says (cart and graph: those of vertex k; dist graphs: the
! edges this process declared, renumbered, or vertex k's when the third
! argument is "ranks"). Rank 0 of the new communicator writes where each
! new rank runs (the world rank playing it, one per line). With a fourth
! argument "unweighted" the dist graphs are declared with MPI_UNWEIGHTED
! (Fortran's sentinel, passed by address) and MPI must say unweighted.
!
!   topology_reorder_f MODE PLACEMENT_FILE [processes|ranks] [unweighted]
#ifdef TMAP_F08
#define COMM_T type(MPI_Comm)
#define GROUP_T type(MPI_Group)
#else
#define COMM_T integer
#define GROUP_T integer
#endif
program topology_reorder_f
#ifdef TMAP_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr, world_rank, n, rank, v, errors, all_errors, k, d, disp, source, dest
  integer :: dims(2), coords(2), other(2), nb(2), want(2), got_in(8), got_out(8), w_in(8), w_out(8)
  integer :: indegree, outdegree, count
  logical :: periods(2), weighted, unweighted
  integer, allocatable :: order(:), position(:), index(:), edges(:), sources(:), degrees(:), targets(:), weights(:)
  integer, allocatable :: where(:)
  integer, parameter :: ring_weights(2) = (/ 100, 100 /)
  COMM_T :: comm
  GROUP_T :: world_group, group
  character(len=4096) :: path
  character(len=16) :: mode, meaning, weighting

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call get_command_argument(1, mode)
  call get_command_argument(2, path)
  call get_command_argument(3, meaning)
  call get_command_argument(4, weighting)
  unweighted = trim(weighting) == 'unweighted'
  allocate(order(0:n-1), position(0:n-1), where(n))
  do v = 0, n - 1
    order(v) = mod(7 * v + 3, n)
  end do
  do v = 0, n - 1
    position(order(v)) = v
  end do
  dims = (/ 2, n / 2 /)
  periods = .false.
  errors = 0

  select case (trim(mode))
  case ('cart')
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., comm, ierr)
  case ('graph')
    allocate(index(n), edges(2 * n))
    do v = 0, n - 1
      call ring(v, edges(2 * v + 1:2 * v + 2))
      index(v + 1) = 2 * (v + 1)
    end do
    call MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, .true., comm, ierr)
  case ('adjacent')
    call ring(world_rank, nb)
    if (unweighted) then
      call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, MPI_UNWEIGHTED, 2, nb, MPI_UNWEIGHTED, &
                                          MPI_INFO_NULL, .true., comm, ierr)
    else
      call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, ring_weights, 2, nb, ring_weights, &
                                          MPI_INFO_NULL, .true., comm, ierr)
    end if
  case default  ! dist: rank 0 declares every edge
    allocate(sources(n), degrees(n), targets(2 * n), weights(2 * n))
    do v = 0, n - 1
      sources(v + 1) = v
      degrees(v + 1) = 2
      call ring(v, targets(2 * v + 1:2 * v + 2))
    end do
    weights = 100
    count = 0
    if (world_rank == 0) count = n
    if (unweighted) then
      call MPI_Dist_graph_create(MPI_COMM_WORLD, count, sources, degrees, targets, MPI_UNWEIGHTED, &
                                 MPI_INFO_NULL, .true., comm, ierr)
    else
      call MPI_Dist_graph_create(MPI_COMM_WORLD, count, sources, degrees, targets, weights, &
                                 MPI_INFO_NULL, .true., comm, ierr)
    end if
  end select
  call MPI_Comm_rank(comm, rank, ierr)

  select case (trim(mode))
  case ('cart')
    call MPI_Cart_coords(comm, rank, 2, coords, ierr)
    if (coords(1) /= rank / dims(2) .or. coords(2) /= mod(rank, dims(2))) errors = errors + 1
    do d = 0, 1
      do disp = -1, 1, 2
        call MPI_Cart_shift(comm, d, disp, source, dest, ierr)
        if (dest /= MPI_PROC_NULL) then
          call MPI_Cart_coords(comm, dest, 2, other, ierr)
          if (other(d + 1) /= coords(d + 1) + disp .or. other(2 - d) /= coords(2 - d)) errors = errors + 1
        else if (coords(d + 1) + disp >= 0 .and. coords(d + 1) + disp < dims(d + 1)) then
          errors = errors + 1
        end if
      end do
    end do
  case ('graph')
    call MPI_Graph_neighbors_count(comm, rank, count, ierr)
    call MPI_Graph_neighbors(comm, rank, min(count, 8), got_out, ierr)
    call ring(rank, want)
    call check(got_out, count, want)
  case default
    call MPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted, ierr)
    call MPI_Dist_graph_neighbors(comm, min(indegree, 8), got_in, w_in, min(outdegree, 8), got_out, w_out, ierr)
    if (weighted .eqv. unweighted) errors = errors + 1  ! MPI_UNWEIGHTED arrived as weights, or the reverse
    if (trim(meaning) == 'ranks') then
      call ring(rank, want)
    else  ! this process keeps the edges it declared, named by their new ranks
      call ring(world_rank, nb)
      call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
      call MPI_Comm_group(comm, group, ierr)
      call MPI_Group_translate_ranks(world_group, 2, nb, group, want, ierr)
      call MPI_Group_free(world_group, ierr)
      call MPI_Group_free(group, ierr)
    end if
    call check(got_in, indegree, want)
    call check(got_out, outdegree, want)
  end select

  call MPI_Allreduce(errors, all_errors, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  call MPI_Gather(world_rank, 1, MPI_INTEGER, where, 1, MPI_INTEGER, 0, comm, ierr)
  if (rank == 0) then
    print '(a, a, i0, a)', trim(mode), ' (Fortran): ', all_errors, ' neighbourhood errors'
    open(unit=10, file=trim(path), status='replace', action='write')
    do k = 1, n
      write(10, '(i0)') where(k)
    end do
    close(10)
  end if
  call MPI_Comm_free(comm, ierr)
  call MPI_Finalize(ierr)
  if (all_errors /= 0) stop 1

contains

  ! Vertex v's ring neighbours: next, then previous.
  subroutine ring(v, out)
    integer, intent(in) :: v
    integer, intent(out) :: out(2)
    out(1) = order(mod(position(v) + 1, n))
    out(2) = order(mod(position(v) + n - 1, n))
  end subroutine ring

  ! got(1:count) holds exactly want's two ranks.
  subroutine check(got, count, want)
    integer, intent(in) :: got(:), count, want(2)
    integer :: i
    if (count /= 2) then
      errors = errors + 1
      return
    end if
    do i = 1, 2
      if (all(got(1:2) /= want(i))) errors = errors + 1
    end do
  end subroutine check
end program topology_reorder_f
