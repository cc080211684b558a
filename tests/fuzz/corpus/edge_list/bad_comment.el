# nodes: x
0 1
