// A long stream with every 7th instance damaged in one of many ways, solved
// by `grundy batch` and checked by name against a solver of its own: no
// instance may get a verdict that is not its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.hpp"
#include "sanitized.hpp"

namespace grundy {
namespace {

using test_support::run_grundy;
using test_support::TempDir;

struct Instance {
  int n = 0;
  std::vector<std::pair<int, int>> edges;  // 1-based, u -> v
  std::vector<int> tokens;
};

// SG values by plain recursion: small graphs, an oracle independent of the engine.
int sg_of(const Instance& g, int u, std::vector<int>& memo) {
  if (memo[u] >= 0) return memo[u];
  std::vector<bool> seen(g.edges.size() + 2, false);
  for (const auto& [a, b] : g.edges)
    if (a == u) {
      const int v = sg_of(g, b, memo);
      if (v < static_cast<int>(seen.size())) seen[v] = true;
    }
  int mex = 0;
  while (seen[mex]) ++mex;
  return memo[u] = mex;
}

std::string verdict(const Instance& g) {
  std::vector<int> memo(g.n + 1, -1);
  int x = 0;
  for (int t : g.tokens) x ^= sg_of(g, t, memo);
  return x != 0 ? "win" : "lose";
}

Instance random_instance(std::mt19937& rng) {
  Instance g;
  g.n = 1 + static_cast<int>(rng() % 12);
  std::vector<int> order(g.n);
  for (int i = 0; i < g.n; ++i) order[i] = i + 1;
  std::shuffle(order.begin(), order.end(), rng);
  const int m = g.n > 1 ? static_cast<int>(rng() % 16) : 0;
  for (int e = 0; e < m; ++e) {
    int a = static_cast<int>(rng() % g.n), b = static_cast<int>(rng() % g.n);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    g.edges.push_back({order[a], order[b]});
  }
  const int k = 1 + static_cast<int>(rng() % 5);
  for (int t = 0; t < k; ++t) g.tokens.push_back(1 + static_cast<int>(rng() % g.n));
  return g;
}

// The instance's lines: header, one edge a line, the tokens on one line.
std::vector<std::string> lines_of(const Instance& g) {
  std::vector<std::string> lines;
  lines.push_back(std::to_string(g.n) + " " + std::to_string(g.edges.size()) + " " + std::to_string(g.tokens.size()));
  for (const auto& [a, b] : g.edges) lines.push_back(std::to_string(a) + " " + std::to_string(b));
  std::string t;
  for (int x : g.tokens) {
    if (!t.empty()) t += ' ';
    t += std::to_string(x);
  }
  lines.push_back(t);
  return lines;
}

std::string join(const std::vector<std::string>& lines, const char* eol = "\n") {
  std::string s;
  for (const auto& l : lines) s += l + eol;
  return s;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

std::string unwords(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) {
    if (!s.empty()) s += ' ';
    s += x;
  }
  return s;
}

// Damages instance text in way `kind`; `still_valid` says whether the
// result is still a valid instance with the same verdict.
std::string damage(const Instance& g, unsigned kind, std::mt19937& rng, bool& still_valid) {
  std::vector<std::string> l = lines_of(g);
  still_valid = false;
  const auto pick = [&](std::size_t lo, std::size_t hi) { return lo + rng() % (hi - lo); };  // [lo, hi)
  switch (kind % 18) {
    case 0: {  // the last token dropped
      auto w = words(l.back());
      w.pop_back();
      l.back() = unwords(w);
      break;
    }
    case 1: {  // any one number dropped
      const std::size_t i = pick(0, l.size());
      auto w = words(l[i]);
      w.erase(w.begin() + static_cast<std::ptrdiff_t>(pick(0, w.size())));
      l[i] = unwords(w);
      break;
    }
    case 2: l.back() += " 1"; break;  // an extra number at the end
    case 3: l.push_back("1"); break;  // an extra number on a line of its own
    case 4: l.back() = std::to_string(g.n + 1 + static_cast<int>(rng() % 5)); break;  // bad id (and K off)
    case 5: {                                                                         // a bad id in place
      auto w = words(l.back());
      w[pick(0, w.size())] = std::to_string(g.n + 1);
      l.back() = unwords(w);
      break;
    }
    case 6:  // a cycle (a self-loop on a one-node graph)
      l.insert(l.begin() + 1,
               g.edges.empty() ? "1 1" : std::to_string(g.edges[0].second) + " " + std::to_string(g.edges[0].first));
      l[0] = std::to_string(g.n) + " " + std::to_string(g.edges.size() + 1) + " " + std::to_string(g.tokens.size());
      break;
    case 7: {  // a word that is no number
      auto w = words(l.back());
      w[pick(0, w.size())] = "x7";
      l.back() = unwords(w);
      break;
    }
    case 8:  // an edge line lost
      if (g.edges.empty()) {
        l[0] += " 9";
      } else {
        l.erase(l.begin() + static_cast<std::ptrdiff_t>(pick(1, 1 + g.edges.size())));
      }
      break;
    case 9: l.insert(l.begin() + 1, "1 2"); break;  // an extra edge line (M not updated)
    case 10:
      l[0] = std::to_string(g.n) + " " + std::to_string(g.edges.size() + 1) + " " + std::to_string(g.tokens.size());
      break;
    case 11:
      l[0] = std::to_string(g.n) + " " + std::to_string(g.edges.size()) + " " + std::to_string(g.tokens.size() + 1);
      break;
    case 12:  // K one too few
      l[0] = std::to_string(g.n) + " " + std::to_string(g.edges.size()) + " " + std::to_string(g.tokens.size() - 1);
      break;
    case 13: l[0] = std::to_string(g.n) + " " + std::to_string(g.edges.size()); break;              // K missing
    case 14: l.insert(l.begin() + static_cast<std::ptrdiff_t>(pick(1, l.size())), "hello"); break;  // a stray line
    case 15: l[0] += " 4"; break;  // a header of four numbers
    case 16: {                     // two lines joined: still valid (any whitespace separates)
      const std::size_t i = pick(1, l.size());
      if (i + 1 < l.size()) {
        l[i] += " " + l[i + 1];
        l.erase(l.begin() + static_cast<std::ptrdiff_t>(i + 1));
      }
      still_valid = true;
      break;
    }
    case 17:  // CRLF line ends: still valid
      still_valid = true;
      return join(l, "\r\n");
  }
  return join(l);
}

TEST(StreamRecovery, NoVerdictIsEverFiledUnderAnotherInstancesName) {
  // GRUNDY_STREAM_SEED, _INSTANCES, _PHASE and _FIRST_KIND try other streams
  // by hand.
  const char* seed = std::getenv("GRUNDY_STREAM_SEED");
  const char* count = std::getenv("GRUNDY_STREAM_INSTANCES");
  const int kInstances = count ? std::atoi(count) : 20000;
  const char* phase_env = std::getenv("GRUNDY_STREAM_PHASE");  // which of every 7 is damaged (0: the 7th)
  const int phase = phase_env ? std::atoi(phase_env) % 7 : 0;
  std::mt19937 rng(seed ? static_cast<unsigned>(std::atoi(seed)) : 12345u);
  std::string text;
  std::map<int, std::string> truth;  // index -> verdict, for the instances that are valid as written
  const char* kind_env = std::getenv("GRUNDY_STREAM_FIRST_KIND");  // the first damage's kind
  unsigned kind = kind_env ? static_cast<unsigned>(std::atoi(kind_env)) : 0;
  std::string starts;  // "index line kind" rows, for a look at a failure
  std::size_t lines = 0, counted = 0;  // the text's lines, counted up to `counted`
  for (int i = 1; i <= kInstances; ++i) {
    const Instance g = random_instance(rng);
    lines += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted), text.end(), '\n'));
    counted = text.size();
    starts += std::to_string(i) + " " + std::to_string(1 + lines) + " " +
              (i % 7 == phase ? std::to_string(kind % 18) : "-") + "\n";
    if (i % 7 == phase) {
      bool still_valid = false;
      text += damage(g, kind++, rng, still_valid);
      if (still_valid) truth[i] = verdict(g);
    } else {
      text += join(lines_of(g));
      truth[i] = verdict(g);
    }
  }
  TempDir dir;
  const std::string path = dir.write("stream.txt", text);
  if (const char* keep = std::getenv("GRUNDY_KEEP_STREAM")) {
    dir.write(std::string("../") + keep, text);
    dir.write(std::string("../") + keep + ".starts", starts);
  }
  const auto r = run_grundy({"batch", "-q", "--threads", "2", path});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // damaged instances are errors
  std::istringstream out(r.out);
  std::size_t right = 0, wrong = 0, named_by_index = 0;
  std::vector<std::string> wrong_lines;
  for (std::string line; std::getline(out, line);) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string name = line.substr(0, tab);
    const std::string result = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    ASSERT_EQ(name.rfind(path, 0), 0u) << line;
    if (name.size() <= path.size() || name[path.size()] != '#') continue;  // named by its line
    ++named_by_index;
    const int index = std::stoi(name.substr(path.size() + 1));
    if (result != "win" && result != "lose") continue;
    const auto it = truth.find(index);
    if (it != truth.end() && it->second == result) {
      ++right;
    } else {
      ++wrong;
      if (wrong_lines.size() < 10) wrong_lines.push_back(line);
    }
  }
  EXPECT_EQ(wrong, 0u) << ::testing::PrintToString(wrong_lines);
  // Recovery: nearly every valid instance keeps its verdict under its own name.
  EXPECT_GE(right, truth.size() * 97 / 100) << right << " of " << truth.size() << " valid instances";
  std::printf("stream recovery: %zu of %zu valid instances solved under their own name, %zu named by index\n", right,
              truth.size(), named_by_index);

  // Through a pipe, read a window at a time (windows far smaller than the
  // stream, some smaller than an instance): every line is the file's, the
  // name aside. A window must never change where an instance is placed.
  std::string expected;  // the file's lines, its name (in errors too) as a stream's
  for (std::string line : test_support::lines(r.out)) {
    for (std::size_t at; (at = line.find(path)) != std::string::npos;) line.replace(at, path.size(), "<stdin>");
    expected += line + "\n";
  }
  for (const char* window : {"200", "999", "4099", "65536"}) {
    const auto piped =
        test_support::run_shell("cat '" + path + "' | \"$GRUNDY\" batch - -q --threads 2 --stream-window " + window);
    EXPECT_EQ(piped.exit_code, 1) << piped.err;
    EXPECT_TRUE(piped.out == expected) << "window " << window << ": the piped stream's lines differ from the file's";
  }
}

