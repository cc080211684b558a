#include "grundy/instance_stream.hpp"

#include <bit>
#include <cstdint>
#include <optional>

#include "grundy/byte_masks.hpp"

namespace grundy {
namespace {

// Any byte up to 0x20 separates tokens here (what SWAR tests cheaply). For a
// valid stream that is exactly the format's whitespace; other control bytes
// are errors that the parser of the instance then reports.
inline bool is_space(char c) { return static_cast<unsigned char>(c) <= 0x20; }

// Moves p past `need` more tokens (p starts right after a token or at a
// space), returning how many could not be found before e.
std::uint64_t skip_tokens(const char*& p, const char* e, std::uint64_t need) {
  bool prev_token = !is_space(p[-1]);  // the header's K precedes p: never the text's start
  // 64 bytes a step (an instance of 6,000 edges is some 800 blocks, a few
  // instructions each); the block holding the need-th token start says
  // where it is.
  while (need > 0 && e - p >= 64) {
    const std::uint64_t tokens = bytes::above_space(p);
    std::uint64_t starts = bytes::run_starts(tokens, prev_token);
    const auto c = static_cast<std::uint64_t>(bytes::popcount(starts));
    if (c < need) {
      need -= c;
      prev_token = (tokens >> 63) != 0;
      p += 64;
      continue;
    }
    for (std::uint64_t k = 1; k < need; ++k) starts &= starts - 1;  // the need-th start
    p += std::countr_zero(starts);
    while (p < e && !is_space(*p)) ++p;
    return 0;
  }
  if (need > 0 && !is_space(p[-1])) {
    while (p < e && !is_space(*p)) ++p;  // finish a token the blocks stopped inside
  }
  while (need > 0 && p < e) {
    while (p < e && is_space(*p)) ++p;
    if (p == e) break;
    while (p < e && !is_space(*p)) ++p;
    --need;
  }
  return need;
}

// Reads one token as a decimal number; false if it is not one or overflows.
bool read_number(std::string_view text, std::size_t& pos, std::uint64_t& value) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  if (pos == text.size()) return false;
  value = 0;
  bool digits = true;
  const std::size_t start = pos;
  for (; pos < text.size() && !is_space(text[pos]); ++pos) {
    const unsigned d = static_cast<unsigned char>(text[pos]) - '0';
    if (d > 9 || value > (UINT64_MAX - d) / 10) digits = false;
    value = value * 10 + d;
  }
  return digits && pos > start;
}

}  // namespace

std::optional<InstanceSpan> InstanceSplitter::next() {
  const std::string_view text = text_;
  std::size_t pos = pos_;
  while (pos < text.size() && is_space(text[pos])) ++pos;
  if (done_ || pos == text.size()) return std::nullopt;
  const std::size_t begin = pos;
  std::uint64_t n, m, k;
  if (!read_number(text, pos, n) || !read_number(text, pos, m) || !read_number(text, pos, k)) {
    done_ = true;  // a malformed header: no way to know where this one ends
    return InstanceSpan{begin, text.size()};
  }
  const std::uint64_t want = m > (UINT64_MAX - k) / 2 ? UINT64_MAX : 2 * m + k;
  const char* p = text.data() + pos;
  if (skip_tokens(p, text.data() + text.size(), want) > 0) done_ = true;  // cut short
  pos_ = static_cast<std::size_t>(p - text.data());
  return InstanceSpan{begin, pos_};
}

std::vector<InstanceSpan> split_instances(std::string_view text, std::size_t from) {
  std::vector<InstanceSpan> spans;
  InstanceSplitter splitter(text, from);
  while (const auto span = splitter.next()) spans.push_back(*span);
  return spans;
}

std::optional<std::size_t> resync(std::string_view text, std::size_t after,
                                  const std::function<bool(std::size_t)>& valid,
                                  std::size_t max_tries) {
  std::size_t line = text.find('\n', after);
  for (std::size_t tries = 0; line != std::string_view::npos && tries < max_tries;
       line = text.find('\n', line + 1)) {
    const std::size_t start = line + 1;
    const std::size_t stop = std::min(text.find('\n', start), text.size());
    // Exactly three numbers on the line, and nothing else.
    std::size_t pos = start, count = 0;
    std::uint64_t v;
    bool numbers = true;
    while (true) {
      while (pos < stop && is_space(text[pos])) ++pos;
      if (pos >= stop) break;
      std::size_t end = pos;
      while (end < stop && !is_space(text[end])) ++end;
      std::size_t p2 = pos;
      numbers = numbers && read_number(text.substr(0, end), p2, v);
      pos = end;
      ++count;
    }
    if (count != 3 || !numbers) continue;
    ++tries;
    if (valid(start)) return start;
  }
  return std::nullopt;
}

}  // namespace grundy
