! The Fortran twin of monitored_traffic.c, for the recorder (TMAP_RECORD):
! rank s sends (s+1)*(t+1)*10 bytes, in mod(s,3)+1 messages, to each of its
! targets t = mod(s+1,n) and mod(3s+2,n) (t /= s), then one MPI_Allreduce
! of one integer. Built with `use mpi` and (TMAP_F08 defined) `use mpi_f08`.
! The expected matrix is the C program's (it writes it).
#ifdef TMAP_F08
#define REQUEST_T type(MPI_Request)
#else
#define REQUEST_T integer
#endif
program recorded_traffic_f
#ifdef TMAP_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr, me, n, s, e, k, m, messages, total, size, pending, x
  integer :: t(2)
  character, allocatable :: buffer(:), outgoing(:)
  REQUEST_T, allocatable :: requests(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  allocate(buffer(n * 4000), outgoing(4000), requests(n * 16))
  pending = 0
  ! Receive what each source sends here, message by message.
  do s = 0, n - 1
    call targets(s, n, t, k)
    do e = 1, k
      if (t(e) /= me) cycle
      messages = mod(s, 3) + 1
      total = (s + 1) * (me + 1) * 10
      do m = 0, messages - 1
        size = part(total, messages, m)
        pending = pending + 1
        call MPI_Irecv(buffer(s * 4000 + 1), size, MPI_CHARACTER, s, m, MPI_COMM_WORLD, requests(pending), ierr)
      end do
    end do
  end do
  call targets(me, n, t, k)
  do e = 1, k
    messages = mod(me, 3) + 1
    total = (me + 1) * (t(e) + 1) * 10
    do m = 0, messages - 1
      size = part(total, messages, m)
      pending = pending + 1
      call MPI_Isend(outgoing, size, MPI_CHARACTER, t(e), m, MPI_COMM_WORLD, requests(pending), ierr)
    end do
  end do
  call MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE, ierr)
  x = me
  call MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)

contains

  subroutine targets(s, n, t, k)
    integer, intent(in) :: s, n
    integer, intent(out) :: t(2), k
    integer :: a, b
    a = mod(s + 1, n)
    b = mod(3 * s + 2, n)
    k = 0
    if (a /= s) then
      k = k + 1
      t(k) = a
    end if
    if (b /= s .and. b /= a) then
      k = k + 1
      t(k) = b
    end if
  end subroutine targets

  integer function part(total, messages, m)
    integer, intent(in) :: total, messages, m
    part = total / messages
    if (m < mod(total, messages)) part = part + 1
  end function part

end program recorded_traffic_f
