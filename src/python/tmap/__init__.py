"""tmap: topology-aware process mapping, from Python.

Where each MPI rank of a job should run so that ranks that talk a lot sit
close together: the same engine, machines and strategies as tm-map.

    import tmap, scipy.sparse
    traffic = scipy.sparse.load_npz("traffic.npz")     # A[i, j] = bytes i sends j
    result = tmap.map(traffic, "tianhe3:2x2,nodes=8,cores=4")
    result.mapping           # PE of each rank, as tm-map's output
    result.hop_bytes         # and every figure of tm-map's JSON report (also result["hop_bytes"])

Traffic is a square numpy array, a scipy.sparse matrix, a networkx graph
(edge attribute `weight`, default 1; an undirected edge counts both ways;
nodes in the graph's order are ranks 0..n-1) or a file tm-map reads (a
.mat, .coo, .mtx, .graph, Open MPI monitoring output). Machines are
tm-map's -t strings and files; `node` and `host_names` describe a network's
nodes as --node and --host-names do; tmap.Machine(...) reads one once for
many calls (and says what tmap understood: .describe()). Errors raise tmap.Error subclasses:
InputError, ParameterError, UnsupportedError, ResourceError, SystemError,
InternalError.
"""

import numbers
import os

from ._tmap import (  # noqa: F401  (the exceptions are the package's API)
    Error,
    InputError,
    InternalError,
    ParameterError,
    ResourceError,
    SystemError,
    UnsupportedError,
    __version__,
)
from . import _tmap
from ._tmap import Machine

__all__ = ["map", "evaluate", "compare", "launch_file", "Machine", "Report", "Error", "InputError", "ParameterError", "UnsupportedError",
           "ResourceError", "SystemError", "InternalError", "__version__"]


