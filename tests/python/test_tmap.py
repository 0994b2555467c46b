"""The Python module against tm-map itself: the same traffic as a scipy.sparse
matrix, a networkx graph, a numpy array or a file maps PE for PE as tm-map
maps the file; compare gives tm-map's table; errors are the library's
categories; progress can stop a run; the GIL is released while mapping.
Run by ctest with PYTHONPATH at the build's python folder and TMAP_BIN at
its tools."""

import json
import os
import subprocess
import sys
import threading

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import tmap

BIN = os.environ["TMAP_BIN"]
MACHINE = "tianhe3:2x2,nodes=4,cores=4"  # 64 PEs


def tool(*args, cwd, input=None):
    return subprocess.run([os.path.join(BIN, args[0]), *args[1:]], cwd=cwd, check=True, capture_output=True,
                          text=True, input=input).stdout


@pytest.fixture(scope="module")
def stencil(tmp_path_factory):
    """A shuffled 8x8 stencil as tm-gen writes it (.coo), and its entries."""
    folder = tmp_path_factory.mktemp("stencil")
    tool("tm-gen", "stencil2d", "--dims", "8x8", "--shuffle", "3", "--volume", "1000", "--output", "s.coo", cwd=folder)
    lines = (folder / "s.coo").read_text().split("\n")
    n = int(lines[0])
    entries = [tuple(int(x) for x in line.split()) for line in lines[1:] if line.strip()]
    return folder, n, entries


def tm_map(folder, *args):
    return [int(pe) for pe in tool("tm-map", "-t", MACHINE, "-c", "s.coo", "-q", *args, cwd=folder).split()]


def test_scipy_networkx_numpy_and_file_map_as_tm_map(stencil):
    folder, n, entries = stencil
    rows, cols, volumes = zip(*entries)
    matrix = sp.coo_matrix((volumes, (rows, cols)), shape=(n, n)).tocsr()
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, v) for i, j, v in entries if i < j)  # the stencil is symmetric
    for strategy, extra in [(None, []), ("greedy", ["-s", "greedy"]), ("scotch", ["-s", "scotch"])]:
        expected = tm_map(folder, *extra)
        for traffic in (matrix, graph, matrix.toarray(), folder / "s.coo"):
            result = tmap.map(traffic, MACHINE, strategy)
            assert result["mapping"] == expected, (strategy, type(traffic))
    # The whole 2x2-chip machine (384 nodes of one core): the same.
    whole = "tianhe3:2x2"
    expected = [int(pe) for pe in tool("tm-map", "-t", whole, "-c", "s.coo", "-q", cwd=folder).split()]
    assert tmap.map(matrix, whole).mapping == expected
    assert tmap.map(graph, whole).mapping == expected
    # Options and objective as tm-map's flags.
    result = tmap.map(matrix, MACHINE, "greedy", seed=3, objective="congestion", options={"refine": "swap"})
    assert result["mapping"] == tm_map(folder, "-s", "greedy", "--seed", "3", "--objective", "congestion",
                                       "--refine", "swap")
    assert result["objective"]["name"] == "congestion"
    # evaluate scores as tm-eval does; keys are attributes too.
    evaluated = tmap.evaluate(matrix, MACHINE, result.mapping)
    assert evaluated.hop_bytes == result["hop_bytes"]
    evaluated_file = json.loads(tool("tm-eval", "-t", MACHINE, "-c", "s.coo", "-m", "/dev/stdin", "--format", "json",
                                     cwd=folder, input="\n".join(map(str, result.mapping)) + "\n"))
    assert evaluated.hop_bytes == evaluated_file["hop_bytes"]


def test_a_traffic_in_phases_keeps_them(tmp_path):
    """A .phases file is read with its phases: the predicted time runs them
    one after another, as tm-map's, not one round of their sum (.coo)."""
    tool("tm-gen", "snap", "--ranks", "64", "--output", "snap.phases", cwd=tmp_path)
    tool("tm-gen", "convert", "--from", "snap.phases", "--output", "snap.coo", cwd=tmp_path)
    expected = json.loads(tool("tm-map", "-t", MACHINE, "-c", "snap.phases", "--format", "json", "-q", cwd=tmp_path))
    result = tmap.map(tmp_path / "snap.phases", MACHINE)
    assert result.mapping == expected["mapping"]
    assert result.predicted_time_s == expected["predicted_time_s"]
    phased = tmap.evaluate(tmp_path / "snap.phases", MACHINE, result.mapping).predicted_time_s
    summed = tmap.evaluate(tmp_path / "snap.coo", MACHINE, result.mapping).predicted_time_s
    assert phased == expected["predicted_time_s"]
    assert phased > summed
    table, report = tmap.compare(tmp_path / "snap.phases", MACHINE, "inorder")
    assert report["results"][0]["predicted_time_s"] == tmap.evaluate(tmp_path / "snap.phases", MACHINE,
                                                                     report["results"][0]["mapping"]).predicted_time_s


