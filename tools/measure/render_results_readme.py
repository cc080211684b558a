#!/usr/bin/python3
"""Rewrites the generated part of results/README.md (between the markers)
from results/bench.json, bench.md and processes.md, so that every number in
it comes from those files."""
import json

START, END = "<!-- generated: start -->", "<!-- generated: end -->"


def bench_table():
    """bench.md from its table on (its own header names what the lines above say)."""
    text = open("results/bench.md").read()
    return text[text.index("\n|") + 1:].rstrip().replace("\n## ", "\n#### ")


def main():
    report = json.load(open("results/bench.json"))
    m = report["machine"]
    trials = sorted({r["trials"] for r in report["runs"]})
    lines = [
        START,
        f"Measured at commit `{report['commit']}` on {report['date']} with `{report['command']}`.",
        "",
        f"Machine: {m.get('cpu')} , {m.get('cores')} cores, {int(m.get('memory_bytes', 0)) / 2**30:.1f} GiB, "
        f"{m.get('os')}, {m.get('kernel')}; {m.get('compiler')}, oneTBB {m.get('onetbb')}, Boost {m.get('boost')}, "
        f"CLI11 {m.get('cli11')}; build {m.get('build')}.",
        "",
        f"### grundy bench (medians of {'/'.join(map(str, trials))} trials after a warm-up, each paired with a "
        "floor pass; SG = the solver's phases)",
        "",
        bench_table(),
        "",
        "### Whole processes",
        "",
    ]
    try:
        proc = open("results/processes.md").read().split("\n", 1)[1].strip()
        lines.append(proc.replace("\n## ", "\n#### "))
    except FileNotFoundError:
        lines.append("(not measured: run tools/measure/compare_processes.sh)")
    lines.append(END)
    readme = open("results/README.md").read()
    a, b = readme.index(START), readme.index(END) + len(END)
    open("results/README.md", "w").write(readme[:a] + "\n".join(lines) + readme[b:])


if __name__ == "__main__":
    main()
