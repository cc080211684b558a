#include "grundy/formats/instance_stream.hpp"

#include <bit>
#include <cstdint>
#include <algorithm>
#include <array>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "grundy/core/input_error.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/formats/text_tokens.hpp"
#include "grundy/io/mapped_file.hpp"
#include "grundy/primitives/simd/byte_masks.hpp"

namespace grundy {
namespace {

using text_tokens::count_tokens;
using text_tokens::is_space;
using text_tokens::skip_tokens;

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

// --- Lines: the framer's view of a line-laid stream ---------------------------
// A line ends at LF or at a CR (CRLF then leaves a blank line, which is
// skipped like any other).

inline bool is_break(char c) { return c == '\n' || c == '\r'; }

// Set by every scan that reaches the end of the text. In a window of a
// longer stream (WindowedFramer) the end is only where reading stopped, and
// a placement that looked there may change with the bytes after it; the
// WindowedFramer keeps only placements made without reaching it.
thread_local bool t_reached_end = false;

std::size_t line_end(std::string_view text, std::size_t pos) {
  while (pos < text.size() && !is_break(text[pos])) ++pos;
  if (pos == text.size()) t_reached_end = true;
  return pos;
}

// The start of the first line at or after line start `pos` that holds a
// token, or text.size().
std::size_t content_line(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    const std::size_t e = line_end(text, pos);
    for (std::size_t i = pos; i < e; ++i)
      if (!is_space(text[i])) return pos;
    pos = e + 1;
  }
  t_reached_end = true;
  return text.size();
}

std::size_t next_line(std::string_view text, std::size_t pos) {
  return content_line(text, std::min(line_end(text, pos) + 1, text.size()));
}

// The tokens of one line: how many, and the first few as numbers.
struct LineTokens {
  static constexpr unsigned kKept = 6;
  std::uint64_t count = 0;
  bool numeric[kKept] = {};
  std::uint64_t value[kKept] = {};
  std::size_t end = 0;  // the line's end
  bool header() const { return count == 3 && numeric[0] && numeric[1] && numeric[2]; }
  // A header's three numbers could as well be node ids 1..n (tokens).
  bool ids_within(std::uint64_t n) const {
    return std::min({value[0], value[1], value[2]}) >= 1 && std::max({value[0], value[1], value[2]}) <= n;
  }
};

LineTokens read_line(std::string_view text, std::size_t pos) {
  LineTokens t;
  t.end = line_end(text, pos);
  const std::string_view line = text.substr(0, t.end);
  while (true) {
    while (pos < t.end && is_space(text[pos])) ++pos;
    if (pos >= t.end) break;
    std::size_t p = pos;
    std::uint64_t v = 0;
    const bool number = read_number(line, p, v);
    if (t.count < LineTokens::kKept) {
      t.numeric[t.count] = number;
      t.value[t.count] = v;
    }
    ++t.count;
    pos = p;
  }
  return t;
}

std::uint64_t body_count(std::uint64_t m, std::uint64_t k) { return m > (UINT64_MAX - k) / 2 ? UINT64_MAX : 2 * m + k; }

// The instance whose header's first token is at or after pos, by its counts
// alone; `whole` is false when its header is malformed or it runs out (its
// span then runs to the end of the text).
struct Counted {
  InstanceSpan span;
  bool whole = false;
};
std::optional<Counted> count_instance(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  if (pos == text.size()) {
    t_reached_end = true;
    return std::nullopt;
  }
  const std::size_t begin = pos;
  std::uint64_t n, m, k;
  const bool header = read_number(text, pos, n) && read_number(text, pos, m) && read_number(text, pos, k);
  if (pos == text.size()) t_reached_end = true;
  if (!header) return Counted{{begin, text.size()}, false};
  const char* p = text.data() + pos;
  const bool short_of_numbers = skip_tokens(p, text.data() + text.size(), body_count(m, k)) > 0;
  // Out of numbers, or the last one may go on past the end of the text.
  if (short_of_numbers || p == text.data() + text.size()) t_reached_end = true;
  if (short_of_numbers) return Counted{{begin, text.size()}, false};
  return Counted{{begin, static_cast<std::size_t>(p - text.data())}, true};
}

// Calls visit(start) for each line starting in [begin, end) (begin a line
// start, or a line break) that holds exactly three tokens, 64 bytes a step:
// the frames of a stream's instances are scanned this way for headers they
// swallowed, and edge lines (two tokens) are passed over without being
// read. With `need` (1 or more), it stops in the block (or at the byte) where
// the need-th token starts, and returns that token's start (end: fewer tokens):
// a frame's body is skipped and searched for such lines in one pass; lines
// ending later in that last block are visited too.
template <class Visit>
std::size_t for_lines_of_three(std::string_view text, std::size_t begin, std::size_t end, Visit&& visit,
                               std::uint64_t need = UINT64_MAX) {
  std::size_t line = begin;
  std::uint64_t count = 0;
  bool in_token = false;
  std::size_t i = begin;
  for (; i + 64 <= end; i += 64) {
    const std::uint64_t tokens = text_tokens::token_bytes(text.data() + i);
    const std::uint64_t starts = bytes::run_starts(tokens, in_token);
    in_token = (tokens >> 63) != 0;
    std::uint64_t breaks = bytes::line_breaks(text.data() + i);
    const unsigned block_tokens = bytes::popcount(starts);
    const bool last_block = block_tokens >= need;
    std::size_t found = end;
    if (last_block) {
      std::uint64_t s = starts;
      for (std::uint64_t k = 1; k < need; ++k) s &= s - 1;  // the need-th start
      found = i + static_cast<std::size_t>(std::countr_zero(s));
    } else {
      need -= block_tokens;
    }
    // Whether a line of exactly three tokens ends in this block, for the
    // whole block at once: the first token after each break, the second
    // after that, the third, and a break right after it. The `count` tokens
    // of the line running into the block enter as the chain's carry. Most
    // blocks (edge lines) have none, and only their counts move on.
    const std::uint64_t events = starts | breaks;
    const std::uint64_t first = bytes::next_events(breaks, events, count == 0) & starts;
    const std::uint64_t second = bytes::next_events(first, events, count == 1) & starts;
    const std::uint64_t third = bytes::next_events(second, events, count == 2) & starts;
    if ((bytes::next_events(third, events, count == 3) & breaks) == 0) {
      if (breaks == 0) {
        count += bytes::popcount(starts);
      } else {
        const auto last = static_cast<unsigned>(63 - std::countl_zero(breaks));
        line = i + last + 1;
        count = last == 63 ? 0 : bytes::popcount(starts >> (last + 1));
      }
      if (last_block) return found;
      continue;
    }
    std::uint64_t done = 0;  // the bits of lines already counted
    while (breaks != 0) {
      const auto b = static_cast<unsigned>(std::countr_zero(breaks));
      const std::uint64_t upto = b == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (b + 1)) - 1;
      count += bytes::popcount(starts & upto & ~done);
      if (count == 3) visit(line);
      line = i + b + 1;
      count = 0;
      done = upto;
      breaks &= breaks - 1;
    }
    count += bytes::popcount(starts & ~done);
    if (last_block) return found;
  }
  for (; i < end; ++i) {
    const char c = text[i];
    if (is_break(c)) {
      if (count == 3) visit(line);
      line = i + 1;
      count = 0;
      in_token = false;
    } else {
      const bool starts = !is_space(c) && !in_token;
      count += static_cast<std::uint64_t>(starts);
      in_token = !is_space(c);
      if (starts && --need == 0) return i;
    }
  }
  return end;
}

