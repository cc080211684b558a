# Directed graph
# Nodes: 4 Edges: 3
# FromNodeId	ToNodeId
0	1
1	2
2	3
