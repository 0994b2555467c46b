"""CPU lists as Slurm, Open MPI rankfiles and /proc write them ("0-2,5"),
for the launch checks of tests/*.sh (imported from their inline Python)."""


def cpus(text):
    """The set of CPU ids a list names: "0-2,5" -> {0, 1, 2, 5}."""
    out = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out
