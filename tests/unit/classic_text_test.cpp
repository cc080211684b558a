#include <gtest/gtest.h>

#include <random>

#include "grundy/primitives/arena.hpp"
#include "grundy/formats/text_tokens.hpp"
#include "grundy/primitives/simd/byte_masks.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/gen/generator.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/io/output_file.hpp"
#include "run_process.hpp"

namespace grundy {
namespace {

bool same_game(const OwnedGame& a, const OwnedGame& b) {
  return a.n == b.n && a.offsets == b.offsets && a.targets == b.targets && a.tokens == b.tokens;
}

// The message of the InputError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text, unsigned threads = 1) {
  try {
    parse_classic(text, {"in", threads});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ClassicText, ParsesTheSample) {
  const OwnedGame g = parse_classic("6 8 4\n2 1\n2 4\n1 4\n1 5\n1 3\n4 5\n3 5\n3 6\n1 2 4 6\n");
  EXPECT_EQ(g.n, 6u);
  EXPECT_EQ(g.targets.size(), 8u);
  EXPECT_EQ(g.offsets, (Array<edge_t>{0, 3, 5, 7, 8, 8, 8}));
  EXPECT_EQ(g.targets, (UnzeroedArray<node_t>{3, 4, 2, 0, 3, 4, 5, 4}));  // rows keep input order
  EXPECT_EQ(g.tokens, (Array<node_t>{0, 1, 3, 5}));
}

TEST(ClassicText, AnyWhitespaceLayoutGivesTheSameGame) {
  const OwnedGame want = parse_classic("3 2 2\n1 2\n2 3\n1 3\n");
  for (const char* text : {"3 2 2 1 2 2 3 1 3", "3\t2\t2\r\n1\t2\r\n2 3\r\n1 3", "\n\n  3 2 2\n\n1\n2\n2\n3\n1\n3\n\n",
                           "3 2 2\n1 2\n2 3\n1    3   ", "\v3\f2 2\n1 2\n2 3\n1 3\n"}) {
    EXPECT_TRUE(same_game(parse_classic(text), want)) << text;
  }
}

TEST(ClassicText, EmptyGamesAreValid) {
  EXPECT_EQ(parse_classic("0 0 0").n, 0u);
  EXPECT_EQ(parse_classic("5 0 0\n").tokens.size(), 0u);
  EXPECT_EQ(parse_classic("2 0 3\n1 1 2").tokens, (Array<node_t>{0, 0, 1}));
  EXPECT_EQ(parse_classic("007 0 1 007").n, 7u);  // leading zeros are decimal
}

TEST(ClassicText, NamesTheLineAndValueOfEveryError) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"", "in:1: empty input: expected the header \"N M K\""},
      {" \n\t\n", "in:1: empty input: expected the header \"N M K\""},
      {"3 2", "in:1: input ends before K (the token count)"},
      {"3\nx 1", "in:2: expected a non-negative decimal integer for M (the edge count), found \"x\""},
      {"-3 0 0", "in:1: negative number \"-3\" for N (the node count)"},
      {"5000000000 0 0", "in:1: N = 5000000000 is too large (at most 4294967294 nodes)"},
      {"3 99999999999999999999 0", "in:1: M (the edge count) \"99999999999999999999\" is too large"},
      {"0 0 2\n", "in:1: K = 2 tokens, but the graph has no nodes (N = 0)"},
      {"3 1 0\n0 1\n", "in:2: the source of edge 1: node id \"0\" is out of range 1..3"},
      {"3 2 0\n1 2\n2 4\n", "in:3: the target of edge 2: node id \"4\" is out of range 1..3"},
      {"3 1 1\n1 2\n9", "in:3: token 1: node id \"9\" is out of range 1..3"},
      {"3 1 1\n1 2\n99999999999999999999999",
       "in:3: token 1: node id \"99999999999999999999999\" is out of range 1..3"},
      {"3 1 1\n1 abc\n1", "in:2: expected a non-negative decimal integer for the target of edge 1, found \"abc\""},
      {"3 1 1\n1 1.5\n1", "in:2: expected a non-negative decimal integer for the target of edge 1, found \"1.5\""},
      {"3 1 1\n1 0x10\n1", "in:2: expected a non-negative decimal integer for the target of edge 1, found \"0x10\""},
      {"3 1 1\n1 +2\n1", "in:2: expected a non-negative decimal integer for the target of edge 1, found \"+2\""},
      {"3 1 1\n-1 2\n1", "in:2: negative number \"-1\" for the source of edge 1"},
      {"3 1 1\n1 2\n2\x01", "in:3: expected a non-negative decimal integer for token 1, found \"2\\x01\""},
      {"3 3 1\n1 2\n2 3\n", "in:3: input ends after 2 of 3 edges"},
      {"3 2 2\n1 2\n2 3\n1\n\n", "in:4: input ends after 1 of 2 tokens"},
      {"3 1000000000000 1\n1 2\n", "in:2: input ends after 1 of 1000000000000 edges"},
      {"3 1 1\n1 2\n3\n3\n", "in:4: unexpected \"3\" after the last of 1 tokens"},
      {"3 1 0\n1 2\n3\n", "in:3: unexpected \"3\" after the last of 1 edges (K = 0)"},
      {"3 0 0 junk", "in:1: unexpected \"junk\" after the header (M = 0, K = 0)"},
      {"3 2 0\n1 2\n2 2\n", "in:3: edge 2 is a self-loop: cycle: 2 -> 2 (a game with cycles: use --loopy)"},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.text), c.message) << c.text;
}