bool near(std::uint64_t a, std::uint64_t b) { return (a > b ? a - b : b - a) <= StreamFramer::kSlack; }

}  // namespace

StreamFramer::StreamFramer(std::string_view text) : text_(text) {
  pos_ = content_line(text_, 0);
  line_laid_ = pos_ < text_.size() && looks_line_laid();
}

bool StreamFramer::sees_layout(std::string_view text) {
  unsigned lines = 0;
  for (std::size_t x = content_line(text, 0); x < text.size(); x = next_line(text, x)) {
    if (line_end(text, x) >= text.size()) return false;  // the line may go on
    if (++lines > kLook) return true;
  }
  return false;
}

StreamFramer::StreamFramer(std::string_view text, const Resume& resume)
    : text_(text), index_(resume.index), line_(resume.line), line_laid_(resume.line_laid), resumed_(true) {
  pos_ = content_line(text_, 0);
}

// A header alone on the first line (four tokens: a one-line instance with
// no edges, still laid one instance a line), or, when the first instance is
// the damaged one, short lines nearly everywhere among the first ones: a
// free-form stream puts many numbers on each line.
bool StreamFramer::looks_line_laid() const {
  if (read_line(text_, pos_).count <= 4) return true;
  unsigned lines = 0, short_lines = 0;
  for (std::size_t x = next_line(text_, pos_); x < text_.size() && lines < kLook; x = next_line(text_, x)) {
    ++lines;
    short_lines += read_line(text_, x).count <= 4;
  }
  return lines >= 8 && short_lines * 8 >= lines * 7;
}

