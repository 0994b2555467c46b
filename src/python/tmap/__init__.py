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
nodes as --node and --host-names do. Errors raise tmap.Error subclasses:
InputError, ParameterError, UnsupportedError, ResourceError, SystemError,
InternalError.
"""

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

__all__ = ["map", "evaluate", "compare", "launch_file", "Report", "Error", "InputError", "ParameterError", "UnsupportedError",
           "ResourceError", "SystemError", "InternalError", "__version__"]


class Report(dict):
    """tm-map's JSON report of a mapping: a dict whose keys are also
    attributes (result.mapping, result.hop_bytes)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _traffic(traffic):
    """(n, rows, cols, volumes, path) of any traffic the package takes: a
    file is read by the library itself (path; a .phases file keeps its
    phases), anything else becomes COO arrays."""
    import numpy as np

    if isinstance(traffic, (str, os.PathLike)):
        none = np.zeros(0, dtype=np.int64)
        return 0, none, none, none, os.fspath(traffic)
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
        rows, cols, volumes = [], [], []
        for u, v, weight in traffic.edges(data="weight", default=1):
            pairs = [(u, v)] if traffic.is_directed() else [(u, v), (v, u)]
            for a, b in pairs:
                rows.append(index[a])
                cols.append(index[b])
                volumes.append(_whole(weight))
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
        keep = m.data != 0
        return m.shape[0], m.row[keep].astype(np.int64), m.col[keep].astype(np.int64), _volumes(m.data[keep])
    array = np.asarray(traffic)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ParameterError(f"traffic: expected a square matrix, not an array of shape {array.shape}")
    rows, cols = np.nonzero(array)
    return array.shape[0], rows.astype(np.int64), cols.astype(np.int64), _volumes(array[rows, cols])


def _whole(value):
    """A volume as a whole number of bytes (a fraction or a negative is refused)."""
    if value != int(value) or value < 0:
        raise ParameterError(f"traffic: volume {value!r} is not a whole number of bytes >= 0")
    return int(value)


def _volumes(values):
    import numpy as np

    values = np.asarray(values)
    if values.size and (np.any(values < 0) or np.any(values != np.floor(values))):
        raise ParameterError("traffic: volumes must be whole numbers of bytes >= 0")
    return values.astype(np.int64)


def map(traffic, machine, strategy=None, *, seed=None, objective=None, preset=None, config=None, options=None,
        node="", host_names="", oversubscription=1, allowed=None, threads=0, progress=None, initial=None):
    """Maps the traffic on the machine; returns tm-map's JSON report as a dict
    (`mapping`: the PE of each rank, `hop_bytes`, the link metrics, ...).

    strategy: any tm-map -s name (default: the preset's or config's, else
    auto); seed, objective ("hop-bytes", "congestion", "time"), preset
    ("fast", "default", "quality"), config (a tm-map --dump-config file) and
    options ({"refine": "swap", ...}: tm-map's --KEY VALUE) as tm-map reads
    them. progress(event: dict) is called as the run goes; returning False
    stops it (the report then says "partial"). initial (mapping[rank] = PE,
    e.g. another mapper's) is improved instead of a strategy's mapping, as
    tm-map --initial does (refine default "multilevel"; never worse; strategy
    "initial" in the report). The GIL is released while mapping."""
    n, rows, cols, volumes, path = _traffic(traffic)
    return Report(_tmap.map(n, rows, cols, volumes, str(machine), node, host_names, oversubscription,
                            None if allowed is None else [int(pe) for pe in allowed], strategy, seed, objective,
                            preset, None if config is None else os.fspath(config), dict(options or {}), threads,
                            progress, None if initial is None else [int(pe) for pe in initial], path))


def evaluate(traffic, machine, mapping, *, node="", host_names="", oversubscription=1, link_bandwidths=""):
    """The report of a given mapping (mapping[rank] = PE), as tm-eval scores it."""
    n, rows, cols, volumes, path = _traffic(traffic)
    return Report(_tmap.evaluate(n, rows, cols, volumes, str(machine), node, host_names, oversubscription,
                                 [int(pe) for pe in mapping], link_bandwidths, path))


def compare(traffic, machine, strategies="all", *, seed=None, objective=None, preset=None, config=None,
            options=None, node="", host_names="", oversubscription=1, allowed=None):
    """tm-map --compare: returns (table, report), the table tm-map prints and
    its JSON (`results`, one dict per strategy, with vs_scotch and vs_inorder)."""
    n, rows, cols, volumes, path = _traffic(traffic)
    if not isinstance(strategies, str):
        strategies = ",".join(strategies)
    table, report = _tmap.compare(n, rows, cols, volumes, str(machine), node, host_names, oversubscription,
                                  None if allowed is None else [int(pe) for pe in allowed], strategies, seed,
                                  objective, preset, None if config is None else os.fspath(config),
                                  dict(options or {}), path)
    report = Report(report)
    report["results"] = [Report(r) for r in report["results"]]
    return table, report


def launch_file(mapping, machine, format="rankfile", *, node="", host_names="", program=""):
    """The launcher file tm-map --format writes for a mapping: "rankfile"
    (Open MPI, rank R=HOST slot=CORE), "hostfile" (a host per rank, Slurm's
    --distribution=arbitrary), "machinefile" (MPICH's host:count) or "hydra"
    (a -configfile; needs `program`). Hosts are the machine's names
    (host_names, else cn<node>)."""
    return _tmap.launch_file([int(pe) for pe in mapping], str(machine), node, host_names, format, program)
