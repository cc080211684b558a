// A pipe that pauses (WindowedFramer with an idle test): the instances
// that arrived before a pause are settled at once, and a stream of whole
// instances is placed exactly as framing the whole text places it, wherever
// the pauses fall (inside a number, a line, between instances).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "grundy/formats/instance_stream.hpp"

namespace grundy {
namespace {

using Placed = std::tuple<std::string, std::uint64_t, std::uint64_t>;  // text, index, line

std::vector<Placed> whole_framing(const std::string& text) {
  std::vector<Placed> out;
  StreamFramer framer(text);
  while (const auto f = framer.next())
    out.emplace_back(text.substr(f->span.begin, f->span.end - f->span.begin), f->index, f->line);
  return out;
}

// The stream fed in pieces ending at `cuts`, the reader idle after each
// piece; `on_window` sees how many instances each window settled and how
// many bytes had been fed by then.
std::vector<Placed> paused_framing(const std::string& text, const std::vector<std::size_t>& cuts,
                                   const std::function<void(std::size_t settled, std::size_t fed)>& on_window = {}) {
  std::size_t fed = 0, cut = 0;
  WindowedFramer windows(
      [&](char* into, std::size_t room) {
        const std::size_t end = cut < cuts.size() ? cuts[cut] : text.size();
        const std::size_t n = std::min(room, end - fed);
        std::memcpy(into, text.data() + fed, n);
        fed += n;
        if (fed == end && cut < cuts.size()) ++cut;
        return n;
      },
      "test", 1 << 16, [&] { return cut > 0 && fed == cuts[cut - 1] && fed < text.size(); });
  std::vector<Placed> out;
  std::vector<FramedInstance> placed;
  std::shared_ptr<const std::string> window;
  while (windows.next(placed, window)) {
    for (const FramedInstance& f : placed)
      out.emplace_back(window->substr(f.span.begin, f.span.end - f.span.begin), f.index, f.line);
    if (on_window) on_window(placed.size(), fed);
  }
  return out;
}

std::string instances(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned n = 2 + rng() % 30, m = rng() % 40, k = 1 + rng() % 4;
    text += std::to_string(n) + " " + std::to_string(m) + " " + std::to_string(k) + "\n";
    for (unsigned e = 0; e < m; ++e) {
      const unsigned u = 1 + rng() % (n - 1);
      text += std::to_string(u) + " " + std::to_string(u + 1 + rng() % (n - u)) + "\n";
    }
    for (unsigned t = 0; t < k; ++t) text += std::to_string(1 + rng() % n) + (t + 1 < k ? " " : "\n");
    if (rng() % 5 == 0) text += "\n";
  }
  return text;
}

TEST(StreamPause, InstancesBeforeAPauseAreSettledAtOnce) {
  const std::string a = "2 1 1\n1 2\n1\n3 2 1\n1 2\n2 3\n1\n", b = "1 0 1\n1\n";
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  const auto placed =
      paused_framing(a + b, {a.size()}, [&](std::size_t settled, std::size_t fed) { windows.emplace_back(settled, fed); });
  ASSERT_EQ(placed, whole_framing(a + b));
  ASSERT_GE(windows.size(), 2u);
  EXPECT_EQ(windows[0], std::make_pair(std::size_t{2}, a.size())) << "a's two instances, before b was read";
  EXPECT_EQ(std::get<1>(placed[2]), 3u) << "b counts on from a";
  EXPECT_EQ(std::get<2>(placed[2]), 8u) << "and its lines too";
}

TEST(StreamPause, WholeInstancesArePlacedAsTheWholeTextPlacesThem) {
  std::mt19937 rng(11);
  for (unsigned round = 0; round < 200; ++round) {
    const std::string text = instances(1 + rng() % 12, round);
    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; (at += 1 + rng() % 40) < text.size();) cuts.push_back(at);
    ASSERT_EQ(paused_framing(text, cuts), whole_framing(text)) << "round " << round;
  }
}

TEST(StreamPause, ANumberCutByAPauseIsNotTakenAsWhole) {
  // "1 2\n1" then a pause, then "2\n": the token is 12, which names no node
  // of a 2-node graph; settling at the pause would have made it 1.
  const std::string text = "2 1 1\n1 2\n12\n";
  const auto placed = paused_framing(text, {text.size() - 2});
  ASSERT_EQ(placed, whole_framing(text));
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(std::get<0>(placed[0]), "2 1 1\n1 2\n12");
}

}  // namespace
}  // namespace grundy
