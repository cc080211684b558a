#!/usr/bin/python3
"""A NetworkX DiGraph solved by grundy, and its SG-value histogram.

    /usr/bin/python3 examples/python/networkx_histogram.py [out.png]

Builds a random DAG with NetworkX (edges from lower to higher node numbers),
hands it to grundy without writing a file, prints the verdict for a few
tokens, and plots how many nodes have each SG value (matplotlib).
"""
import random
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

import grundy


def main(out="sg-histogram.png"):
    rng = random.Random(7)
    G = nx.DiGraph()
    G.add_nodes_from(range(2000))
    while G.number_of_edges() < 10000:
        u, v = sorted(rng.sample(range(2000), 2))
        G.add_edge(u, v)
    graph, nodes = grundy.from_networkx(G)
    values = grundy.sg(graph)
    tokens = [nodes.index(n) for n in (0, 1, 2)]
    answer = grundy.solve(graph, tokens)
    print(f"{graph.nodes} nodes, {graph.edges} edges; tokens on 0, 1, 2: {answer.verdict} (xor {answer.xor})")
    if answer.move:
        token, frm, to = answer.move
        print(f"winning move: token {token} from {nodes[frm]} to {nodes[to]}")
    counts = np.bincount(values)
    plt.figure(figsize=(6, 3.5))
    plt.bar(np.arange(len(counts)), counts)
    plt.xlabel("SG value")
    plt.ylabel("nodes")
    plt.title(f"SG values of a random DAG ({graph.nodes} nodes, {graph.edges} edges)")
    plt.tight_layout()
    plt.savefig(out, dpi=100)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
