#!/usr/bin/python3
"""A model of grundy-mpi solve on a cluster, from measured runs (results/mpi.md).

    T(P) = compute + bandwidth + latency
    compute   = (n + m) * c / (P * t) * ceil(P * t / cores)   c: seconds per node or edge on one core
                (ranks past the cores take turns, a round waiting for the last)
    bandwidth = b(P) * m / (hosts * B)               b(P): bytes sent per edge, B: one host's link
    latency   = K(P) * a                              K(P): collectives, a: one collective's cost
                (a cluster: per super-round two count exchanges, log2 P messages
                deep, and two Alltoallv, P - 1 messages each)

c comes from the one-rank run and a from the two-rank run of a scaling table
(tools/mpi_scaling.sh); the model then predicts P = 3..8 on the same machine,
which checks it, and projects a cluster from parameters given on the command
line. b(P) follows the measured growth b(P) = b1 * (P - 1) / P (each rank's
remote share of its targets), fitted at P <= 8; with thousands of ranks the
gaps between a round's ids grow to two bytes and ghosts stop repeating, so
the projection also gives the bandwidth at 5 bytes per edge (a notice, a
value and their gaps per remote edge). K(P) as measured here.

    tools/mpi_model.py results/mpi/scaling-uniform-2e7-2core.tsv --nodes 2e6 --edges 2e7 --cores 2
"""
import argparse
import csv
import math


def load(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f, delimiter="\t")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table", help="tools/mpi_scaling.sh output")
    ap.add_argument("--nodes", type=float, required=True, help="the measured graph's nodes")
    ap.add_argument("--edges", type=float, required=True, help="the measured graph's edges")
    ap.add_argument("--cores", type=int, default=2, help="cores of the measuring machine")
    ap.add_argument("--hosts", default="16,64,256", help="cluster sizes to project")
    ap.add_argument("--host-cores", type=int, default=32)
    ap.add_argument("--ranks-per-host", type=int, default=4)
    ap.add_argument("--bandwidth", type=float, default=12.5e9, help="bytes/s of one host's link (100 Gb/s)")
    ap.add_argument("--latency", type=float, default=5e-6, help="seconds, one message across the network")
    ap.add_argument("--rounds", type=float, default=60, help="super-rounds at the projected size")
    ap.add_argument("--memory", type=float, default=1662 * 2**20 / (2.5e8 + 2.5e7),
                    help="bytes a rank holds per node or edge of its slice (the 1e9 run: 1662 MiB for 2.75e8)")
    ap.add_argument("--project", default="1e10,1e11", help="edges to project (nodes = edges / 10)")
    a = ap.parse_args()
    rows = load(a.table)
    one = next(r for r in rows if r["ranks"] == 1)
    two = next(r for r in rows if r["ranks"] == 2)
    work = a.nodes + a.edges
    busy = lambda r: r["ghosts_s"] + r["peel_s"] + r["gather_s"] + r["mex_s"]
    # c: one rank, t threads, every core it may use busy.
    c = busy(one) * min(one["threads"], a.cores) / work
    b1 = max(r["bytes_per_edge"] * r["ranks"] / (r["ranks"] - 1) for r in rows if r["ranks"] > 1)
    compute = lambda p, t: work * c / (p * t) * math.ceil(p * t / a.cores)
    # a: what the two-rank run took beyond its compute, per collective.
    alpha = max(0.0, busy(two) - compute(2, two["threads"])) / two["collectives"]
    print(f"fitted: c = {c * 1e9:.1f} ns per node or edge on one core; one collective here = {alpha * 1e6:.1f} us; "
          f"b(P) = {b1:.2f} * (P - 1) / P bytes per edge")
    print()
    print("| ranks | measured s (ghosts..mex) | modelled s | error |")
    print("| ---: | ---: | ---: | ---: |")
    for r in rows:
        p = int(r["ranks"])
        # Oversubscribed: past the cores, every collective waits for ranks to get a core in turn.
        model = compute(p, r["threads"]) + r["collectives"] * alpha * math.ceil(p / a.cores)
        print(f"| {p} | {busy(r):.3f} | {model:.3f} | {100 * (model - busy(r)) / busy(r):+.0f} % |")
    print()
    print(f"Projection: {a.ranks_per_host} ranks x {a.host_cores // a.ranks_per_host} threads per host of "
          f"{a.host_cores} cores, {a.bandwidth / 1e9:.1f} GB/s and {a.latency * 1e6:.0f} us per host, "
          f"{a.rounds:.0f} super-rounds:")
    print()
    print("| edges | hosts | ranks | compute s | bandwidth s | (at 5 B/edge) | latency s | total s | memory per rank GiB |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for m in (float(x) for x in a.project.split(",")):
        n = m / 10
        for hosts in (int(h) for h in a.hosts.split(",")):
            p = hosts * a.ranks_per_host
            t = a.host_cores // a.ranks_per_host
            comp = (n + m) * c / (p * t)
            bw = b1 * (p - 1) / p * m / (hosts * a.bandwidth)
            lat = a.rounds * (2 * math.log2(p) + 2 * (p - 1)) * a.latency
            mem = (n + m) / p * a.memory / 2**30
            worst = 5 * m / (hosts * a.bandwidth)
            print(f"| {m:.0e} | {hosts} | {p} | {comp:.1f} | {bw:.2f} | {worst:.2f} | {lat:.3f} | {comp + bw + lat:.1f} "
                  f"| {mem:.1f} |")


if __name__ == "__main__":
    main()
