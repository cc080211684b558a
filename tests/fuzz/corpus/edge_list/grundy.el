# nodes: 10
# tokens: 0 3 9
0 1
1 2
2 3