auto StreamFramer::frame(std::size_t line) const -> Frame {
  Frame f;
  const LineTokens h = read_line(text_, line);
  if (!h.header()) return f;
  f.header = true;
  f.n = h.value[0];
  f.m = h.value[1];
  f.promised = body_count(h.value[1], h.value[2]);
  f.body = h.end;
  // Each number needs a byte and a separator before it: no scan for a
  // promise the rest of the text cannot hold.
  if (f.promised > (text_.size() - h.end) / 2) {
    t_reached_end = true;
    return f;
  }
  // The body's numbers skipped, and its lines of three tokens noted on the
  // way; a header that promises none ends its instance.
  f.end = h.end;
  if (f.promised > 0) {
    const std::size_t last_start = for_lines_of_three(
        text_, h.end, text_.size(), [&](std::size_t x) { f.first_three = std::min(f.first_three, x); }, f.promised);
    if (last_start == text_.size()) {
      t_reached_end = true;
      return f;
    }
    f.end = text_tokens::token_end(text_, last_start);
  }
  const std::size_t e = line_end(text_, f.end);
  f.clean = count_tokens(text_, f.end, e) == 0;
  f.next = content_line(text_, std::min(e + 1, text_.size()));
  return f;
}

bool StreamFramer::frames_clean(std::size_t line) const { return frame(line).clean; }

// A frame that also swallows no header: one that ran on into the next
// instance is not clean.
auto StreamFramer::whole_frame(std::size_t line) const -> Frame {
  Frame f = frame(line);
  if (f.clean && swallows(line, f)) f.clean = false;
  return f;
}

// The body's numbers are node ids in range and no edge is a self-loop: what
// tells a real header from a token line that happens to frame.
bool StreamFramer::ids_fit(const Frame& f) const {
  std::size_t pos = f.body;
  const std::string_view body = text_.substr(0, f.end);
  std::uint64_t source = 0;
  for (std::uint64_t i = 0; i < f.promised; ++i) {
    std::uint64_t v = 0;
    if (!read_number(body, pos, v) || v == 0 || v > f.n) return false;
    if (i < 2 * f.m && i % 2 == 1 && v == source) return false;  // a self-loop
    source = v;
  }
  return true;
}

bool StreamFramer::is_anchor(std::size_t line) const {
  const Frame f = whole_frame(line);
  if (!f.clean || !ids_fit(f)) return false;
  return f.next == text_.size() || whole_frame(f.next).clean;
}

// The first line after the one at `after_line` from which the stream can go
// on for certain, or the text's size.
std::size_t StreamFramer::find_anchor(std::size_t after_line) {
  if (anchor_from_ == after_line) return anchor_;
  constexpr std::size_t kMaxCandidates = 10000;
  std::size_t found = text_.size();
  std::size_t tried = 0;
  for (std::size_t x = next_line(text_, after_line); x < text_.size() && tried < kMaxCandidates;
       x = next_line(text_, x)) {
    if (!read_line(text_, x).header()) continue;
    ++tried;
    if (is_anchor(x)) {
      found = x;
      break;
    }
  }
  anchor_from_ = after_line;
  anchor_ = found;
  return found;
}

// No line after the one at `after_line` and before `end` could be the
// header of an instance filling the rest of the region.
bool StreamFramer::no_hidden_header(std::size_t after_line, std::size_t end) const {
  struct Line {
    std::uint64_t tokens;
    std::uint64_t promised;  // UINT64_MAX: not a header
    bool edges;              // it promises edges
  };
  std::vector<Line> lines;
  for (std::size_t x = next_line(text_, after_line); x < end; x = next_line(text_, x)) {
    const LineTokens t = read_line(text_, x);
    lines.push_back(
        {t.count, t.header() ? body_count(t.value[1], t.value[2]) : UINT64_MAX, t.header() && t.value[1] > 0});
  }
  std::uint64_t after = 0;  // the tokens after line i, up to end
  for (std::size_t i = lines.size(); i-- > 0;) {
    // A header's body follows it, its edges a line each; a tokens' line of
    // three numbers is followed by nothing of the kind (one fault more
    // would be needed to hide an instance that way).
    const bool could_be = (after > 0 || lines[i].promised == 0) &&
                          (!lines[i].edges || (i + 1 < lines.size() && lines[i + 1].tokens == 2));
    if (lines[i].promised != UINT64_MAX && could_be && near(after, lines[i].promised)) return false;
    after += lines[i].tokens;
  }
  return true;
}