class Report(dict):
    """tm-map's JSON report of a mapping, with its keys, built as Python
    objects by the library (no JSON text in between): a dict whose keys are
    also attributes (result.mapping, a list of PEs; result.hop_bytes; nested
    objects too: result.objective.after). A result of tmap.map also knows
    its job: result.launch_file("rankfile") is tm-map's launcher file."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def launch_file(self, format="rankfile", *, slots="core", program=""):
        """tm-map --format FORMAT's launcher file for this mapping, on the
        machine and allocation it was mapped on (see tmap.launch_file)."""
        job = self.__dict__.get("_job")
        if job is None:
            raise ParameterError("launch_file: this report is not a tmap.map result (give the mapping and machine "
                                 "to tmap.launch_file)")
        machine, node, host_names, alloc = job
        return _tmap.launch_file(_pes("mapping", self["mapping"]), machine, node, host_names, alloc,
                                 _text("format", format), _text("slots", slots), _text("program", program))


def _traffic(traffic):
    """(n, rows, cols, volumes, path) of any traffic the package takes: a
    file is read by the library itself (path; a .phases file keeps its
    phases; numpy is not needed), anything else becomes COO arrays."""
    if isinstance(traffic, (str, bytes, os.PathLike)):
        return 0, None, None, None, os.fsdecode(traffic)
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UnsupportedError("traffic: a matrix or graph in memory needs numpy (Debian's python3-numpy); "
                               "a file's path needs none") from None
    return (*_coo(traffic), "")


def _coo(traffic):
    """(n, rows, cols, volumes) of a matrix, graph or array the package takes."""
    import numpy as np

    try:
        import networkx as nx
    except ImportError:  # networkx is optional
        nx = None
    if nx is not None and isinstance(traffic, nx.Graph):
        index = {node: k for k, node in enumerate(traffic.nodes())}
        if not index:
            raise ParameterError("traffic: the graph has no nodes (no ranks to map)")
        rows, cols, volumes = [], [], []
        for u, v, weight in traffic.edges(data="weight", default=1):
            volume = _whole(weight, f"the weight of edge ({u!r}, {v!r})")
            pairs = [(u, v)] if traffic.is_directed() else [(u, v), (v, u)]
            for a, b in pairs:
                rows.append(index[a])
                cols.append(index[b])
                volumes.append(volume)
        return len(index), np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64), \
            np.asarray(volumes, dtype=np.int64)
    try:
        import scipy.sparse as sp
    except ImportError:
        sp = None
    if sp is not None and sp.issparse(traffic):
        m = traffic.tocoo()
        if m.shape[0] != m.shape[1]:
            raise ParameterError(f"traffic: a {m.shape[0]} x {m.shape[1]} matrix is not square")
        if m.shape[0] == 0:
            raise ParameterError("traffic: an empty matrix (0 x 0: no ranks to map)")
        data = _numbers(m.data)
        keep = data != 0
        rows, cols = m.row[keep], m.col[keep]
        return m.shape[0], rows.astype(np.int64), cols.astype(np.int64), _volumes(data[keep], rows, cols)
    if isinstance(traffic, (dict, set)) or traffic is None:
        raise ParameterError(f"traffic: expected a square matrix (numpy, scipy.sparse), a networkx graph or a "
                             f"file's path, not {type(traffic).__name__}")
    try:
        array = np.asarray(traffic)
    except (ValueError, TypeError) as e:
        raise ParameterError(f"traffic: not a matrix ({e})") from None
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ParameterError(f"traffic: expected a square matrix, not an array of shape {array.shape}")
    if array.shape[0] == 0:
        raise ParameterError("traffic: an empty matrix (0 x 0: no ranks to map)")
    array = _numbers(array)
    rows, cols = np.nonzero(array)
    return array.shape[0], rows.astype(np.int64), cols.astype(np.int64), _volumes(array[rows, cols], rows, cols)


def _numbers(values):
    """The values as numbers numpy compares: booleans, integers and reals
    (complex, object and string arrays are refused, naming their type)."""
    import numpy as np

    values = np.asarray(values)
    if values.dtype.kind in "biuf":
        return values
    if values.dtype.kind == "O":
        try:
            return values.astype(np.float64)
        except (ValueError, TypeError):
            pass
    raise ParameterError(f"traffic: volumes must be whole numbers of bytes, not values of type {values.dtype}")


_MOST_BYTES = 2**63 - 1


def _whole(value, what):
    """A volume as a whole number of bytes (a fraction, a negative, an
    infinite or too large value, or a non-number is refused)."""
    import math

    if isinstance(value, bool):
        return int(value)
    try:
        number = float(value) if not isinstance(value, int) else value
    except (TypeError, ValueError):
        raise ParameterError(f"traffic: {what} is {value!r}, not a whole number of bytes") from None
    if isinstance(number, float) and not math.isfinite(number):
        raise ParameterError(f"traffic: {what} is {value!r}, not a whole number of bytes")
    if number != int(number) or number < 0 or int(number) > _MOST_BYTES:
        raise ParameterError(f"traffic: {what} is {value!r}, not a whole number of bytes from 0 to 2^63-1")
    return int(number)


def _volumes(values, rows, cols):
    """The volumes as int64, each checked: the first bad one is named with its ranks."""
    import numpy as np

    values = np.asarray(values)
    if values.dtype.kind == "b":
        return values.astype(np.int64)
    if values.dtype.kind == "u":
        bad = values > _MOST_BYTES
    elif values.dtype.kind == "i":
        bad = values < 0
    else:  # reals: finite, whole, in range
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values < 0) | (values >= 2.0**63) | (values != np.floor(values))
    if values.size and np.any(bad):
        k = int(np.argmax(bad))
        raise ParameterError(f"traffic: volume {values[k]!r} from rank {int(rows[k])} to {int(cols[k])} is not a "
                             f"whole number of bytes from 0 to 2^63-1")
    return values.astype(np.int64)


def _text(name, value, optional=False):
    """A string argument (a path-like too), checked."""
    if value is None and optional:
        return None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise ParameterError(f"{name}: expected a string, not {type(value).__name__} {value!r:.60}")


def _machine(machine, pe=""):
    """A tmap.Machine as it is, or a machine's text (a path-like too),
    checked; with pe ("cpu" or "gpu", tm-map's --pe) the text is read here
    into a tmap.Machine."""
    if isinstance(machine, Machine):
        if pe:
            raise ParameterError("pe: a tmap.Machine holds its PEs already (give pe= to tmap.Machine)")
        return machine
    return _text("machine", machine)


def _machine_job(machine, node, host_names, pe):
    """(machine, node, host_names) for the compiled calls: with pe, the
    machine read with its nodes and names into a tmap.Machine."""
    pe = _text("pe", pe)
    machine = _machine(machine, pe)
    if not pe:
        return machine, _text("node", node), _text("host_names", host_names)
    return Machine(machine, node=_text("node", node), host_names=_text("host_names", host_names), pe=pe), "", ""


def _count(name, value, least, most=2**63 - 1, optional=False):
    """A whole-number argument in [least, most], checked."""
    import numbers

    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not least <= int(value) <= most:
        raise ParameterError(f"{name}: expected a whole number from {least} to {most}, not {value!r:.60}")
    return int(value)


def _pes(name, pes):
    """A list of PE numbers (a mapping or allowed PEs), checked."""
    import numbers

    if pes is None:
        return None
    if isinstance(pes, (str, bytes)):
        raise ParameterError(f"{name}: expected a list of PE numbers, not a string")
    try:
        values = list(pes)
    except TypeError:
        raise ParameterError(f"{name}: expected a list of PE numbers, not {type(pes).__name__}") from None
    for k, pe in enumerate(values):
        if isinstance(pe, bool) or not isinstance(pe, numbers.Integral) or not 0 <= int(pe) < 2**31:
            raise ParameterError(f"{name}: entry {k} is {pe!r:.40}, not a PE number")
    return [int(pe) for pe in values]


def _progress(progress):
    """The progress callable, its answer checked (True or None: go on, False: stop)."""
    if progress is None:
        return None
    if not callable(progress):
        raise ParameterError(f"progress: expected a callable (event) -> bool, not {type(progress).__name__}")

    def checked(event):
        answer = progress(event)
        if answer is None or isinstance(answer, bool):
            return answer
        try:
            import numpy as np
            if isinstance(answer, np.bool_):
                return bool(answer)
        except ImportError:
            pass
        raise ParameterError(f"progress: the callback returned {answer!r:.40}; return True or None to go on, "
                             f"False to stop")
    return checked


def _imbalance(imbalance):
    """--imbalance's EPS, checked: a real number from 0 to 1e6, or None."""
    if imbalance is None:
        return None
    if isinstance(imbalance, bool) or not isinstance(imbalance, numbers.Real):
        raise ParameterError(f"imbalance: expected a number such as 0.03, not {type(imbalance).__name__}")
    value = float(imbalance)
    if not 0.0 <= value <= 1e6:
        raise ParameterError(f"imbalance: a number from 0 to 1e6 (0.03: 3 % above the average load), not {imbalance!r}")
    return value


def _weights(weights):
    """The ranks' weights as whole numbers >= 0, or None."""
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)):
        raise ParameterError("weights: expected a sequence of whole numbers, one a rank, not a string")
    try:
        values = list(weights)
    except TypeError:
        raise ParameterError(f"weights: expected a sequence of whole numbers, not {type(weights).__name__}") from None
    checked = []
    for k, w in enumerate(values):
        if isinstance(w, bool) or not isinstance(w, numbers.Integral):
            if not (isinstance(w, numbers.Real) and float(w).is_integer()):
                raise ParameterError(f"weights: weights[{k}] is {w!r}, not a whole number")
        if not 0 <= int(w) <= _MOST_BYTES:
            raise ParameterError(f"weights: weights[{k}] is {w!r}, not a whole number from 0 to 2^63-1")
        checked.append(int(w))
    return checked


