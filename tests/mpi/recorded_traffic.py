"""The mpi4py twin of monitored_traffic.c, for the recorder (TMAP_RECORD):
rank s sends (s+1)*(t+1)*10 bytes, in s%3+1 messages, to each of its targets
t = (s+1)%n and (3s+2)%n (t != s), then one MPI_Allreduce of one integer. The
expected matrix is the C program's (it writes it).

    python3 recorded_traffic.py
"""
from array import array

from mpi4py import MPI

world = MPI.COMM_WORLD
me, n = world.Get_rank(), world.Get_size()


def targets(s):
    a, b = (s + 1) % n, (3 * s + 2) % n
    out = [a] if a != s else []
    if b not in (s, a):
        out.append(b)
    return out


def part(total, messages, m):
    return total // messages + (1 if m < total % messages else 0)


requests, buffers = [], []
for s in range(n):
    for t in targets(s):
        if t != me:
            continue
        messages, total = s % 3 + 1, (s + 1) * (me + 1) * 10
        for m in range(messages):
            buffers.append(bytearray(part(total, messages, m)))
            requests.append(world.Irecv([buffers[-1], MPI.BYTE], source=s, tag=m))
for t in targets(me):
    messages, total = me % 3 + 1, (me + 1) * (t + 1) * 10
    for m in range(messages):
        buffers.append(bytearray(part(total, messages, m)))
        requests.append(world.Isend([buffers[-1], MPI.BYTE], dest=t, tag=m))
MPI.Request.Waitall(requests)
# The buffer interface: mpi4py's allreduce of Python objects is its own
# point-to-point traffic (pickled values), which would be recorded as such.
world.Allreduce(MPI.IN_PLACE, [array("i", [me]), MPI.INT], op=MPI.SUM)
