"""grundy's Python module: the CLI's values, zero copy in and out, the GIL
released during a solve, and bad dtypes and bad graphs refused."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import scipy.sparse

import grundy

BINARY = os.environ.get("GRUNDY_BINARY", "grundy")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def cli_values(args):
    out = subprocess.run([BINARY, "solve", *args, "--sg-out", "-"], capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    return lines[0], [int(x) for x in lines[1:] if x]


@pytest.mark.parametrize("shape", ["uniform", "chain", "powerlaw", "kron", "tournament"])
def test_the_same_values_as_the_cli(tmp_path, shape):
    path = str(tmp_path / "g.gcsr")
    subprocess.run([BINARY, "gen", "-q", path, "--shape", shape, "-n", "3000", "-m", "30000", "-s", "5"], check=True)
    verdict, want = cli_values([path])
    graph = grundy.load(path)
    assert list(grundy.sg(graph)) == want
    assert grundy.solve(graph).verdict == verdict
    generated = grundy.gen(shape, 3000, 30000, seed=5)
    assert np.array_equal(generated.indices, graph.indices)
    # CSR arrays handed in by the user: the same values for every engine and thread count.
    mine = grundy.Graph(np.array(graph.indptr, dtype=np.int64), np.array(graph.indices, dtype=np.int32))
    for engine in ("auto", "serial", "bgl"):
        for threads in (1, 2, 4):
            assert list(grundy.sg(mine, threads=threads, engine=engine)) == want
    # 64-bit ids (NumPy's default integer, SciPy's int64 indices) are read in place as well.
    for dtype in (np.int64, np.uint64):
        wide = grundy.Graph(np.array(graph.indptr, dtype=dtype), np.array(graph.indices, dtype=dtype))
        for engine in ("auto", "serial", "bgl"):
            for threads in (1, 2):
                assert list(grundy.sg(wide, threads=threads, engine=engine, verify=True)) == want
        assert list(grundy.sg(wide, loopy=True)) == want
        assert grundy.solve(wide, graph.tokens) == grundy.solve(graph)


def test_no_copy_in_and_out():
    indptr = np.array([0, 2, 3, 3], dtype=np.int64)
    indices = np.array([1, 2, 2], dtype=np.int32)
    graph = grundy.Graph(indptr, indices)
    assert graph.targets_address == indices.ctypes.data  # the engine reads the caller's buffer
    values = grundy.sg(graph)
    assert list(values) == [2, 1, 0]
    assert not values.flags.owndata and values.base is not None  # the engine's own array, held by its capsule
    # A loaded .gcsr is viewed where it is mapped; scipy's CSR (int32 indptr) too, indices in place.
    csr = scipy.sparse.csr_matrix((np.ones(3), indices, indptr.astype(np.int32)), shape=(3, 3))
    g2 = grundy._graph(csr)
    assert g2.targets_address == csr.indices.ctypes.data
    assert list(grundy.sg(csr)) == [2, 1, 0]
    assert list(grundy.sg(scipy.sparse.csr_array(csr))) == [2, 1, 0]
    # 64-bit ids: NumPy's default integer, and SciPy's index dtype past 2^31 edges.
    wide = np.array([1, 2, 2])
    assert wide.dtype == np.int64
    g3 = grundy.Graph(indptr, wide)
    assert g3.targets_address == wide.ctypes.data and g3.indices.ctypes.data == wide.ctypes.data
    assert list(grundy.sg(g3)) == [2, 1, 0]
    csr.indptr, csr.indices = csr.indptr.astype(np.int64), csr.indices.astype(np.int64)
    assert grundy._graph(csr).targets_address == csr.indices.ctypes.data
    assert list(grundy.sg(csr)) == [2, 1, 0]


def test_the_gil_is_released_during_a_solve():
    graph = grundy.gen("uniform", 1_000_000, 10_000_000, threads=1)
    ticks = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        before = ticks[0]
        grundy.sg(graph, threads=1)  # ~100 ms of engine work
        during = ticks[0] - before
    finally:
        done.set()
        t.join()
    assert during > 10000, f"the other thread ran only {during} times during the solve"


def test_bad_dtypes_are_type_errors_never_copies():
    indptr = np.array([0, 1, 1], dtype=np.int64)
    for dtype in (np.int8, np.int16, np.uint16, np.float64):
        with pytest.raises(TypeError, match="indices of dtype"):
            grundy.Graph(indptr, np.array([1], dtype=dtype))
    with pytest.raises(TypeError, match="indptr of dtype"):
        grundy.Graph(np.array([0, 1, 1], dtype=np.float32), np.array([1], dtype=np.int32))
    with pytest.raises(TypeError, match="contiguous"):
        grundy.Graph(np.array([0, 1, 2], dtype=np.int64), np.array([1, 0, 1, 0], dtype=np.int32)[::2])
    with pytest.raises(TypeError):
        grundy.sg([[0, 1], [0, 0]])


def test_bad_graphs_are_value_errors_with_the_engines_message(tmp_path):
    cycle = grundy.Graph(np.array([0, 1, 2], dtype=np.int64), np.array([1, 0], dtype=np.int32), "c")
    with pytest.raises(ValueError, match=r"c: cycle: 1 -> 2 -> 1 \(a game with cycles: use --loopy\)"):
        grundy.sg(cycle)
    with pytest.raises(ValueError, match=r"targets\[0\] = 5 is not a node"):
        grundy.Graph(np.array([0, 1, 1], dtype=np.int64), np.array([5], dtype=np.int32))
    with pytest.raises(ValueError, match=r"targets\[0\] = -1 is not a node"):
        grundy.Graph(np.array([0, 1, 1]), np.array([-1]))
    with pytest.raises(ValueError, match=r"c: cycle: 1 -> 2 -> 1"):
        grundy.sg(grundy.Graph(np.array([0, 1, 2]), np.array([1, 0]), "c"))
    with pytest.raises(ValueError, match=r"offsets\[2\] = 1 is less than offsets\[1\] = 2"):
        grundy.Graph(np.array([0, 2, 1, 2], dtype=np.int64), np.array([1, 2], dtype=np.int32))
    with pytest.raises(grundy.Error, match="missing.txt"):
        grundy.load(str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="not a node"):
        grundy.solve(cycle, [7], loopy=True)


def test_outcomes_are_the_clis_letters(tmp_path):
    path = str(tmp_path / "d.gcsr")
    subprocess.run([BINARY, "gen", "-q", path, "--shape", "digraph", "-n", "2000", "-m", "6000", "-k", "1"], check=True)
    out = subprocess.run([BINARY, "solve", path, "--loopy=outcome", "--outcome-out", "-"], capture_output=True,
                         text=True, check=True).stdout.split()
    letters = grundy.outcomes(grundy.load(path, loopy=True), threads=2)
    assert letters.dtype == np.dtype("S1") and len(letters) == 2000
    assert [x.decode() for x in letters] == out[1:]
    assert {b"W", b"L", b"D"} == set(letters.tolist())


def test_games_with_cycles():
    cycle = grundy.Graph(np.array([0, 1, 2, 2], dtype=np.int64), np.array([1, 0], dtype=np.int32))
    values = grundy.sg(cycle, loopy=True)
    assert values[0] == grundy.INFINITE and values[2] == 0
    assert grundy.solve(cycle, [0], loopy=True) == ("draw", 0, None)
    assert grundy.solve(cycle, [2, 2], loopy=True).verdict == "lose"


def test_verify_checks_the_values_it_returns(tmp_path):
    g = grundy.gen("uniform", 3000, 20000, seed=5)
    plain = grundy.sg(g)
    assert np.array_equal(grundy.sg(g, verify=True, threads=2), plain)
    assert grundy.solve(g, verify=True) == grundy.solve(g)
    cyclic = grundy.gen("digraph", 2000, 8000, seed=3)
    assert np.array_equal(grundy.sg(cyclic, loopy=True, verify=True), grundy.sg(cyclic, loopy=True))
    path = tmp_path / "g.txt"
    path.write_text("3 2 1\n1 2\n2 3\n2\n")
    [row] = grundy.batch([str(path)], verify=True)
    assert row["verdict"] == "win" and row["error"] is None


def test_a_solve_beyond_the_memory_budget_is_refused_before_it_allocates():
    # The budget is read once a process: a child with GRUNDY_MEMORY_LIMIT.
    code = ("import grundy\n"
            "g = grundy.gen('uniform', 200000, 1000000)\n"
            "try:\n"
            "    grundy.sg(g)\n"
            "except ValueError as e:\n"
            "    print(e)\n")
    env = dict(os.environ, GRUNDY_MEMORY_LIMIT="6M")  # the graph is 5.3 MiB, the solve 7.2
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert "gen:uniform: 200000 nodes and 1000000 edges needs " in out, out
    assert "of memory this process may use" in out, out


def test_networkx_and_batch(tmp_path):
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    graph, nodes = grundy.from_networkx(G)
    values = dict(zip(nodes, grundy.sg(graph)))
    assert values == {"a": 2, "b": 1, "c": 0}
    answer = grundy.solve(graph, [nodes.index("a")])
    assert answer.verdict == "win" and nodes[answer.move[2]] == "c"
    stream = tmp_path / "s.txt"
    stream.write_text("2 1 1\n1 2\n1\n2 2 1\n1 2\n2 1\n1\n")
    results = grundy.batch([str(stream)], loopy=True)
    assert [r["verdict"] for r in results] == ["win", "draw"]
    assert results[0]["move"] == (0, 0, 1)


def test_batch_gives_the_clis_json_lines(tmp_path):
    import json
    stream = str(tmp_path / "s.txt")
    subprocess.run([BINARY, "gen", "-q", stream, "-n", "300", "-m", "1500", "--instances", "40", "-s", "3"], check=True)
    with open(stream, "a") as f:
        f.write("3 2 1\n1 2\n2 1\n1\n")  # a cycle: an error line of its own
    out = subprocess.run([BINARY, "batch", "-q", "--json", "--move", stream], capture_output=True, text=True).stdout
    want = [json.loads(line) for line in out.splitlines()]
    got = grundy.batch([stream], threads=2)
    assert len(got) == len(want) == 41
    for g, w in zip(got, want):
        for key in ("name", "path", "index", "line", "error", "n", "m", "k", "depth"):
            assert g[key] == w[key], (key, g, w)
        assert (g["verdict"] or "error") == w["verdict"]
        if w["xor"] is not None:
            assert g["xor"] == w["xor"]
        assert (None if g["move"] is None else [x + 1 for x in g["move"]]) == \
            (None if w["move"] is None else [w["move"]["token"], w["move"]["from"], w["move"]["to"]])


def test_the_networkx_example_runs(tmp_path):
    out = tmp_path / "h.png"
    script = os.path.join(ROOT, "examples", "python", "networkx_histogram.py")
    r = subprocess.run([sys.executable, script, str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "wrote" in r.stdout and out.stat().st_size > 1000


def test_save_and_layering_are_convert_and_info(tmp_path):
    """save writes what grundy convert writes (the same bytes), layering gives info's depth and widest
    layer, and a layered file loads back renumbered, with the user's ids to map its values home."""
    text = str(tmp_path / "g.txt")
    subprocess.run([BINARY, "gen", "-q", text, "--shape", "powerlaw", "-n", "4000", "-m", "20000", "-s", "3"],
                   check=True)
    graph = grundy.load(text)
    assert graph.source == {"format": "text", "bytes": os.path.getsize(text), "layered": False, "degree_runs": 0}
    for name, layered in (("a.gcsr", False), ("l.gcsr", True), ("a.el", False)):
        mine, theirs = str(tmp_path / ("py-" + name)), str(tmp_path / ("cli-" + name))
        grundy.save(graph, mine, layered=layered)
        subprocess.run([BINARY, "convert", "-q", text, theirs] + (["--layered"] if layered else []), check=True)
        assert open(mine, "rb").read() == open(theirs, "rb").read(), name
    layered = grundy.load(str(tmp_path / "py-l.gcsr"))
    assert layered.source["layered"] and layered.source["degree_runs"] > 0
    values, back = grundy.sg(graph), grundy.sg(layered)
    assert np.array_equal(back, values[layered.original_ids])
    order, begin = grundy.layering(graph)
    info = subprocess.run([BINARY, "info", "--json", text], capture_output=True, text=True, check=True).stdout
    import json
    facts = json.loads(info)
    assert len(begin) - 1 == facts["depth"]
    assert int(np.diff(begin).max()) == facts["widest_layer"]
    assert np.array_equal(np.sort(order), np.arange(graph.nodes, dtype=np.uint32))
    # Every edge points to a later layer.
    layer = np.empty(graph.nodes, dtype=np.int64)
    for l in range(len(begin) - 1):
        layer[order[begin[l]:begin[l + 1]]] = l
    sources = np.repeat(np.arange(graph.nodes), np.diff(graph.indptr).astype(np.int64))
    assert (layer[graph.indices] > layer[sources]).all()
    cyclic = grundy.Graph(np.array([0, 1, 2], dtype=np.int64), np.array([1, 0], dtype=np.int32))
    with pytest.raises(ValueError, match="cycle: 1 -> 2 -> 1"):
        grundy.layering(cyclic)
    with pytest.raises(ValueError, match="cycle"):
        grundy.save(cyclic, str(tmp_path / "c.gcsr"))
    assert not os.path.exists(tmp_path / "c.gcsr")
    assert grundy.save(cyclic, str(tmp_path / "c.gcsr"), loopy=True) == 0