def _options(options):
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ParameterError(f"options: expected a dict of tm-map options, not {type(options).__name__}")
    return {_text("options key", k): str(v) for k, v in options.items()}


def map(traffic, machine, strategy=None, *, seed=None, objective=None, preset=None, config=None, options=None,
        node="", host_names="", oversubscription=1, allowed=None, alloc=None, threads=0, progress=None, initial=None,
        imbalance=None, weights=None, pe=""):
    """Maps the traffic on the machine; returns tm-map's JSON report as a
    tmap.Report (`mapping`: the PE of each rank, `hop_bytes`, the link
    metrics, ...).

    strategy: any tm-map -s name (default: the preset's or config's, else
    auto); seed, objective ("hop-bytes", "congestion", "time"), preset
    ("fast", "default", "quality"), config (a tm-map --dump-config file) and
    options ({"refine": "swap", ...}: tm-map's --KEY VALUE) as tm-map reads
    them. Where ranks may go: allowed (PE numbers) or alloc (the nodes a
    scheduler gave, as tm-map --alloc: a host list "cn[01-04]" or node ids
    "0-3"; every PE of them). progress(event: dict) is called as the run
    goes; returning False stops it (the report then says "partial").
    initial (mapping[rank] = PE, e.g. another mapper's) is improved instead
    of a strategy's mapping, as tm-map --initial does (refine default
    "multilevel"; never worse; strategy "initial" in the report). Many ranks
    a PE: imbalance (tm-map's --imbalance EPS) lets each PE hold ranks
    weighing (1 + EPS) x the average, the weights those of a graph file's
    vertex loads or weights (one non-negative integer a rank). The GIL is
    released while mapping. pe="gpu" makes each GPU a PE (tm-map's --pe
    gpu). Every mistake raises a tmap.Error naming the argument."""
    n, rows, cols, volumes, path = _traffic(traffic)
    job = (*_machine_job(machine, node, host_names, pe), _text("alloc", alloc, optional=True))
    report = _tmap.map(n, rows, cols, volumes, job[0], job[1], job[2],
                       _count("oversubscription", oversubscription, 1), _pes("allowed", allowed), job[3],
                       _text("strategy", strategy, optional=True), _count("seed", seed, 0, 2**64 - 1, True),
                       _text("objective", objective, optional=True), _text("preset", preset, optional=True),
                       _text("config", config, optional=True), _options(options),
                       _count("threads", threads, 0, 4096), _progress(progress), _pes("initial", initial), path,
                       imbalance=_imbalance(imbalance), weights=_weights(weights))
    report._job = job
    return report