TEST(ClassicText, HugeHeaderCountsAllocateNothing) {
  // A billion promised edges in a 20-byte file fail as a short input; the
  // array is sized by the bytes present, so this cannot take gigabytes.
  EXPECT_EQ(error_of("4 1000000000 1000000000 1 2"), "in:1: input ends after 1 of 1000000000 edges");
  EXPECT_EQ(error_of("4 18446744073709551615 18446744073709551615 1 2"),
            "in:1: input ends after 1 of 18446744073709551615 edges");
}

TEST(ClassicText, NodeCountBeyondMemoryIsRefused) {
  const std::string e = error_of("4294967294 0 0");
  EXPECT_NE(e.find("of memory this process may use"), std::string::npos) << e;
}

// The parser and the stream framer cut text through one tokenizer: its
// block paths count and skip the tokens Python's bytes.split() finds, and a
// control byte (\x01, \x1f, NUL) belongs to a token, as it does for the parser.
TEST(TextTokens, CountAndSkipAgreeWithASplitOnTheFormatsWhitespace) {
  std::mt19937_64 rng(5);
  const auto reference = [](std::string_view t) {
    std::vector<std::size_t> ends;  // where each token ends
    for (std::size_t i = 0; i < t.size(); ++i)
      if (std::string_view(" \t\n\v\f\r").find(t[i]) == std::string_view::npos &&
          (i + 1 == t.size() || std::string_view(" \t\n\v\f\r").find(t[i + 1]) != std::string_view::npos))
        ends.push_back(i + 1);
    return ends;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    std::string t = "7";  // skip_tokens starts right after a token
    for (std::size_t i = 0, n = 1 + rng() % 300; i < n; ++i) t += "0123456789 \t\n\v\f\r\x01\x1f\x7f-"[rng() % 18];
    if (rng() % 3 == 0) t[1 + rng() % (t.size() - 1)] = '\0';
    const std::vector<std::size_t> ends = reference(t);
    ASSERT_EQ(text_tokens::count_tokens(t, 0, t.size()), ends.size()) << trial;
    const std::size_t need = rng() % (ends.size() + 2);
    const char* p = t.data() + 1;
    const std::uint64_t missing = text_tokens::skip_tokens(p, t.data() + t.size(), need);
    const std::size_t found = std::min(need, ends.size() - 1);  // the leading "7..." is not skipped
    ASSERT_EQ(missing, need - found) << trial;
    if (found == need && need > 0) {  // else p is left at the end
      ASSERT_EQ(static_cast<std::size_t>(p - t.data()), ends[found]) << trial;
    }
  }
}

