// The yardstick for whole-process comparisons: a plain, correct C++ solution
// of the classic problem as a contest entrant would write it (std::cin,
// vector-of-vectors graph, Kahn's order, mex in reverse order). Not part of
// grundy: `grundy bench` and results/ time grundy against it.
#include <iostream>
#include <vector>

int main() {
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  int n, m, k;
  std::cin >> n >> m >> k;
  std::vector<std::vector<int>> succ(n + 1);
  std::vector<int> indeg(n + 1, 0);
  for (int i = 0; i < m; ++i) {
    int u, v;
    std::cin >> u >> v;
    succ[u].push_back(v);
    ++indeg[v];
  }
  std::vector<int> order;
  for (int u = 1; u <= n; ++u)
    if (indeg[u] == 0) order.push_back(u);
  for (std::size_t h = 0; h < order.size(); ++h)
    for (int v : succ[order[h]])
      if (--indeg[v] == 0) order.push_back(v);
  std::vector<int> sg(n + 1, 0), seen(n + 2, 0);
  for (std::size_t i = order.size(); i-- > 0;) {
    const int u = order[i];
    for (int v : succ[u]) seen[sg[v]] = u;
    int x = 0;
    while (seen[x] == u) ++x;
    sg[u] = x;
  }
  int total = 0;
  for (int i = 0; i < k; ++i) {
    int t;
    std::cin >> t;
    total ^= sg[t];
  }
  std::cout << (total ? "win" : "lose") << '\n';
}