// Whether the `count` lines after the one at `line` (and before `end`) hold
// two tokens each, and then exactly one more line does (the tokens' line),
// or only lines of one token: the layout an instance's body has.
bool StreamFramer::body_shaped(std::size_t line, std::uint64_t count, std::size_t end) const {
  std::size_t x = next_line(text_, line);
  for (std::uint64_t i = 0; i < count; ++i, x = next_line(text_, x))
    if (x >= end || read_line(text_, x).count != 2) return false;
  if (x >= end) return false;
  const std::uint64_t first = read_line(text_, x).count;
  for (x = next_line(text_, x); x < end; x = next_line(text_, x))
    if (first != 1 || read_line(text_, x).count != 1) return false;
  return true;
}

// The line at `line` reads as a header with one number missing, one extra,
// one that is not a number, or the first edge run on, of an instance laid
// out as instances are (edges a line each) that fills the region up to `end`.
bool StreamFramer::damaged_header(std::size_t line, std::size_t end) const {
  const LineTokens t = read_line(text_, line);
  const std::uint64_t after = count_tokens(text_, t.end, end);
  // A whole instance on one line.
  if (after == 0 && t.count >= 3 && t.numeric[0] && t.numeric[1] && t.numeric[2])
    return t.count - 3 == body_count(t.value[1], t.value[2]);
  if (after == 0) return false;
  const auto& v = t.value;
  const auto& num = t.numeric;
  // An instance of m edges and k tokens fits the region (k unknown: any).
  const auto fits = [&](std::uint64_t m, std::optional<std::uint64_t> k) {
    if (m > after / 2) return false;
    if (k && after != body_count(m, *k)) return false;
    if (!k && after == 2 * m) return false;
    return body_shaped(line, m, end);
  };
  // M unknown: the body's edge lines say it.
  const auto fits_k = [&](std::uint64_t k) { return after >= k && (after - k) % 2 == 0 && fits((after - k) / 2, k); };
  if (t.count == 2 && num[0] && num[1]) return fits(v[1], std::nullopt) || fits(v[0], v[1]) || fits_k(v[1]);
  if (t.count == 3) {  // one of them is not a number
    if (num[1] && num[2]) return fits(v[1], v[2]);
    if (num[1]) return fits(v[1], std::nullopt);
    if (num[2]) return fits_k(v[2]);
    return false;
  }
  if (t.count == 4 && num[0] && num[1] && num[2] && num[3]) {
    for (unsigned drop = 0; drop < 4; ++drop) {
      std::uint64_t h[3];
      for (unsigned i = 0, j = 0; i < 4; ++i)
        if (i != drop) h[j++] = v[i];
      if (fits(h[1], h[2])) return true;
    }
    return false;
  }
  // The header and its first edge on one line.
  if (t.count == 5 && num[0] && num[1] && num[2] && v[1] > 0)
    return after + 2 == body_count(v[1], v[2]) && body_shaped(line, v[1] - 1, end);
  return false;
}

// Lines inside an instance's frame that frame cleanly as headers of their
// own: the instance's count ran on into the next instance. Its last line
// counts only when its numbers cannot be node ids of this instance (else it
// is as likely a tokens' line of three).
bool StreamFramer::swallows(std::size_t line, const Frame& f) const {
  const std::size_t body = next_line(text_, line);
  std::size_t last = f.end == 0 ? line : f.end - 1;  // a byte of the frame's last line
  while (last > body && !is_break(text_[last - 1])) --last;
  if (last <= line) return false;  // the body is on the header's line, or empty
  bool inside = false;
  if (f.first_three < last)  // a line of three in the body: is it a header that frames?
    for_lines_of_three(text_, body, last,
                       [&](std::size_t x) { inside = inside || (read_line(text_, x).header() && frames_clean(x)); });
  if (inside) return true;
  const LineTokens t = read_line(text_, last);
  return t.header() && !t.ids_within(f.n) && frames_clean(last);
}

