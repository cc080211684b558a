#!/usr/bin/python3
"""Draws PNG plots from a `grundy bench` JSON report.

    /usr/bin/python3 tools/measure/plot_results.py [results/bench.json] [out_dir]

Writes, next to the JSON unless out_dir is given:
  throughput_vs_threads.png  level engine, SG edges/s against thread count, per dataset
  phases.png                 median time of each phase, per dataset and engine (stacked)
  time_vs_edges.png          SG time against edge count, log-log, per engine
Uses Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/bench.json"
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(src) or "."
    with open(src) as f:
        report = json.load(f)
    runs = report["runs"]
    datasets = {d["name"]: d for d in report["datasets"]}
    subtitle = f'{report["machine"].get("cpu", "?")}, {report["machine"].get("cores", "?")} cores, commit {report["commit"]}'

    # 1. Throughput against threads (level engine).
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.get_cmap("tab20")
    markers = "os^vD<>pP*Xh"
    for i, name in enumerate(datasets):
        pts = sorted((r["threads"], r["edges_per_second"]) for r in runs if r["dataset"] == name and r["algo"] == "level")
        if pts:
            ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], marker=markers[i % len(markers)],
                    color=colors(i % 20), label=name)
    ax.set_yscale("log")
    ax.set_xticks(sorted({r["threads"] for r in runs}))
    ax.set_xlabel("threads")
    ax.set_ylabel("SG throughput (million edges/s)")
    ax.set_title("level engine: throughput against threads\n" + subtitle, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "throughput_vs_threads.png"), dpi=110)

    # 2. Phase breakdown: one bar per (dataset, engine, threads), stacked by phase.
    bars = [r for r in runs]
    phase_names = []
    for r in bars:
        for p in r["phases"]:
            if p not in phase_names:
                phase_names.append(p)
    fig, ax = plt.subplots(figsize=(max(8, len(bars) * 0.35), 5.5))
    bottoms = [0.0] * len(bars)
    cmap = plt.get_cmap("tab20")
    for i, p in enumerate(phase_names):
        heights = [r["phases"].get(p, {}).get("median", 0) * 1e3 for r in bars]
        ax.bar(range(len(bars)), heights, bottom=bottoms, label=p, color=cmap(i % 20))
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([f'{r["dataset"]} {r["algo"]} {r["threads"]}t' for r in bars], rotation=90, fontsize=6)
    ax.set_ylabel("median time (ms)")
    ax.set_yscale("log")
    ax.set_title("phases per dataset and engine\n" + subtitle, fontsize=10)
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "phases.png"), dpi=110)

    # 3. Time against edges, log-log, per engine (best thread count).
    fig, ax = plt.subplots(figsize=(8, 5))
    for algo in sorted({r["algo"] for r in runs}):
        best = {}
        for r in runs:
            if r["algo"] != algo:
                continue
            m = datasets[r["dataset"]]["m"]
            key = r["dataset"]
            if key not in best or r["sg_seconds"]["median"] < best[key][1]:
                best[key] = (m, r["sg_seconds"]["median"])
        pts = sorted(best.values())
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], label=algo, s=20)
    floors = [(d["m"], min(s["median"] for s in d["floor_seconds"].values())) for d in datasets.values() if d["floor_seconds"]]
    if floors:
        ax.scatter([f[0] for f in floors], [f[1] for f in floors], label="floor kernel", marker="x", color="black")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("edges (M)")
    ax.set_ylabel("SG time, median (s)")
    ax.set_title("SG time against edges (best thread count)\n" + subtitle, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_vs_edges.png"), dpi=110)
    print(f"wrote throughput_vs_threads.png, phases.png, time_vs_edges.png into {out}")


if __name__ == "__main__":
    main()
