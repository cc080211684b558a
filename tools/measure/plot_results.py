#!/usr/bin/python3
"""Draws PNG plots from a `grundy bench` JSON report (schema 3 or later).

    /usr/bin/python3 tools/measure/plot_results.py [results/bench.json] [out_dir]

Writes, next to the JSON unless out_dir is given:
  throughput_vs_threads.png  per dataset, SG edges/s against threads (level), serial and bgl beside; labelled points
  phases.png                 each run's phases as shares of its total
  time_vs_edges.png          each engine's SG time over the floor pass, per dataset (the × floor column)
Uses Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def label(r):
    return f'{r["dataset"]} {r["algo"]} {r["threads"]}t'


def throughput(report, subtitle, out):
    runs = report["runs"]
    names = [d["name"] for d in report["datasets"]]
    cols = 4
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names):
        level = sorted((r["threads"], r["edges_per_second"] / 1e6) for r in runs
                       if r["dataset"] == name and r["algo"] == "level")
        if level:
            ax.plot([p[0] for p in level], [p[1] for p in level], marker="o", color="tab:blue", label="level")
            for t, v in level:
                ax.annotate(f"{v:.0f}", (t, v), textcoords="offset points", xytext=(0, 5), ha="center", fontsize=7)
        for i, algo in enumerate(("serial", "bgl")):
            for r in runs:
                if r["dataset"] == name and r["algo"] == algo:
                    v = r["edges_per_second"] / 1e6
                    ax.scatter([1], [v], marker="s", color=("tab:orange", "tab:green")[i], label=algo, zorder=3)
                    ax.annotate(f"{algo} {v:.0f}", (1, v), textcoords="offset points", xytext=(6, -3), fontsize=7)
        ax.set_title(name, fontsize=9)
        ax.set_ylim(bottom=0)
        ax.set_xticks(sorted({r["threads"] for r in runs}))
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle("SG throughput (million edges/s) against threads\n" + subtitle, fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "throughput_vs_threads.png"), dpi=110)


def phases(report, subtitle, out):
    runs = report["runs"]
    names = []
    for r in runs:
        for p in r["phases"]:
            if p not in names:
                names.append(p)
    fig, ax = plt.subplots(figsize=(10, 0.22 * len(runs) + 1.8))
    cmap = plt.get_cmap("tab20")
    left = [0.0] * len(runs)
    for i, p in enumerate(names):
        totals = [sum(ph["median"] for ph in r["phases"].values()) or 1 for r in runs]
        shares = [r["phases"].get(p, {}).get("median", 0) / t for r, t in zip(runs, totals)]
        ax.barh(range(len(runs)), shares, left=left, color=cmap(i % 20), label=p)
        for y, (x0, s) in enumerate(zip(left, shares)):
            if s > 0.12:
                ax.text(x0 + s / 2, y, f"{s * 100:.0f}%", ha="center", va="center", fontsize=6, color="white")
        left = [a + b for a, b in zip(left, shares)]
    ax.set_yticks(range(len(runs)))
    ax.set_yticklabels([label(r) for r in runs], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the run's total time (medians)")
    ax.set_title("where the time goes\n" + subtitle, fontsize=10)
    ax.legend(fontsize=7, ncol=6, loc="upper center", bbox_to_anchor=(0.5, -0.08 - 0.4 / max(1, len(runs) / 10)))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "phases.png"), dpi=110)


def floor_ratio(report, subtitle, out):
    runs = report["runs"]
    names = [d["name"] for d in report["datasets"]]
    threads = sorted({r["threads"] for r in runs if r["algo"] == "level"})
    series = [("level", t) for t in threads] + [("serial", 1), ("bgl", 1)]
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 0.8), 4.5))
    width = 0.8 / len(series)
    for i, (algo, t) in enumerate(series):
        xs, ys = [], []
        for j, name in enumerate(names):
            for r in runs:
                if r["dataset"] == name and r["algo"] == algo and r["threads"] == t and r.get("ratio_to_floor"):
                    xs.append(j + (i - (len(series) - 1) / 2) * width)
                    ys.append(r["ratio_to_floor"])
        bars = ax.bar(xs, ys, width=width, label=f"{algo} {t}t")
        ax.bar_label(bars, fmt="%.1f", fontsize=5, padding=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("SG time / floor pass")
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_title("how far from the floor (one pass gathering every edge's target value)\n" + subtitle, fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_vs_edges.png"), dpi=110)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "results/bench.json"
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(src) or "."
    with open(src) as f:
        report = json.load(f)
    m = report["machine"]
    subtitle = f'{m.get("cpu", "?")}, {m.get("cores", "?")} cores, commit {report["commit"]}'
    throughput(report, subtitle, out)
    phases(report, subtitle, out)
    floor_ratio(report, subtitle, out)
    print(f"wrote throughput_vs_threads.png, phases.png, time_vs_edges.png into {out}")


if __name__ == "__main__":
    main()
