#!/usr/bin/env python3
"""tm-eval and tm-map against an evaluator written here from the contract
alone (section 3: hop-bytes over ordered pairs of a matrix, once per edge
of a graph; Scotch's distances: Manhattan on meshes, wrap-around on tori,
cumulative link costs below the common ancestor on tleaf, the hop table on
Tianhe-3), sharing no code with tmap's `evaluate`.
Usage: independent_eval.py BIN_DIR
"""
import os
import random
import subprocess
import sys
import tempfile

bin_dir = sys.argv[1]
work = tempfile.mkdtemp(prefix="tmap-eval-")
rng = random.Random(7)


def run(*args):
    return subprocess.run([os.path.join(bin_dir, args[0]), *args[1:]], capture_output=True, text=True, check=True)


def grid(dims, torus):
    def coords(pe):
        out = []
        for d in dims:
            out.append(pe % d)
            pe //= d
        return out

    def dist(a, b):
        total = 0
        for x, y, d in zip(coords(a), coords(b), dims):
            delta = abs(x - y)
            total += min(delta, d - delta) if torus else delta
        return total
    return dist


def tleaf(arities, costs):
    def dist(a, b):
        if a == b:
            return 0
        # Leaves numbered level by level: the common ancestor is the level
        # where the prefixes (most significant first) last agree.
        sizes = []
        size = 1
        for k in reversed(arities):
            sizes.insert(0, size)
            size *= k
        total = 0
        for level in range(len(arities)):
            if a // (sizes[level] * arities[level]) == b // (sizes[level] * arities[level]) and \
                    a // sizes[level] != b // sizes[level]:
                return sum(costs[level:])
        return sum(costs)
    return dist


def tianhe3(rows, cols, nodes, cores):
    half = nodes // 2

    def where(pe):
        node = pe // cores
        chip, k = divmod(node, nodes)
        return node, chip // cols, chip % cols, k // half

    def dist(a, b):
        na, ra, ca, sa = where(a)
        nb, rb, cb, sb = where(b)
        if na == nb:
            return 0
        return 1 + (sa != sb) + 2 * (ra != rb) + 2 * (ca != cb)
    return dist


cases = [
    ("torus3D 4 4 4", 64, grid([4, 4, 4], True)),
    ("mesh2D 8 6", 48, grid([8, 6], False)),
    ("tleaf 3 2 100 4 10 4 1", 32, tleaf([2, 4, 4], [100, 10, 1])),
    ("tianhe3:2x2,nodes=8,cores=2", 64, tianhe3(2, 2, 8, 2)),
]
checked = 0
for machine, pes, dist in cases:
    for graph in (False, True):
        n = pes - rng.randrange(0, 5)
        pairs = {}
        for _ in range(4 * n):
            i, j = rng.randrange(n), rng.randrange(n)
            if i != j:
                key = (min(i, j), max(i, j)) if graph else (i, j)
                pairs[key] = pairs.get(key, 0) + rng.randrange(1, 1000)
        sigma = rng.sample(range(pes), n)
        expected = sum(v * dist(sigma[i], sigma[j]) for (i, j), v in pairs.items())
        perm = os.path.join(work, "m.perm")
        with open(perm, "w") as f:
            f.write("".join(f"{p}\n" for p in sigma))
        if graph:  # a Scotch graph: each edge in both lists, counted once
            comm = os.path.join(work, "c.grf")
            adj = {v: [] for v in range(n)}
            for (i, j), v in pairs.items():
                adj[i].append((j, v))
                adj[j].append((i, v))
            with open(comm, "w") as f:
                f.write(f"0\n{n} {2 * len(pairs)}\n0 010\n")
                for v in range(n):
                    f.write(f"{len(adj[v])}" + "".join(f" {w} {u}" for u, w in sorted(adj[v])) + "\n")
        else:
            comm = os.path.join(work, "c.coo")
            with open(comm, "w") as f:
                f.write(f"{n}\n" + "".join(f"{i} {j} {v}\n" for (i, j), v in pairs.items()))
        out = run("tm-eval", "-t", machine, "-c", comm, "-m", perm).stdout
        got = int(next(l.split()[1] for l in out.splitlines() if l.startswith("hop_bytes")))
        assert got == expected, f"{machine} ({'graph' if graph else 'matrix'}): tm-eval {got}, here {expected}"
        checked += 1
        # tm-map's own summary of a mapping it made, rescored here.
        mapped = run("tm-map", "-t", machine, "-c", comm, "-s", "scotch+", "--format", "perm", "-q").stdout.split()
        sigma = [int(p) for p in mapped]
        expected = sum(v * dist(sigma[i], sigma[j]) for (i, j), v in pairs.items())
        summary = run("tm-map", "-t", machine, "-c", comm, "-s", "scotch+", "--format", "json", "-q").stdout
        got = int(summary.split('"hop_bytes":')[1].split(",")[0])
        assert got == expected, f"{machine}: tm-map says {got}, here {expected}"
        checked += 1
subprocess.run(["rm", "-rf", work])
print(f"independent evaluator: {checked} hop-bytes equal (4 machines, matrices and graphs)")
