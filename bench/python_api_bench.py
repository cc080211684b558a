#!/usr/bin/python3
"""grundy.sg from Python against the CLI's SG phases, on the same graphs.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_api_bench.py build/release/engine/grundy [out.md]

1. A 10^7-edge uniform DAG (N 10^6) already in NumPy: grundy.sg(graph) against
   `grundy solve g.gcsr --trials 9` (its Trial Time: the solver's call alone,
   layering and mex), medians, interleaved in one run; with int32 indices and
   with int64 ones (NumPy's default integer, read in place as well).
2. A judge-sized graph (N 2000, M 6000): what a call from Python costs beyond
   the solve (median of grundy.sg over 2000 calls minus the CLI's Average Time
   over 2000 trials).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import grundy


def cli_trials(binary, path, trials):
    r = subprocess.run([binary, "solve", path, "--trials", str(trials)], capture_output=True, text=True, check=True)
    times = [float(line.split()[-1]) for line in r.stderr.splitlines() if line.startswith("Trial Time:")]
    avg = [float(line.split()[-1]) for line in r.stderr.splitlines() if line.startswith("Average Time:")]
    return times, avg[0]


def python_sg(graph, calls, threads=None):
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        grundy.sg(graph, threads=threads)
        times.append(time.perf_counter() - t)
    return times


def main(binary, out=None):
    work = tempfile.mkdtemp()
    big, small = os.path.join(work, "e7.gcsr"), os.path.join(work, "judge.gcsr")
    subprocess.run([binary, "gen", "-q", big, "-n", "1e6", "-m", "1e7", "-s", "7"], check=True)
    subprocess.run([binary, "gen", "-q", small, "-n", "2000", "-m", "6000", "-s", "7"], check=True)
    loaded = grundy.load(big)
    indptr, indices = np.array(loaded.indptr, dtype=np.int64), np.array(loaded.indices, dtype=np.int32)
    graph = grundy.Graph(indptr, indices)  # plain NumPy arrays, viewed
    wide_indices = indices.astype(np.int64)
    wide = grundy.Graph(indptr, wide_indices)  # 64-bit ids, viewed too
    assert wide.targets_address == wide_indices.ctypes.data
    cli, py, py_wide = [], [], []
    for _ in range(5):  # interleaved rounds
        cli += cli_trials(binary, big, 3)[0]
        py += python_sg(graph, 3)
        py_wide += python_sg(wide, 3)
    judge = grundy.load(small)
    _, cli_avg = cli_trials(binary, small, 2000)
    py_small = python_sg(judge, 2000)
    lines = [
        "# grundy.sg from Python against the CLI",
        "",
        f"Machine: {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}, {os.cpu_count()} cores. Commit: {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}. Command: `{' '.join(sys.argv)}`.",
        "",
        "| graph | CLI solve (Trial Time, median) | grundy.sg (median) | ratio |",
        "| --- | --- | --- | --- |",
        f"| uniform, N 10^6, M 10^7 (NumPy arrays) | {statistics.median(cli) * 1e3:.1f} ms | "
        f"{statistics.median(py) * 1e3:.1f} ms | {statistics.median(py) / statistics.median(cli):.2f} |",
        f"| the same, int64 indices (64-bit ids read in place) | {statistics.median(cli) * 1e3:.1f} ms | "
        f"{statistics.median(py_wide) * 1e3:.1f} ms | {statistics.median(py_wide) / statistics.median(cli):.2f} |",
        "",
        f"Judge-sized (N 2000, M 6000): the CLI's solve averages {cli_avg * 1e6:.1f} us over 2000 trials; "
        f"grundy.sg takes {statistics.median(py_small) * 1e6:.1f} us (median of 2000 calls): "
        f"{(statistics.median(py_small) - cli_avg) * 1e6:.1f} us beyond the solve.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(*sys.argv[1:])