TEST(StreamRecovery, APipeIsReadAWindowAtATimeInBoundedMemory) {
  // 200,000 instances (about 60 MB) through a pipe with 1 MB windows: every
  // verdict matches the same stream read from a file, and the peak RSS the
  // summary reports stays far below the stream's size. Under a sanitizer,
  // whose allocator keeps freed memory (the peak says nothing there), 20,000
  // instances: still six windows, in a tenth of the time.
  const std::size_t instances = test_support::kSanitized ? 20000 : 200000;
  TempDir dir;
  ASSERT_EQ(run_grundy({"gen", "-q", "-n", "30", "-m", "60", "--instances", std::to_string(instances), dir.file("s.txt")})
                .exit_code,
            0);
  const std::size_t stream_bytes = std::filesystem::file_size(dir.file("s.txt"));
  const auto file = run_grundy({"batch", "-q", dir.file("s.txt")});
  ASSERT_EQ(file.exit_code, 0) << file.err;
  const auto piped = test_support::run_shell("cat '" + dir.file("s.txt") +
                                             "' | \"$GRUNDY\" batch - --threads 2 --stream-window 1000000 > '" +
                                             dir.file("out.txt") + "'");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  const auto from_file = test_support::lines(file.out);
  const auto from_pipe = test_support::lines(test_support::read_file(dir.file("out.txt")));
  ASSERT_EQ(from_file.size(), instances);
  ASSERT_EQ(from_pipe.size(), from_file.size());
  for (std::size_t i = 0; i < from_file.size(); ++i)
    ASSERT_EQ(from_pipe[i].substr(from_pipe[i].find('\t')), from_file[i].substr(from_file[i].find('\t'))) << i;
  if (test_support::kSanitized) GTEST_SKIP() << "a sanitizer's allocator keeps freed memory: peaks say nothing there";
  const auto at = piped.err.find(" MiB peak");
  ASSERT_NE(at, std::string::npos) << piped.err;
  const std::size_t from = piped.err.rfind(' ', at - 1) + 1;
  const std::size_t peak_mib = std::stoul(piped.err.substr(from, at - from));
  EXPECT_LT(peak_mib << 20, stream_bytes / 2) << piped.err << "stream: " << stream_bytes << " bytes";
}

}  // namespace
}  // namespace grundy
