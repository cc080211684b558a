"""grundy: impartial games on graphs, solved by grundy's parallel engine.

    import grundy, scipy.sparse
    values = grundy.sg(csr)                        # every node's SG value (NumPy, the engine's own array)
    verdict, xor, move = grundy.solve(graph, [0, 5, 5])
    graph = grundy.load("big.gcsr")                # NumPy views straight over the mapping
    graph, nodes = grundy.from_networkx(G)
    grundy.save(graph, "g.gcsr", layered=True)     # .gcsr, .el or text by the extension, as grundy convert
    order, begin = grundy.layering(graph)          # Kahn's rounds: layer l is order[begin[l]:begin[l + 1]]

Graphs are CSR with 0-based ids: the successors of u are
indices[indptr[u]:indptr[u + 1]]. indices may be int32, uint32, int64 or
uint64 and are read in place (never copied); indptr may be 32- or 64-bit
(32-bit indptr is widened, N + 1 entries). Errors in the input are ValueError (grundy.Error)
with the engine's message; a dtype it cannot read in place is a TypeError.
loopy=True solves games with cycles: values may be grundy.INFINITE and the
verdict "draw".
"""
from typing import NamedTuple, Optional, Tuple

from ._grundy import INFINITE, Error, Graph, __version__, batch, gen, load
from . import _grundy

__all__ = ["Graph", "Error", "INFINITE", "Answer", "sg", "solve", "outcomes", "load", "gen", "batch", "save", "layering",
           "from_networkx", "__version__"]


class Answer(NamedTuple):
    verdict: str  # "win", "lose" or "draw"
    xor: int  # the XOR of the tokens' (finite) values
    move: Optional[Tuple[int, int, int]]  # (token index, from, to), 0-based; None on a loss or a draw


def _graph(graph, indices=None, name="<graph>"):
    if isinstance(graph, Graph):
        if indices is not None:
            raise TypeError("give a grundy.Graph alone, or indptr and indices")
        return graph
    if indices is not None:
        return Graph(graph, indices, name)
    if getattr(graph, "format", None) == "csr" and hasattr(graph, "indptr") and hasattr(graph, "indices"):
        rows, cols = graph.shape
        if rows != cols:
            raise ValueError(f"a graph's adjacency matrix is square; this one is {rows} x {cols}")
        return Graph(graph.indptr, graph.indices, name)
    raise TypeError("expected a grundy.Graph, a scipy.sparse CSR matrix or array, or indptr and indices, "
                    f"not {type(graph).__name__}")


def sg(graph, indices=None, *, threads=None, engine="auto", loopy=False, verify=False):
    """Every node's SG value (generalized values with loopy=True) as a NumPy array (uint16 or uint32).

    verify=True checks every value before returning (as the CLI's --verify); a wrong one is a ValueError."""
    return _grundy.sg(_graph(graph, indices), threads, engine, loopy, verify)


def solve(graph, tokens=None, *, threads=None, engine="auto", loopy=False, verify=False) -> Answer:
    """The game with these tokens (0-based node ids; default: a loaded game's own); verify as sg's."""
    if tokens is not None:
        tokens = [int(t) for t in tokens]
    return Answer(*_grundy.solve(_graph(graph), tokens, threads, engine, loopy, verify))


def outcomes(graph, indices=None, *, threads=None):
    """A single token's outcome on each node, b"W", b"L" or b"D" (a NumPy array of dtype S1), by the
    retrograde analysis of games with or without cycles (as the CLI's --loopy=outcome)."""
    return _grundy.outcomes(_graph(graph, indices), threads)


def save(graph, path, *, layered=False, loopy=False, threads=None):
    """Writes the graph and its tokens as grundy convert does, by the path's extension: .gcsr (layered=True:
    renumbered by topological layers, the user's ids kept), .el or classic text; the file appears whole or
    not at all. loopy=True keeps cycles (else a cycle is a ValueError). Returns the layers a layered file stores."""
    return _grundy.save(_graph(graph), str(path), layered, loopy, threads)


def layering(graph, indices=None, *, threads=None):
    """A DAG's topological layers as the level engine computes them (Kahn's rounds: layer 0 holds the
    sources, every edge points to a later layer): (order, begin), NumPy uint32 arrays; layer l is
    order[begin[l]:begin[l + 1]] and len(begin) - 1 is the longest path's node count."""
    return _grundy.layering(_graph(graph, indices), threads)


def from_networkx(G, name="<networkx>"):
    """A NetworkX DiGraph as a grundy.Graph: returns (graph, nodes), nodes[i] being G's node with id i."""
    import numpy as np

    if not G.is_directed():
        raise TypeError("a game is a directed graph: pass a networkx.DiGraph (or G.to_directed())")
    nodes = list(G.nodes())
    index = {v: i for i, v in enumerate(nodes)}
    indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
    indices = np.empty(G.number_of_edges(), dtype=np.int32)
    at = 0
    for i, v in enumerate(nodes):
        for w in G.successors(v):
            indices[at] = index[w]
            at += 1
        indptr[i + 1] = at
    return Graph(indptr, indices[:at], name), nodes
