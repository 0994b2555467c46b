"""Record, map, launch: a job's own traffic recorded with mpi4py, mapped with
tmap, and the job launched again where tmap put each rank.

    mpirun -np 8 python3 record_map_launch.py record job.rankfile
        runs the job's exchange, counts the bytes each rank sends each other
        rank, gathers the matrix on rank 0, maps it on this host (a node of
        os.cpu_count() cores, ranks shared evenly) and writes an Open MPI
        rankfile naming this host
    mpirun -np 8 --rankfile job.rankfile python3 record_map_launch.py run
        the same job, each rank on the core tmap chose

The exchange is a ring visited in a scrambled order (rank r's neighbours are
the ranks before and after it in the order (3 i + 1) mod n), so that the
launch order puts partners far apart. On a cluster, give tmap.map the
machine (a fat tree of your nodes: `fattree:...`, node="package:2 core:8",
host_names="cn[01-16]") and the rankfile names your hosts.
"""

import os
import socket
import sys

import numpy as np
from mpi4py import MPI

import tmap

BYTES = 1 << 20  # per message
STEPS = 4


def exchange(comm, sent):
    """The job: each step, one message to each ring neighbour."""
    rank, size = comm.Get_rank(), comm.Get_size()
    ring = [(3 * i + 1) % size for i in range(size)]  # 3 is coprime with even sizes
    at = ring.index(rank)
    neighbours = [ring[(at + 1) % size], ring[(at - 1) % size]]
    buffer, incoming = np.zeros(BYTES, dtype=np.uint8), np.empty(BYTES, dtype=np.uint8)
    for _ in range(STEPS):
        for to, source in (neighbours, neighbours[::-1]):
            comm.Sendrecv(buffer, dest=to, recvbuf=incoming, source=source)
            sent[to] += BYTES


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    sent = np.zeros(size, dtype=np.int64)
    exchange(comm, sent)
    if sys.argv[1] == "run":
        return
    rows = comm.gather(sent, root=0)
    if rank != 0:
        return
    traffic = np.array(rows)  # traffic[i, j] = bytes rank i sent rank j
    cores = os.cpu_count() or 1
    machine = dict(machine="fattree:1;1;1;1", node=f"core:{cores}", host_names=socket.gethostname())
    per_core = -(-size // cores)
    result = tmap.map(traffic, oversubscription=per_core, **machine)
    in_order = [r // per_core for r in range(size)]  # the launcher's order
    before = tmap.evaluate(traffic, mapping=in_order, oversubscription=per_core, **machine).hop_bytes
    with open(sys.argv[2], "w") as out:
        out.write(tmap.launch_file(result.mapping, **machine))
    print(f"hop-bytes in launch order {before}, mapped {result.hop_bytes}; rankfile {sys.argv[2]}")


if __name__ == "__main__":
    main()