def test_initial_is_tm_maps_initial(stencil, tmp_path):
    """A given mapping improved as tm-map --initial improves the same file."""
    folder, n, entries = stencil
    start = list(range(n))[::-1]
    (folder / "start.perm").write_text("".join(f"{pe}\n" for pe in start))
    for extra, options in [([], None), (["--refine", "swap"], {"refine": "swap"}), (["--refine", "none"],
                                                                                    {"refine": "none"})]:
        expected = tm_map(folder, "--initial", "start.perm", *extra)
        result = tmap.map(folder / "s.coo", MACHINE, initial=start, options=options)
        assert result["strategy"] == "initial"
        assert result["mapping"] == expected, extra
        start_hop_bytes = tmap.evaluate(folder / "s.coo", MACHINE, start)["hop_bytes"]
        if options != {"refine": "none"}:  # (a refinement's report: where it started)
            assert result["construction_hop_bytes"] == start_hop_bytes
        assert result["hop_bytes"] <= start_hop_bytes
    assert tmap.map(folder / "s.coo", MACHINE, initial=start, options={"refine": "none"})["mapping"] == start
    with pytest.raises(tmap.ParameterError, match="not with a strategy"):
        tmap.map(folder / "s.coo", MACHINE, "greedy", initial=start)
    with pytest.raises(tmap.InputError, match="the starting mapping"):
        tmap.map(folder / "s.coo", MACHINE, initial=[0] * n)


def test_launch_files_are_tm_maps(stencil):
    folder, n, entries = stencil
    mapping = tmap.map(folder / "s.coo", MACHINE).mapping
    for fmt in ("rankfile", "hostfile", "machinefile"):
        assert tmap.launch_file(mapping, MACHINE, fmt) == tool("tm-map", "-t", MACHINE, "-c", "s.coo", "-q",
                                                               "--format", fmt, cwd=folder)
    network = "fattree:2;2,2;1,1;1,1"  # 4 nodes of 16 cores, named
    named = tmap.map(folder / "s.coo", network, node="core:16", host_names="cn[01-04]").mapping
    assert tmap.launch_file(named, network, node="core:16", host_names="cn[01-04]") == tool(
        "tm-map", "-t", network, "--node", "core:16", "--host-names", "cn[01-04]", "-c", "s.coo", "-q", "--format",
        "rankfile", cwd=folder)
    with pytest.raises(tmap.ParameterError, match="needs the program|program"):
        tmap.launch_file(mapping, MACHINE, "hydra")


def test_compare_is_tm_maps_table(stencil):
    folder, n, entries = stencil
    rows, cols, volumes = zip(*entries)
    matrix = sp.csr_matrix((volumes, (rows, cols)), shape=(n, n))
    table, report = tmap.compare(matrix, MACHINE, ["inorder", "greedy", "scotch"])
    expected = tool("tm-map", "-t", MACHINE, "-c", "s.coo", "--compare", "inorder,greedy,scotch", cwd=folder)

    def without_times(text):  # the time_s column is each run's own
        return [line.split()[:-1] for line in text.splitlines()]

    assert without_times(table) == without_times(expected)
    expected_json = json.loads(tool("tm-map", "-t", MACHINE, "-c", "s.coo", "--compare", "inorder,greedy,scotch",
                                    "--format", "json", cwd=folder))
    assert [r["mapping"] for r in report["results"]] == [r["mapping"] for r in expected_json["results"]]
    assert report["best"] == expected_json["best"]