FramedInstance StreamFramer::make(std::size_t begin, std::size_t end) {
  FramedInstance r;
  r.span = {begin, end};
  line_ += line_breaks(text_, line_pos_, begin);
  line_pos_ = begin;
  r.line = line_;
  r.index = index_;
  if (index_ != 0) ++index_;
  return r;
}

FramedInstance StreamFramer::make_damaged(std::size_t begin, std::size_t end) {
  FramedInstance r = make(begin, end);
  const LineTokens t = read_line(text_, begin);
  const bool whole_text = !resumed_ && begin == content_line(text_, 0) && end == text_.size();
  if (t.count < 3 && !whole_text)
    r.error = "the header \"" + std::string(text_.substr(begin, t.end - begin)) +
              "\" is not three numbers N M K on a line of its own";
  return r;
}

std::optional<FramedInstance> StreamFramer::next() {
  if (queued_) {
    std::optional<FramedInstance> r = std::move(queued_);
    queued_.reset();
    return r;
  }
  if (done_ || pos_ >= text_.size()) return std::nullopt;
  return line_laid_ ? next_line_laid() : next_free_form();
}

std::optional<FramedInstance> StreamFramer::next_free_form() {
  const std::optional<Counted> c = count_instance(text_, pos_);
  if (!c) return std::nullopt;
  done_ = !c->whole;
  pos_ = c->span.end;
  return make(c->span.begin, c->span.end);
}

// One header line at a time: the instance is placed when it and the next
// both end at line ends (see the header's comment for the rest).
std::optional<FramedInstance> StreamFramer::next_line_laid() {
  const std::size_t line = pos_;
  const Frame f = cached_line_ == line ? cached_ : whole_frame(line);
  if (!f.clean && stop_at_end_ && t_reached_end) return placed_at_end(line, text_.size());
  if (!f.clean) return bad_region(line, f, false);
  if (f.next == text_.size()) {
    done_ = true;
    return make(line, f.end);
  }
  const Frame g = whole_frame(f.next);
  cached_line_ = f.next;
  cached_ = g;
  if (g.clean) {
    pos_ = f.next;
    return make(line, f.end);
  }
  if (stop_at_end_ && t_reached_end) return placed_at_end(line, f.end);
  const std::size_t anchor = find_anchor(f.next);
  if (g.header) {
    // The next header frames badly. With numbers after it, it is a damaged
    // instance of its own. With none, it is a header cut short at its line,
    // or this instance's last line (its header promising too few): which
    // one is certain only when its numbers cannot be this instance's tokens.
    if (count_tokens(text_, g.body, anchor) == 0 && read_line(text_, f.next).ids_within(f.n))
      return bad_region(line, f, true);
    pos_ = f.next;
    return make(line, f.end);
  }
  // The next line is no header: a damaged one (this instance is whole), or
  // more numbers of this instance.
  if (!damaged_header(f.next, anchor) || !no_hidden_header(f.next, anchor)) return bad_region(line, f, false);
  FramedInstance first = make(line, f.end);
  queued_ = make_damaged(f.next, anchor);
  queued_->resumable = false;
  pos_ = anchor;
  if (anchor == text_.size()) done_ = true;
  return first;
}

// With stop_at_end: the instance at `begin`, whose placement looked at the
// window's end, and the window's last (it is placed again with the bytes
// after the window; searching on for anchors here would be wasted).
std::optional<FramedInstance> StreamFramer::placed_at_end(std::size_t begin, std::size_t end) {
  done_ = true;
  return make(begin, end);
}

// An instance whose end is not certain: it runs to the next anchor. The
// count of instances survives when nothing inside could be another header
// and its numbers do not run past its promise by more than kSlack.
std::optional<FramedInstance> StreamFramer::bad_region(std::size_t line, const Frame& f, bool ambiguous) {
  const std::size_t anchor = find_anchor(line);
  bool one = !ambiguous && no_hidden_header(line, anchor);
  if (f.header) {
    // Numbers past the promise on one line after the frame are this
    // instance's own (a header's count too small); more lines could hold
    // another instance.
    const bool own_line = f.clean && next_line(text_, f.next) >= anchor;
    one = one && (own_line || count_tokens(text_, f.body, anchor) <= f.promised + kSlack);
  }
  FramedInstance r = make_damaged(line, anchor);
  if (!one && anchor < text_.size()) {
    if (r.index != 0)
      r.note =
          "the instances after it cannot be counted for certain, so they are named by the line of "
          "their header";
    index_ = 0;
  }
  pos_ = anchor;
  if (anchor == text_.size()) done_ = true;
  return r;
}