// Inputs above the parallel threshold are cut into chunks: the result and the
// first error must not depend on how many threads parse them.
TEST(ByteMasks, SimdAndPortableClassesAgree) {
  std::mt19937_64 rng(3);
  std::string bytes(64, '\0');
  for (int trial = 0; trial < 2000; ++trial) {
    // Mostly the bytes that matter (digits, whitespace, their neighbours), some of any value.
    for (char& c : bytes) c = static_cast<char>(rng() % 4 ? "0123456789 \t\n\v\f\r/:\x08\x0e\x1f!"[rng() % 22] : rng());
    const bytes::Masks simd = bytes::classify(bytes.data()), portable = bytes::classify_portable(bytes.data());
    ASSERT_EQ(simd.digit, portable.digit) << trial;
    ASSERT_EQ(simd.space, portable.space) << trial;
    ASSERT_EQ(bytes::classify_space(bytes.data()), bytes::classify_space_portable(bytes.data())) << trial;
    ASSERT_EQ(bytes::line_breaks(bytes.data()), bytes::line_breaks_portable(bytes.data())) << trial;
    // Zero bytes (layering's ready scan): 1 in 4 bytes zeroed.
    std::uint8_t counters[64];
    for (std::uint8_t& c : counters) c = rng() % 4 ? static_cast<std::uint8_t>(rng()) : 0;
    ASSERT_EQ(bytes::zero_bytes(counters), bytes::zero_bytes_portable(counters)) << trial;
    // Zero words (the wide counters' scan), values near zero and past 2^31.
    std::uint32_t words[64];
    for (std::uint32_t& w : words) w = rng() % 4 ? static_cast<std::uint32_t>(rng() >> (rng() % 64)) : 0;
    ASSERT_EQ(bytes::zero_words(words), bytes::zero_words_portable(words)) << trial;
    const std::uint64_t x = rng();
    ASSERT_EQ(bytes::popcount(x), static_cast<unsigned>(std::popcount(x)));
    // Runs of nine, against the eight shifts: random masks, and runs that
    // cross the block's end.
    const auto nine_by_shifts = [](std::uint64_t mask, std::uint64_t next) {
      std::uint64_t r = mask;
      for (unsigned k = 1; k < 9; ++k) r &= (mask >> k) | (next << (64 - k));
      return r;
    };
    const std::uint64_t mask = rng() | rng() | rng(), next = rng() | rng();
    ASSERT_EQ(bytes::runs_of_nine(mask, next), nine_by_shifts(mask, next)) << trial;
    const std::uint64_t high = ~std::uint64_t{0} << (trial % 64), low = ~std::uint64_t{0} >> (trial % 64);
    ASSERT_EQ(bytes::runs_of_nine(high, low), nine_by_shifts(high, low)) << trial;
  }
}

// The 64-byte block path hands over to the byte loop wherever a block holds
// something it does not take (a long number, a bad byte, an id out of
// range): numbers written with random leading zeros (up to 12 digits) and
// random runs of whitespace put those cases at every offset of a block.
TEST(ClassicText, BlockPathAgreesWithTheRules) {
  std::mt19937_64 rng(11);
  const char* const kSpaces = " \t\n\r";
  for (int trial = 0; trial < 300; ++trial) {
    const node_t n = 60;
    const std::size_t m = 100 + rng() % 200, k = 1 + rng() % 5;
    std::vector<std::uint64_t> numbers;
    for (std::size_t e = 0; e < m; ++e) {
      const auto u = 1 + rng() % (n - 1);
      numbers.push_back(u);
      numbers.push_back(u + 1 + rng() % (n - u));
    }
    for (std::size_t t = 0; t < k; ++t) numbers.push_back(1 + rng() % n);
    const bool long_ids = trial % 3 == 0;  // leading zeros past 10 digits (allowed), and one id of 11 digits
    const std::size_t too_long = long_ids ? rng() % numbers.size() : SIZE_MAX;
    const bool bad_byte = trial % 5 == 1;
    std::string text = std::to_string(n) + " " + std::to_string(m) + " " + std::to_string(k) + "\n";
    std::size_t first_bad = SIZE_MAX;  // index of the first number that must be refused
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      std::string digits = i == too_long ? std::string("12345678901") : std::to_string(numbers[i]);
      digits.insert(0, rng() % (long_ids ? 11 : 9), '0');
      if (i == too_long && first_bad == SIZE_MAX) first_bad = i;
      starts.push_back(text.size());
      text += digits;
      text.append(1 + rng() % 3, kSpaces[rng() % 4]);
    }
    std::size_t bad_at = SIZE_MAX;
    if (bad_byte) {  // a letter inside or right after some number
      const std::size_t i = rng() % numbers.size();
      bad_at = starts[i] + rng() % (text.find_first_of(kSpaces, starts[i]) - starts[i] + 1);
      text[bad_at] = 'x';
      if (i < first_bad) first_bad = i;
    }
    const std::string error = error_of(text);
    if (first_bad == SIZE_MAX) {
      ASSERT_EQ(error, "") << trial;
      const OwnedGame g = parse_classic(text);
      std::vector<std::uint64_t> got;
      for (node_t u = 0; u < g.n; ++u)
        for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) got.push_back(g.targets[e]);
      std::vector<std::uint64_t> want;
      for (node_t u = 0; u < n; ++u)
        for (std::size_t e = 0; e < m; ++e)
          if (numbers[2 * e] == u + 1) want.push_back(numbers[2 * e + 1] - 1);
      ASSERT_EQ(got, want) << trial;
      ASSERT_EQ(g.tokens.size(), k);
      for (std::size_t t = 0; t < k; ++t) ASSERT_EQ(g.tokens[t] + 1, numbers[2 * m + t]) << trial;
      continue;
    }
    // The error names the first bad number, quoted whole.
    const std::size_t from = starts[first_bad];
    const std::string token = text.substr(from, text.find_first_of(kSpaces, from) - from);
    ASSERT_NE(error.find("\"" + token + "\""), std::string::npos) << trial << ": " << error;
    const std::string slot = first_bad < 2 * m ? (first_bad % 2 ? "the target" : "the source") +
                                                     std::string(" of edge ") + std::to_string(first_bad / 2 + 1)
                                               : "token " + std::to_string(first_bad - 2 * m + 1);
    ASSERT_NE(error.find(slot), std::string::npos) << trial << ": " << error;
  }
}