def test_errors_are_the_librarys_categories():
    with pytest.raises(tmap.InputError, match="65 ranks do not fit"):
        tmap.map(np.ones((65, 65)), MACHINE)
    with pytest.raises(tmap.ParameterError, match="unknown strategy 'nope'"):
        tmap.map(np.ones((4, 4)), MACHINE, "nope")
    with pytest.raises(tmap.ParameterError, match="objective time: a cmplt"):
        tmap.map(np.ones((4, 4)), "cmpltw 4 1 1 1 1", objective="time")
    with pytest.raises(tmap.ParameterError, match="volume -1 from rank 0 to 1 is not a whole number"):
        tmap.map(np.array([[0, -1], [1, 0]]), MACHINE)
    with pytest.raises(tmap.ParameterError, match="square matrix"):
        tmap.map(np.ones((2, 3)), MACHINE)
    with pytest.raises(tmap.InputError):
        tmap.map(np.ones((2, 2)), "no-such-machine.tgt")
    assert issubclass(tmap.InputError, tmap.Error) and issubclass(tmap.Error, Exception)


def test_progress_reports_and_stops():
    traffic = sp.random(256, 256, density=0.05, format="csr", random_state=1) * 1000
    traffic.data = np.floor(traffic.data)
    events = []
    tmap.map(traffic, "torus3D 8 8 4", "best", progress=lambda e: events.append(e) or True)
    assert events and events[0]["stage"] == "best" and any(e["done"] for e in events)
    stopped = tmap.map(traffic, "torus3D 8 8 4", "best", progress=lambda e: False)
    assert stopped.get("partial") is True
    assert sorted(stopped["mapping"]) == sorted(set(stopped["mapping"]))  # still a valid mapping

    def fails(event):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        tmap.map(traffic, "torus3D 8 8 4", "best", progress=fails)


def test_the_gil_is_released_while_mapping():
    traffic = sp.random(512, 512, density=0.02, format="csr", random_state=2) * 1000
    traffic.data = np.floor(traffic.data)
    worker = threading.Thread(target=tmap.map, args=(traffic, "torus3D 8 8 8", "best"))
    worker.start()
    spins = 0
    while worker.is_alive():  # runs only while the mapping thread does not hold the GIL
        spins += 1
        worker.join(0.001)
    assert spins > 10


@pytest.mark.parametrize("call, argument", [
    (lambda: tmap.map(np.array([[0, np.inf], [1, 0]]), MACHINE), "traffic: volume inf from rank 0 to 1"),
    (lambda: tmap.map(np.array([[0, 1e30], [1, 0]]), MACHINE), "traffic: volume 1e+30 from rank 0 to 1"),
    (lambda: tmap.map(np.array([[0, 2**64 - 1], [1, 0]], dtype=np.uint64), MACHINE), "traffic: volume"),
    (lambda: tmap.map(np.array([[0, 1j], [1, 0]]), MACHINE), "traffic: volumes must be whole numbers"),
    (lambda: tmap.map(np.array([["0", "a"], ["b", "0"]], dtype=object), MACHINE), "traffic: volumes"),
    (lambda: tmap.map(np.zeros((0, 0)), MACHINE), "traffic: an empty matrix"),
    (lambda: tmap.map(nx.Graph([(0, 1, {"weight": "heavy"})]), MACHINE), "traffic: the weight of edge (0, 1)"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, progress=5), "progress: expected a callable"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, progress=lambda e: "yes"), "progress: the callback returned 'yes'"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, seed=-1), "seed: expected a whole number"),
    (lambda: tmap.map(np.ones((2, 2)), "fattree:2;2,2;1,1;1,1", node=["core:2"]), "node: expected a string"),
    (lambda: tmap.map(np.ones((2, 2)), "fatree:2;2,2;1,1;1,1", node="core:2"), "machine: cannot open"),
    (lambda: tmap.map(np.ones((2, 2)), "fattree:2;2,2;1,1;1,1", node="core:2", host_names="cn[1-3],cn3"),
     "host_names: host cn3 is listed twice"),
    (lambda: tmap.map(np.ones((2, 2)), "fattree:2;2,2;1,1;1,1", node="core:2;;"), "node 'core:2;;': an empty entry"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, oversubscription=0), "oversubscription: expected"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, allowed=[0, 99]), "allowed: PE 99"),
    (lambda: tmap.evaluate(np.ones((4, 4)), MACHINE, [0, 1]), "mapping: "),
    (lambda: tmap.evaluate(np.ones((4, 4)), MACHINE, [0, 1, 2, 640]), "mapping: "),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, imbalance=-0.1), "imbalance: a number from 0"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, imbalance="3%"), "imbalance: expected a number"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, weights=[1, -2]), "weights: weights[1]"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, weights=[1, 2.5]), "weights: weights[1]"),
    (lambda: tmap.map(np.ones((2, 2)), MACHINE, weights=[1, 2, 3]), "weights: 3 rank weights for 2 ranks"),
    (lambda: tmap.map(np.ones((4, 4)), "cmplt 2", imbalance=0.1, weights=[9, 1, 1, 1]),
     "imbalance: rank 0 weighs 9"),
])
def test_every_mistake_is_a_tmap_error_naming_the_argument(call, argument):
    # Issue 61: numpy's, networkx's and pybind11's own errors, InternalError
    # for a user's mapping, and tm-map's flags (-t, --node) in messages.
    with pytest.raises(tmap.Error) as raised:
        call()
    assert not isinstance(raised.value, tmap.InternalError), raised.value
    message = str(raised.value)
    assert argument in message, message
    assert "-t " not in message and "--node" not in message and "--host-names" not in message, message