std::vector<InstanceSpan> split_instances(std::string_view text, std::size_t from) {
  std::vector<InstanceSpan> spans;
  for (std::optional<Counted> c; (c = count_instance(text, from));) {
    spans.push_back(c->span);
    if (!c->whole) break;
    from = c->span.end;
  }
  return spans;
}

// Windows given back by their last reader, kept for the next ones: a page
// that this process has not written yet costs more to fault in than the
// bytes cost to copy (docs/TUNING.md#batch-windows), and a window per pause
// in a pipe would otherwise fault in its pages every time.
class WindowPool {
 public:
  explicit WindowPool(std::size_t largest) : largest_(largest) {}

  std::string take() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return {};
    std::string s = std::move(free_.back());
    free_.pop_back();
    return s;
  }

  // Keeps a few windows of ordinary size; a window grown for a giant
  // instance goes back to the allocator.
  void give(std::string&& s) {
    if (s.capacity() > largest_) return;
    s.clear();
    std::lock_guard lock(mutex_);
    if (free_.size() < kKept) free_.push_back(std::move(s));
  }

 private:
  static constexpr std::size_t kKept = 8;
  std::size_t largest_;
  std::mutex mutex_;
  std::vector<std::string> free_;
};

WindowedFramer::WindowedFramer(Reader read, std::string name, std::size_t window, Idle idle)
    : read_(std::move(read)),
      idle_(std::move(idle)),
      name_(std::move(name)),
      window_(window),
      staging_(std::min<std::size_t>(window, std::size_t{1} << 18)),
      pool_(std::make_shared<WindowPool>(4 * window)) {}

WindowedFramer::~WindowedFramer() = default;

// carry_ as a window shared with the instances' readers (it goes back to
// the pool after the last of them), and a recycled carry_ in its place.
std::shared_ptr<const std::string> WindowedFramer::share_carry() {
  auto* window = new std::string(std::move(carry_));
  carry_ = pool_->take();
  return std::shared_ptr<const std::string>(window, [pool = pool_](const std::string* w) {
    pool->give(std::move(*const_cast<std::string*>(w)));
    delete w;
  });
}

bool WindowedFramer::next(std::vector<FramedInstance>& out, std::shared_ptr<const std::string>& text) {
  out.clear();
  if (done_) return false;
  std::size_t target = window_;
  while (true) {
    read_until(target, true);
    // The layout is read once, from the first window, which must then hold
    // every line the framer reads to decide it (or all that came before a
    // pause).
    if (!resume_ && !eof_ && !paused_ && !StreamFramer::sees_layout(carry_)) {
      target = 2 * std::max(target, carry_.size());
      continue;
    }
    // Framed where it lies; it becomes the shared window only once it
    // settles something (a window that grows is not copied).
    std::optional<StreamFramer> framer;
    if (resume_)
      framer.emplace(carry_, *resume_);
    else
      framer.emplace(carry_);
    if (!eof_) framer->stop_at_end();
    // Placed for good: the instances before the first whose placement
    // reached the window's end (the second of a pair shares the first's).
    std::size_t settled = SIZE_MAX;
    t_reached_end = false;
    while (auto f = framer->next()) {
      if (t_reached_end && f->resumable && settled == SIZE_MAX) settled = out.size();
      out.push_back(std::move(*f));
      t_reached_end = false;
    }
    if (eof_) {
      text = share_carry();
      done_ = true;
      return true;
    }
    if (paused_ && settle_at_pause(*framer, out, text)) return true;
    // The next window starts at the first instance not settled (at the last
    // one when all were), placed on its own.
    std::size_t keep_from = out.empty() ? 0 : std::min(settled, out.size() - 1);
    while (keep_from > 0 && !out[keep_from].resumable) --keep_from;
    if (keep_from > 0) {
      const FramedInstance& first_kept = out[keep_from];
      resume_ = StreamFramer::Resume{framer->line_laid(), first_kept.index, first_kept.line};
      text = share_carry();
      carry_.assign(*text, first_kept.span.begin);
      consumed_ += first_kept.span.begin;
      line_ = first_kept.line;
      checked_ = carry_.size();
      out.resize(keep_from);
      return true;
    }
    // No instance settled: a larger window, framed again.
    out.clear();
    target = read_whole_instances();
  }
}

