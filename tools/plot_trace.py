#!/usr/bin/python3
"""Draws a grundy trace (solve/batch --profile) as a timeline PNG: one row per
thread track, time across, each span coloured by what it is; the counter
tracks below, as lines. For a README or a report without a browser.

    /usr/bin/python3 tools/plot_trace.py TRACE.json OUT.png [--title TEXT]

Uses Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# What a span is, by its name: the colour says which part of the engine ran.
KINDS = [
    ("in-degree count", "#8c564b"),
    ("scatter emit", "#ff7f0e"),
    ("scatter apply", "#ffbb78"),
    ("round", "#1f77b4"),
    ("ready scan", "#aec7e8"),
    ("mex", "#2ca02c"),
    ("parse", "#9467bd"),
    ("instance", "#17becf"),
]


# Spans that hold other spans (a round holds the scatter pieces the thread
# ran in it): drawn as a thin band at the top of the row, under the pieces.
CONTAINERS = ("round", "rounds", "in-degree count", "mex split layers", "mex narrow layers")


def kind(event):
    name = event["name"]
    if event.get("cat") == "batch":
        return "instance"
    for k, _ in KINDS:
        if name.startswith(k):
            return k
    return event.get("cat", "other")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    trace = json.load(open(args.trace))
    events = trace["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e["name"] == "thread_name"}
    tracks = sorted(t for t in names if t >= 10) + sorted(t for t in names if t < 10)
    spans = [e for e in events if e["ph"] == "X"]
    counters = {}
    for e in events:
        if e["ph"] == "C":
            counters.setdefault(e["name"], []).append((e["ts"] / 1e3, e["args"]["value"]))
    colors = dict(KINDS)
    total = trace_span(spans)
    rows = len(tracks)
    fig, axes = plt.subplots(1 + len(counters), 1, figsize=(12, 1.0 + 0.45 * rows + 1.3 * len(counters)),
                             sharex=True, gridspec_kw={"height_ratios": [max(1, 0.45 * rows)] + [1.3] * len(counters)},
                             squeeze=False)
    ax = axes[0][0]
    seen = set()
    for row, tid in enumerate(tracks):
        by_kind = {}
        for e in spans:
            if e["tid"] == tid:
                container = tid >= 10 and e["name"] in CONTAINERS
                k = kind(e) if tid >= 10 else e.get("cat", "phase")
                by_kind.setdefault((k, container), []).append((e["ts"] / 1e3, max(e["dur"] / 1e3, 1e-4)))
        for (k, container), bars in sorted(by_kind.items(), key=lambda kv: not kv[0][1]):  # containers first
            color = colors.get(k, "#7f7f7f" if tid >= 10 else "#c7c7c7")
            y, h = (row - 0.45, 0.2) if container else (row - 0.2, 0.6)
            ax.broken_barh(bars, (y, h), facecolors=color, label=k if k not in seen and tid >= 10 else None)
            if tid >= 10:
                seen.add(k)
        if tid < 10:  # the synthetic tracks: label their spans
            for e in spans:
                if e["tid"] == tid and e["dur"] > 0.03 * total:
                    ax.text(e["ts"] / 1e3 + e["dur"] / 2e3, row, e["name"], ha="center", va="center", fontsize=7)
    ax.set_yticks(range(rows))
    ax.set_yticklabels([names[t] for t in tracks], fontsize=8)
    ax.invert_yaxis()
    ax.legend(fontsize=7, ncol=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    meta = trace.get("otherData", {})
    title = args.title or (f'grundy {meta.get("command", "")} {meta.get("input", "")}: {meta.get("threads", "?")} threads, '
                           f'N {meta.get("n", "?")}, M {meta.get("m", "?")}')
    if meta.get("coalesced"):
        title += "\n(" + "; ".join(meta["coalesced"]) + ")"
    ax.set_title(title, fontsize=9, pad=22)
    for i, (name, points) in enumerate(sorted(counters.items())):
        cax = axes[i + 1][0]
        points.sort()
        cax.step([p[0] for p in points], [p[1] for p in points], where="post", linewidth=0.8,
                 marker="o" if len(points) < 3 else None, markersize=3)
        cax.set_ylabel(name, fontsize=7, rotation=0, ha="right", va="center")
        cax.tick_params(labelsize=7)
        cax.grid(alpha=0.3)
    axes[-1][0].set_xlabel("ms since the trace started")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}: {rows} tracks, {len(spans)} spans, {len(counters)} counters")


def trace_span(spans):
    if not spans:
        return 1.0
    return max(e["ts"] + e["dur"] for e in spans) - min(e["ts"] for e in spans)


if __name__ == "__main__":
    main()