def test_imbalance_and_weights_are_tm_maps(tmp_path):
    # A ring of 64 ranks, rank i weighing 1 + (5 i mod 4), on 8 PEs: the
    # same mapping as tm-map on the graph file with those vertex loads.
    folder = tmp_path
    n = 64
    weights = [1 + (i * 5) % 4 for i in range(n)]
    lines = ["0", f"{n} {2 * n}", "0 011"]
    for i in range(n):
        a, b = sorted(((i - 1) % n, (i + 1) % n))
        lines.append(f"{weights[i]} 2 10 {a} 10 {b}")
    (folder / "ring.grf").write_text("\n".join(lines) + "\n")
    machine = "tleaf 2 2 10 4 1"
    expected = [int(pe) for pe in tool("tm-map", "-t", machine, "-c", "ring.grf", "--imbalance", "0.05", "-q",
                                        cwd=folder).split()]
    from_file = tmap.map(folder / "ring.grf", machine, imbalance=0.05)
    assert from_file["mapping"] == expected
    assert from_file["loads"]["limit"] == 21 and from_file["loads"]["max_load"] <= 21
    ring = nx.cycle_graph(n)
    nx.set_edge_attributes(ring, 10, "weight")
    from_graph = tmap.map(ring, machine, imbalance=0.05, weights=weights)
    assert from_graph["mapping"] == expected
    loads = [0] * 8
    for rank, pe in enumerate(from_graph["mapping"]):
        loads[pe] += weights[rank]
    assert max(loads) <= 21
    table, report = tmap.compare(ring, machine, "scotch,auto", imbalance=0.05, weights=weights)
    assert [r["strategy"] for r in report["results"]][:2] == ["scotch", "auto"]


def test_alloc_maps_inside_the_nodes_as_tm_map(tmp_path):
    folder = tmp_path
    tool("tm-gen", "stencil2d", "--dims", "4x4", "--shuffle", "1", "--output", "s.coo", cwd=folder)
    args = ["-t", "fattree:2;4,2;1,2;1,1", "--node", "package:2 core:2", "--host-names", "node[01-08]"]
    expected = [int(pe) for pe in tool("tm-map", *args, "--alloc", "node[03-06]", "-c", "s.coo", "-q",
                                        cwd=folder).split()]
    result = tmap.map(folder / "s.coo", "fattree:2;4,2;1,2;1,1", node="package:2 core:2", host_names="node[01-08]",
                      alloc="node[03-06]")
    assert result["mapping"] == expected
    assert all(8 <= pe < 24 for pe in result["mapping"])  # nodes 2..5, 4 PEs each
    with pytest.raises(tmap.InputError, match="alloc: host 'node09' is not a node of this machine"):
        tmap.map(folder / "s.coo", "fattree:2;4,2;1,2;1,1", node="package:2 core:2", host_names="node[01-08]",
                 alloc="node[08-09]")