def evaluate(traffic, machine, mapping, *, node="", host_names="", oversubscription=1, link_bandwidths="", pe=""):
    """The report of a given mapping (mapping[rank] = PE), as tm-eval scores it."""
    n, rows, cols, volumes, path = _traffic(traffic)
    machine, node, host_names = _machine_job(machine, node, host_names, pe)
    return _tmap.evaluate(n, rows, cols, volumes, machine, node, host_names,
                          _count("oversubscription", oversubscription, 1),
                          _pes("mapping", mapping), _text("link_bandwidths", link_bandwidths), path)


def compare(traffic, machine, strategies="all", *, seed=None, objective=None, preset=None, config=None,
            options=None, node="", host_names="", oversubscription=1, allowed=None, alloc=None, imbalance=None,
            weights=None, pe=""):
    """tm-map --compare: returns (table, report), the table tm-map prints and
    its JSON as a tmap.Report (`results`, one Report per strategy, with
    vs_scotch and vs_inorder)."""
    n, rows, cols, volumes, path = _traffic(traffic)
    if not isinstance(strategies, str):
        try:
            strategies = ",".join(_text("strategies", s) for s in strategies)
        except TypeError:
            raise ParameterError("strategies: expected \"all\", a comma-separated string or a list of names") \
                from None
    machine, node, host_names = _machine_job(machine, node, host_names, pe)
    table, report = _tmap.compare(n, rows, cols, volumes, machine, node, host_names,
                                  _count("oversubscription", oversubscription, 1),
                                  _pes("allowed", allowed), _text("alloc", alloc, optional=True), strategies,
                                  _count("seed", seed, 0, 2**64 - 1, True), _text("objective", objective, True),
                                  _text("preset", preset, True), _text("config", config, True), _options(options),
                                  path, imbalance=_imbalance(imbalance), weights=_weights(weights))
    return table, report


def launch_file(mapping, machine=None, format="rankfile", *, node="", host_names="", alloc=None, slots="core",
                program="", pe=""):
    """The launcher file tm-map --format writes for a mapping: "rankfile"
    (Open MPI, rank R=HOST slot=CORE), "hostfile" (a host per rank, Slurm's
    --distribution=arbitrary), "machinefile" (MPICH's host:count), "rank-order" (Cray
    MPICH's MPICH_RANK_ORDER) or "hydra"
    (a -configfile; needs `program`). launch_file(result, "rankfile") takes
    a tmap.map result, its machine and allocation; launch_file(mapping,
    machine, "rankfile", ...) a mapping and the machine it is on. Hosts are
    the machine's names (host_names, else cn<node>), or as alloc spells them
    (tm-map --alloc's host list); slots "pu" names hardware threads (tm-map
    --rankfile-slots pu, for mpirun --use-hwthread-cpus)."""
    if isinstance(mapping, Report) and "_job" in mapping.__dict__:
        if format != "rankfile" or node or host_names or alloc is not None or pe:
            raise ParameterError("launch_file(result, FORMAT): the result holds its machine and allocation")
        return mapping.launch_file("rankfile" if machine is None else machine, slots=slots, program=program)
    if machine is None:
        raise ParameterError("machine: give the machine the mapping is on (or a tmap.map result instead of a mapping)")
    machine, node, host_names = _machine_job(machine, node, host_names, pe)
    return _tmap.launch_file(_pes("mapping", mapping), machine, node, host_names, _text("alloc", alloc, optional=True),
                             _text("format", format), _text("slots", slots), _text("program", program))