class ParallelParse : public ::testing::Test {
 protected:
  static std::string text() {
    static const std::string t = [] {
      const OwnedGame g = generate({Shape::uniform, 200000, 1500000, 1000, 5});
      test_support::TempDir dir;
      OutputFile f(dir.file("g.txt"));
      write_classic(g.view(), f);
      f.commit();
      return test_support::read_file(dir.file("g.txt"));
    }();
    return t;
  }
};

TEST_F(ParallelParse, SameGameForEveryThreadCount) {
  const std::string t = text();
  ASSERT_GT(t.size(), 8u << 20) << "must exceed the parallel threshold";
  const OwnedGame serial = parse_classic(t, {"in", 1});
  for (int threads : {2, 3, 4}) {
    in_arena(threads, [&] { EXPECT_TRUE(same_game(parse_classic(t, {"in", 4}), serial)); });
  }
}

TEST_F(ParallelParse, SameFirstErrorForEveryThreadCount) {
  std::string t = text();
  // Two errors far apart: the earlier one must win in every chunking.
  t[t.size() / 3 + (t[t.size() / 3] == '\n')] = 'x';
  t[t.size() * 2 / 3 + (t[t.size() * 2 / 3] == '\n')] = 'y';
  const std::string want = error_of(t, 1);
  ASSERT_NE(want.find("found \""), std::string::npos) << want;
  for (int threads : {2, 4}) {
    in_arena(threads, [&] { EXPECT_EQ(error_of(t, 4), want); });
  }
  std::string extra = text() + " 7";
  in_arena(4, [&] { EXPECT_NE(error_of(extra, 4).find("unexpected \"7\""), std::string::npos); });
  std::string shorter = text().substr(0, text().size() / 2);
  shorter.resize(shorter.rfind('\n'));
  in_arena(4, [&] { EXPECT_EQ(error_of(shorter, 4), error_of(shorter, 1)); });
}

}  // namespace
}  // namespace grundy

// line_breaks (every error's line, every framed instance's) against its
// definition byte by byte: an LF, or a CR that no LF follows.
TEST(ClassicText, LineBreaksCountLfAndLoneCr) {
  std::mt19937 rng(5);
  const char alphabet[] = {'\n', '\r', 'a', ' ', '1'};
  for (unsigned round = 0; round < 2000; ++round) {
    // Mostly short texts; some long ones (past 255 steps of 32 bytes, the
    // counters' span), some all LFs (every counter full).
    std::string text(round % 50 == 0 ? 8000 + rng() % 12000 : rng() % 300, ' ');
    for (char& c : text) c = round % 100 == 0 ? '\n' : alphabet[rng() % 5];
    const std::size_t from = text.empty() ? 0 : rng() % text.size(), to = from + rng() % (text.size() - from + 2);
    std::uint64_t want = 0;
    for (std::size_t i = from; i < std::min(to, text.size()); ++i)
      want += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
    ASSERT_EQ(grundy::line_breaks(text, from, to), want) << "round " << round;
  }
}