def test_a_file_needs_no_numpy(stencil):
    folder, _, _ = stencil
    # A Python without numpy (its import blocked): a file maps, a matrix says what is missing.
    script = ("import sys; sys.modules['numpy'] = None\n"
              "import tmap\n"
              f"print(tmap.map({str(folder / 's.coo')!r}, {MACHINE!r})['hop_bytes'])\n"
              "try:\n"
              "    tmap.map([[0, 1], [1, 0]], 'cmplt 2')\n"
              "except tmap.UnsupportedError as e:\n"
              "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True).stdout
    lines = out.strip().split("\n")
    assert int(lines[0]) == tmap.map(folder / "s.coo", MACHINE)["hop_bytes"]
    assert "needs numpy" in lines[1]


def test_a_machine_read_once_is_the_strings_machine(stencil):
    # Issue 62: tmap.Machine parses once; every call takes it in place of the strings.
    folder, _, _ = stencil
    network, node, hosts = "fattree:2;2,2;1,1;1,1", "package:2 core:4 pu:2", "cn[01-04]"
    machine = tmap.Machine(network, node=node, host_names=hosts)
    assert (machine.pes, machine.nodes, machine.kind) == (64, 4, "fattree")
    assert "cn01" in repr(machine) or "fattree" in repr(machine)
    assert machine.distance(0, 1) == machine.distance(1, 0) and machine.distance(0, 0) == 0
    assert machine.distance(0, 63) > machine.distance(0, 15)  # another node is farther than one's own
    described = machine.describe()
    assert described["hosts"] == ["cn01", "cn02", "cn03", "cn04"], described
    by_string = tmap.map(folder / "s.coo", network, node=node, host_names=hosts)
    by_machine = tmap.map(folder / "s.coo", machine)
    assert by_machine.mapping == by_string.mapping
    assert tmap.evaluate(folder / "s.coo", machine, by_machine.mapping).hop_bytes == by_machine.hop_bytes
    table, _ = tmap.compare(folder / "s.coo", machine, "inorder,greedy")
    assert "greedy" in table
    with pytest.raises(tmap.ParameterError, match="^node, host_names: a tmap.Machine holds"):
        tmap.map(folder / "s.coo", machine, node="core:2")
    with pytest.raises(tmap.ParameterError, match="^distance: PEs are 0 to 63"):
        machine.distance(0, 64)


def test_a_gpu_machine_maps_a_rank_per_gpu_and_binds_it_there(stencil):
    # Issue 65: pe='gpu' makes each GPU a PE; the binding hands each rank its GPU.
    folder, _, _ = stencil
    machine = tmap.Machine("fattree:1;2;1;1", node="gpu:4 link:pairs pu:8", host_names="g[1-2]", pe="gpu")
    assert (machine.pes, machine.nodes) == (8, 2)
    assert (machine.distance(0, 1), machine.distance(0, 2), machine.distance(0, 4)) == (1, 5, 12)
    # A ring visited in a scrambled order: in rank order its pairs leave the GPU pairs.
    order = [(3 * k + 1) % 8 for k in range(8)]
    (folder / "ring.coo").write_text("".join(f"{order[k]} {order[(k + 1) % 8]} 100\n" for k in range(8)))
    result = tmap.map(folder / "ring.coo", machine)
    in_order = tmap.evaluate(folder / "ring.coo", machine, list(range(8))).hop_bytes
    assert sorted(result.mapping) == list(range(8)) and result.hop_bytes < in_order
    binding = tmap.launch_file(list(range(8)), machine, "binding").splitlines()
    assert binding[1] == "# tmap binding pe=gpu", binding
    assert binding[2] == "0 g1 0,1 CUDA_VISIBLE_DEVICES=0" and binding[9] == "7 g2 6,7 CUDA_VISIBLE_DEVICES=3"
    with pytest.raises(tmap.ParameterError, match="rankfile names a rank's cores, not its GPU"):
        tmap.launch_file(list(range(8)), machine, "rankfile")
    with pytest.raises(tmap.ParameterError, match="^pe: 'tpu' is neither cpu nor gpu"):
        tmap.Machine("fattree:1;2;1;1", node="gpu:4", pe="tpu")
    with pytest.raises(tmap.InputError, match="names no GPU"):
        tmap.Machine("fattree:1;2;1;1", node="core:4", pe="gpu")
    # pe= on the calls themselves, as on tm-map's command line.
    xml = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "gpu", "nvlink4.xml")
    by_call = tmap.map(folder / "ring.coo", "fattree:1;2;1;1", node=xml, host_names="g[1-2]", pe="gpu")
    by_machine = tmap.map(folder / "ring.coo", tmap.Machine("fattree:1;2;1;1", node=xml, host_names="g[1-2]", pe="gpu"))
    assert by_call.mapping == by_machine.mapping
    assert "CUDA_VISIBLE_DEVICES" in by_call.launch_file("binding")
    assert tmap.evaluate(folder / "ring.coo", "fattree:1;2;1;1", by_call.mapping, node=xml, pe="gpu").hop_bytes == \
        by_call.hop_bytes
    with pytest.raises(tmap.ParameterError, match="^pe: a tmap.Machine holds its PEs already"):
        tmap.map(folder / "ring.coo", machine, pe="gpu")


