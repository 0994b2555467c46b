"""The mpi4py twin of topology_reorder.c: each of the four constructors
with reorder=True on the same graphs (cart: a 2 x (n/2) grid, not periodic;
the others: a ring visited in the order (7v+3) mod n). Every rank checks the
neighbours MPI gives as the standard says (cart and graph: vertex k's; dist
graphs: the edges this process declared, renumbered, or vertex k's when the
third argument is "ranks"); rank 0 of the new communicator writes where each
new rank runs (the world rank playing it, one per line). Exit 1 on any error.

    python3 topology_reorder.py MODE PLACEMENT_FILE [processes|ranks]
"""
import sys

from mpi4py import MPI

world = MPI.COMM_WORLD
me, n = world.Get_rank(), world.Get_size()
mode, path = sys.argv[1], sys.argv[2]
meaning = sys.argv[3] if len(sys.argv) > 3 else "processes"
order = [(7 * v + 3) % n for v in range(n)]
position = {v: i for i, v in enumerate(order)}


def ring(v):
    return [order[(position[v] + 1) % n], order[(position[v] - 1) % n]]


dims = [2, n // 2]
if mode == "cart":
    comm = world.Create_cart(dims, periods=[False, False], reorder=True)
elif mode == "graph":
    index = [2 * (v + 1) for v in range(n)]
    edges = [u for v in range(n) for u in ring(v)]
    comm = world.Create_graph(index, edges, reorder=True)
elif mode == "adjacent":
    comm = world.Create_dist_graph_adjacent(ring(me), ring(me), [100, 100], [100, 100], reorder=True)
else:  # dist: rank 0 declares every edge
    sources = list(range(n)) if me == 0 else []
    degrees = [2] * len(sources)
    targets = [u for v in sources for u in ring(v)]
    comm = world.Create_dist_graph(sources, degrees, targets, [100] * len(targets), reorder=True)

k = comm.Get_rank()
errors = 0
if mode == "cart":
    coords = comm.Get_coords(k)
    errors += coords != [k // dims[1], k % dims[1]]
    for d in range(2):
        source, dest = comm.Shift(d, 1)
        up, down = list(coords), list(coords)
        up[d] += 1
        down[d] -= 1
        want_dest = up[0] * dims[1] + up[1] if up[d] < dims[d] else MPI.PROC_NULL
        want_source = down[0] * dims[1] + down[1] if down[d] >= 0 else MPI.PROC_NULL
        errors += (source, dest) != (want_source, want_dest)
elif mode == "graph":
    errors += sorted(comm.Get_neighbors(k)) != sorted(ring(k))
else:
    sources, destinations, _ = comm.Get_dist_neighbors()
    if meaning == "ranks":
        want = ring(k)
    else:
        want = MPI.Group.Translate_ranks(world.Get_group(), ring(me), comm.Get_group())
    errors += sorted(sources) != sorted(want)
    errors += sorted(destinations) != sorted(want)

total = comm.allreduce(errors)
where = comm.gather(me, root=0)
if k == 0:
    with open(path, "w") as out:
        out.write("".join(f"{w}\n" for w in where))
    print(f"{mode} (mpi4py): {total} neighbourhood errors")
comm.Free()
sys.exit(1 if total else 0)