// How far to read when a window settled nothing: on until its first
// instances are whole by their counts (a large instance, cheaply counted,
// and the ones after it that its placement looks at), then one window more;
// where the first header is not one, a window kGrowth times larger.
std::size_t WindowedFramer::read_whole_instances() {
  constexpr std::size_t kGrowth = 8;
  constexpr int kWhole = 3;
  std::size_t pos = 0;
  for (int whole = 0; whole < kWhole && !eof_;) {
    const std::optional<Counted> c = count_instance(carry_, pos);
    if (c && c->whole && c->span.end < carry_.size()) {
      pos = c->span.end;
      ++whole;
      continue;
    }
    if (!c) {  // nothing but whitespace since pos: more bytes
      read_until(carry_.size() + window_);
      continue;
    }
    // Short of numbers, or no header at all?
    std::size_t p = c->span.begin;
    std::uint64_t n = 0, m = 0, k = 0;
    const bool header = read_number(carry_, p, n) && read_number(carry_, p, m) && read_number(carry_, p, k);
    if (!header) {
      if (whole == 0) return kGrowth * std::max(window_, carry_.size());
      break;
    }
    read_until(carry_.size() + std::max(window_, carry_.size()));
  }
  return carry_.size() + window_;
}

// At a pause, the window's instances are all settled when the last is
// whole by its counts and only whitespace follows it: the next window then
// starts empty, at the byte after this one, with the next index.
bool WindowedFramer::settle_at_pause(const StreamFramer& framer, std::vector<FramedInstance>& out,
                                     std::shared_ptr<const std::string>& text) {
  if (out.empty() || out.back().index == 0 || !out.back().error.empty() || carry_.back() == '\r') return false;
  const std::optional<Counted> last = count_instance(carry_, out.back().span.begin);
  // Whole, and its last number ended by a byte that arrived (not cut by the pause).
  if (!last || !last->whole || last->span.end == carry_.size()) return false;
  for (std::size_t i = last->span.end; i < carry_.size(); ++i)
    if (!is_space(carry_[i]) && !is_break(carry_[i])) return false;
  resume_ = StreamFramer::Resume{framer.line_laid(), out.back().index + 1,
                                 line_ + line_breaks(carry_, 0, carry_.size())};
  line_ = resume_->line;
  consumed_ += carry_.size();
  text = share_carry();
  checked_ = 0;
  return true;
}

void WindowedFramer::read_until(std::size_t target, bool may_pause) {
  std::size_t filled = carry_.size();
  paused_ = false;
  if (eof_ || filled >= target) return;
  if (target > memory_budget_bytes())
    throw InputError(name_ + ": one instance of this stream runs past the " +
                     std::to_string(memory_budget_bytes() >> 20) + " MiB of memory this process may use");
  // Through the staging buffer, so that carry_ grows only by what arrived
  // (no zeroed room ahead of the reads: a pipe fills a read or two between
  // pauses).
  const std::size_t start = filled;
  while (!eof_ && !paused_ && filled < target) {
    const std::size_t got = read_(staging_.data(), std::min(staging_.size(), target - filled));
    carry_.append(staging_.data(), got);
    filled += got;
    eof_ = got == 0;
    if (may_pause && !eof_ && filled > start && idle_ && idle_()) paused_ = true;
  }
  check_text(checked_);
}

// What a pipe's bytes may be: text. A .gcsr or compressed data is said by
// name; any other byte outside text fails on the block it arrives in.
void WindowedFramer::check_text(std::size_t from) {
  if (!text_only_) return;
  if (consumed_ == 0 && from < 4) {
    if (carry_.starts_with("GCSR"))
      throw InputError(name_ + ": a .gcsr through a pipe: give batch its path (a .gcsr is mapped, not streamed)");
    if (const std::string packed = compressed_input_error(carry_, name_); !packed.empty()) throw InputError(packed);
  }
  const std::size_t bad = from + first_non_text(std::string_view(carry_).substr(from));
  if (bad != carry_.size()) {
    const auto lines = line_ + static_cast<std::uint64_t>(std::count(carry_.begin(), carry_.begin() + bad, '\n'));
    throw InputError(non_text_error(name_, lines, static_cast<unsigned char>(carry_[bad]), consumed_ + bad));
  }
  checked_ = carry_.size();
}

}  // namespace grundy