def test_a_results_launch_file_is_tm_maps_on_its_allocation(stencil):
    # Issue 62 (contract section 9): launch_file(result, FORMAT) and result.launch_file(FORMAT)
    # write tm-map's file for the machine and allocation the result was mapped on.
    folder, _, _ = stencil
    network, node, hosts = "fattree:2;2,4;1,1;1,1", "package:2 core:4 pu:2", "cn[01-08]"
    flags = ["-t", network, "--node", node, "--host-names", hosts, "--alloc", "cn[03-06]", "-c", "s.coo", "-q"]
    result = tmap.map(folder / "s.coo", network, node=node, host_names=hosts, alloc="cn[03-06]")
    for fmt in ("rankfile", "hostfile", "machinefile"):
        expected = tool("tm-map", *flags, "--format", fmt, cwd=folder)
        assert result.launch_file(fmt) == expected, fmt
        assert tmap.launch_file(result, fmt) == expected, fmt
    pu = tool("tm-map", *flags, "--format", "rankfile", "--rankfile-slots", "pu", cwd=folder)
    assert result.launch_file("rankfile", slots="pu") == pu
    assert pu != result.launch_file("rankfile")  # hardware threads, not cores
    assert all(line.split("=")[1].split()[0] in {"cn03", "cn04", "cn05", "cn06"} for line in pu.splitlines())
    with pytest.raises(tmap.ParameterError, match="^format: 'json' is not a launcher's"):
        result.launch_file("json")
    with pytest.raises(tmap.ParameterError, match="the result holds its machine"):
        tmap.launch_file(result, "rankfile", node="core:2")
    with pytest.raises(tmap.ParameterError, match="^machine: give the machine"):
        tmap.launch_file(result.mapping)


def test_reports_are_python_objects_with_tm_maps_json_keys(stencil, monkeypatch):
    """A report is built as Python objects by the library, not parsed from
    JSON text: with json.loads broken the calls still answer, and what they
    answer is tm-map's JSON report (times aside), Report objects all the way
    down, the mapping a list of ints."""
    folder, n, entries = stencil
    rows, cols, volumes = zip(*entries)
    matrix = sp.csr_matrix((volumes, (rows, cols)), shape=(n, n))
    # One thread, as Python's default (tm-map's is the machine's cores).
    expected = json.loads(tool("tm-map", "-t", MACHINE, "-c", "s.coo", "-s", "greedy", "--objective", "congestion",
                               "-p", "1", "--format", "json", cwd=folder))

    def refuse(*args, **kwargs):
        raise AssertionError("a report went through JSON text")

    monkeypatch.setattr(json, "loads", refuse)
    result = tmap.map(matrix, MACHINE, "greedy", objective="congestion")
    evaluated = tmap.evaluate(matrix, MACHINE, result.mapping)
    _, compared = tmap.compare(matrix, MACHINE, ["inorder", "greedy"])
    described = tmap.Machine(MACHINE).describe()
    monkeypatch.undo()

    def timeless(value):  # each run's own seconds aside
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k not in ("time_s", "seconds")}
        if isinstance(value, list):
            return [timeless(v) for v in value]
        return value

    assert timeless(result) == timeless(expected)
    assert list(result.keys()) == list(expected.keys())  # the JSON report's order too
    assert type(result.mapping) is list and all(type(pe) is int for pe in result.mapping)
    assert isinstance(result.objective, tmap.Report) and result.objective.after == expected["objective"]["after"]
    assert all(isinstance(r, tmap.Report) for r in compared.results)
    assert [r.strategy for r in compared.results] == [r["strategy"] for r in compared["results"]]
    assert evaluated.hop_bytes == expected["hop_bytes"]
    assert type(described) is dict and described["pes"] == 64
