#include "grundy/formats/classic_text.hpp"
#include "grundy/formats/csr_from_pairs.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/core/trace.hpp"
#include "grundy/formats/text_tokens.hpp"
#include "grundy/primitives/parallel.hpp"
#include "grundy/primitives/simd/byte_masks.hpp"
#include "grundy/primitives/simd/parse4.hpp"
#include "grundy/primitives/simd/swar.hpp"

namespace grundy {
namespace {

using text_tokens::count_tokens;
using text_tokens::is_digit;
using text_tokens::is_space;
using text_tokens::token_at;

// Inputs below this size are parsed on the calling thread: a parallel pass
// costs more to start than it saves, and a judge-sized file must not spin up
// a thread pool at all.
constexpr std::size_t kParallelMinBytes = 8u << 20;

bool looks_negative(std::string_view tok) {
  return tok.size() > 1 && tok[0] == '-' &&
         std::all_of(tok.begin() + 1, tok.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string not_a_number(std::string_view tok, const std::string& slot) {
  if (looks_negative(tok)) return "negative number " + quote_token(tok) + " for " + slot;
  return "expected a non-negative decimal integer for " + slot + ", found " + quote_token(tok);
}

// --- The header -------------------------------------------------------------

struct Header {
  std::uint64_t n = 0, m = 0, k = 0;
  std::size_t body = 0;  // offset of the first byte after K
};

Header parse_header(std::string_view text, std::string_view source, std::size_t start) {
  static constexpr const char* kField[] = {"N (the node count)", "M (the edge count)", "K (the token count)"};
  std::uint64_t value[3];
  std::size_t pos = start, last = start;
  for (int f = 0; f < 3; ++f) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos == text.size()) {
      if (f == 0) throw_at(source, text, start, "empty input: expected the header \"N M K\"");
      throw_at(source, text, last, std::string("input ends before ") + kField[f]);
    }
    const std::string_view tok = token_at(text, pos);
    std::uint64_t v = 0;
    for (char c : tok) {
      if (!is_digit(c)) throw_at(source, text, pos, not_a_number(tok, kField[f]));
      const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
      if (v > (UINT64_MAX - d) / 10)
        throw_at(source, text, pos, std::string(kField[f]) + " " + quote_token(tok) + " is too large");
      v = v * 10 + d;
    }
    value[f] = v;
    last = pos;
    pos += tok.size();
  }
  Header h{value[0], value[1], value[2], pos};
  if (h.n > kMaxNodes)
    throw_at(source, text, start,
             "N = " + std::to_string(h.n) + " is too large (at most " + std::to_string(kMaxNodes) + " nodes)");
  if (h.n == 0 && h.k > 0)
    throw_at(source, text, start, "K = " + std::to_string(h.k) + " tokens, but the graph has no nodes (N = 0)");
  return h;
}

// --- The body: 2M node ids of edges, then K token ids --------------------------

struct ChunkError {
  enum Kind { kNone, kNotNumber, kOutOfRange, kExtra } kind = kNone;
  std::size_t offset = SIZE_MAX;  // byte where the offending token starts
  std::uint64_t index = 0;        // its number among the body's numbers
};

struct ChunkResult {
  std::uint64_t count = 0;  // numbers read (stops at the first error)
  ChunkError error;
};

// What the numbers of a body are: ids base..base+limit-1, stored 0-based;
// `need` of them and no more (a number past it is an error).
struct IdRules {
  std::uint64_t need;
  std::uint64_t base;
  std::uint64_t limit;
};

// The number of `len` digits (1 to 10; more: too large for any id) at p,
// with at least 16 readable bytes from p.
inline std::uint64_t parse_id(const char* p, unsigned len) {
  if (len <= 4) {  // the ids of graphs up to 9,999 nodes: a judge's instances
    std::uint32_t chunk;
    std::memcpy(&chunk, p, 4);
    return swar::parse_digits4(chunk, len);
  }
  if (len <= 8) return swar::parse_digits(swar::load8(p), len);
  if (len > 10) return UINT64_MAX;
  const std::uint64_t high = swar::parse_digits(swar::load8(p), 8);  // 9 or 10 digits: N of 10^8 and more
  return high * (len == 9 ? 10 : 100) + swar::parse_digits(swar::load8(p + 8), len - 8);
}

// The fast path of parse_chunk, 64 bytes at a time: the block's digit mask
// says where every number starts and where it ends, so its numbers are
// parsed independently (several in flight) rather than each waiting for the
// previous one's end. It takes a block only when that block and the next
// hold nothing but digits and whitespace and no number past `need`;
// otherwise it stops and returns the token boundary from which the
// byte-at-a-time loop goes on (and reports the error), with `idx` at that
// point's count. An id out of range sends the byte loop back to `begin`.
// Needs end - begin >= 128 to start. Kept in one piece: it is the parser's
// hot loop, and its state (masks, count, carry) stays in registers from
// block to block.
std::size_t parse_blocks(const char* base, std::size_t begin, std::size_t end, const IdRules& rules, node_t* out,
                         std::uint64_t& idx_io) {
  if (end - begin < 128) return begin;
  const char* blk = base + begin;
  const char* const last_block = base + end - 128;  // its successor block ends by `end`
  const char* resume = blk;                         // a token boundary: all before it is parsed
  const std::uint64_t id_base = rules.base;
  std::uint64_t idx = idx_io;
  bool carry = false;  // a number runs from the previous block into this one (already parsed)
  std::uint64_t worst = 0;  // the largest value - base, wrapping below base
  simd::Worst4 simd_worst;  // the same for the four-at-once path, per lane
  bytes::Masks cur = bytes::classify(blk);
  for (; blk <= last_block; blk += 64) {
    const bytes::Masks next = bytes::classify(blk + 64);
    if ((~(cur.digit | cur.space) | ~(next.digit | next.space)) != 0) break;
    const std::uint64_t digits = cur.digit;
    std::uint64_t starts = bytes::run_starts(digits, carry);
    // A block holds at most 32 numbers (a digit and a separator each), so
    // only the last blocks before `need` count theirs.
    if (rules.need - idx < 32 && bytes::popcount(starts) > rules.need - idx) break;
    // The last digit of each number, less the one carried in from before;
    // a number running on into the next block has a start here and no last.
    std::uint64_t lasts = digits & ~((digits >> 1) | (next.digit << 63));
    if (carry) lasts &= lasts - 1;
    // No run of 9 digits starts in this block: every number ending here has
    // at most 8 (one carried in from before ends here but is not parsed here).
    bool short_ids = false;
    if constexpr (simd::kParse4) short_ids = bytes::runs_of_nine(digits, next.digit) == 0;
    const auto put = [&](std::uint64_t v) {
      worst = std::max(worst, v - id_base);
      out[idx++] = static_cast<node_t>(v - id_base);
    };
    // Four numbers at once while four more end in this block and none of
    // its numbers has 9 digits or more: their digits in one register.
    if (simd::kParse4 && short_ids) {
      for (unsigned fours = bytes::popcount(lasts) / 4; fours > 0; --fours) {
        std::uint64_t first[4], last[4];
        for (unsigned j = 0; j < 4; ++j) {
          first[j] = static_cast<std::uint64_t>(std::countr_zero(starts));
          last[j] = static_cast<std::uint64_t>(std::countr_zero(lasts));
          starts &= starts - 1;
          lasts &= lasts - 1;
        }
        simd::parse4(blk, first, last, id_base, out + idx, simd_worst);
        idx += 4;
      }
    }
    while (lasts != 0) {
      const auto first = static_cast<unsigned>(std::countr_zero(starts));
      const unsigned len = static_cast<unsigned>(std::countr_zero(lasts)) - first + 1;
      starts &= starts - 1;
      lasts &= lasts - 1;
      put(parse_id(blk + first, len));
    }
    // A number running on into the next block ends where that block's
    // first run of digits does (64 digits there: far too long for an id).
    const bool runs_on = starts != 0;
    const auto spill = static_cast<unsigned>(std::countr_zero(~next.digit));
    if (runs_on) {
      const auto first = static_cast<unsigned>(std::countr_zero(starts));
      put(parse_id(blk + first, 64 - first + spill));
    }
    resume = blk + 64 + (runs_on ? spill : 0);
    carry = runs_on;
    cur = next;
  }
  // An id out of range, found once at the end rather than block by block:
  // the byte loop parses the range again from its start, and stops at the
  // first such id to report it.
  if constexpr (simd::kParse4) worst = std::max<std::uint64_t>(worst, simd::max_lane(simd_worst));
  if (worst >= rules.limit) return begin;
  idx_io = idx;
  return static_cast<std::size_t>(resume - base);
}

// Parses the numbers of text[begin, end) (a range that starts and ends at a
// token boundary) into out[first, ...). Stops at the first error. After the
// block path, the byte loop only sees the last bytes (under 128) and what
// follows something the block path does not take, which is an error or the
// last few numbers before `need`.
ChunkResult parse_chunk(std::string_view text, std::size_t begin, std::size_t end, std::uint64_t first,
                        const IdRules& rules, node_t* out) {
  const std::uint64_t need = rules.need, id_base = rules.base, limit = rules.limit;
  const char* const base = text.data();
  std::uint64_t idx = first;
  const char* p = base + parse_blocks(base, begin, end, rules, out, idx);
  const char* const e = base + end;
  for (;;) {
    while (p < e && is_space(*p)) ++p;
    if (p == e) break;
    const char* const start = p;
    std::uint64_t v = 0;
    while (p < e && *p == '0') ++p;  // leading zeros say nothing (and count toward no limit)
    const char* const significant = p;
    while (p < e) {
      const unsigned d = static_cast<unsigned char>(*p) - '0';
      if (d > 9) break;
      v = v * 10 + d;
      ++p;
    }
    const auto offset = static_cast<std::size_t>(start - base);
    if (idx >= need) return {idx - first, {ChunkError::kExtra, offset, idx}};
    if (p == start || (p < e && !is_space(*p))) return {idx - first, {ChunkError::kNotNumber, offset, idx}};
    if (p - significant > 10) v = UINT64_MAX;  // more digits than any node id has
    if (v - id_base >= limit) return {idx - first, {ChunkError::kOutOfRange, offset, idx}};  // wraps below base
    out[idx++] = static_cast<node_t>(v - id_base);
  }
  return {idx - first, {}};
}

std::string slot_name(std::uint64_t index, const Header& h) {
  if (index / 2 < h.m)
    return std::string(index % 2 == 0 ? "the source" : "the target") + " of edge " + std::to_string(index / 2 + 1);
  return "token " + std::to_string(index - 2 * h.m + 1);
}

[[noreturn]] void report(std::string_view text, std::string_view source, const Header& h, const IdRules& rules,
                         const ChunkError& err) {
  const std::string_view tok = token_at(text, err.offset);
  switch (err.kind) {
    case ChunkError::kNotNumber: throw_at(source, text, err.offset, not_a_number(tok, slot_name(err.index, h)));
    case ChunkError::kOutOfRange:
      throw_at(source, text, err.offset,
               slot_name(err.index, h) + ": node id " + quote_token(tok) + " is out of range " +
                   std::to_string(rules.base) + ".." + std::to_string(rules.base + rules.limit - 1));
    case ChunkError::kExtra:
    case ChunkError::kNone: break;
  }
  const std::string after = h.k > 0   ? "the last of " + std::to_string(h.k) + " tokens"
                            : h.m > 0 ? "the last of " + std::to_string(h.m) + " edges (K = 0)"
                                      : "the header (M = 0, K = 0)";
  throw_at(source, text, err.offset, "unexpected " + quote_token(tok) + " after " + after);
}

[[noreturn]] void report_short(std::string_view text, std::string_view source, const Header& h, std::uint64_t count) {
  std::size_t last = text.size();
  while (last > h.body && is_space(text[last - 1])) --last;
  const std::string what =
      count < 2 * h.m
          ? "input ends after " + std::to_string(count / 2) + " of " + std::to_string(h.m) + " edges"
          : "input ends after " + std::to_string(count - 2 * h.m) + " of " + std::to_string(h.k) + " tokens";
  throw_at(source, text, last > 0 ? last - 1 : 0, what);
}

// Splits text[begin, end) into about `parts` ranges whose ends fall on
// whitespace, so that no token straddles two of them.
std::vector<std::size_t> split_at_spaces(std::string_view text, std::size_t begin, std::size_t end, std::size_t parts) {
  std::vector<std::size_t> cut{begin};
  for (std::size_t i = 1; i < parts; ++i) {
    std::size_t c = std::max(cut.back(), begin + (end - begin) / parts * i);
    while (c < end && !is_space(text[c])) ++c;
    cut.push_back(c);
  }
  cut.push_back(end);
  return cut;
}

// All numbers of text[begin, end), in parallel chunks when that pays.
struct BodyScan {
  UnzeroedArray<node_t> ids;  // becomes the graph's targets (csr_from_pairs)
  std::uint64_t count = 0;
  ChunkError error;
};

BodyScan scan_ids(std::string_view text, std::size_t begin, const IdRules& rules, unsigned threads,
                  UnzeroedArray<node_t>&& ids = {}) {
  const std::size_t body_bytes = text.size() - begin;
  // Each number takes at least one digit and one separator, so the body holds
  // at most (bytes + 1) / 2 of them: the array is sized by the input, never by
  // a header alone. A header promising more fails later as a short input.
  BodyScan scan;
  scan.ids = std::move(ids);
  scan.ids.resize(static_cast<std::size_t>(std::min<std::uint64_t>(rules.need, (body_bytes + 1) / 2)));
  if (threads <= 1 || body_bytes < kParallelMinBytes) {
    const ChunkResult r = parse_chunk(text, begin, text.size(), 0, rules, scan.ids.data());
    scan.count = r.count;
    scan.error = r.error;
    return scan;
  }
  // Two passes over chunks cut at whitespace: count each chunk's numbers,
  // then parse every chunk knowing where its numbers go.
  const auto cut = split_at_spaces(text, begin, text.size(), threads * 4);
  const std::size_t chunks = cut.size() - 1;
  std::vector<std::uint64_t> first(chunks + 1, 0);
  const ParallelConfig pc{threads};
  for_tasks(pc, chunks, [&](std::size_t c) { first[c + 1] = count_tokens(text, cut[c], cut[c + 1]); });
  for (std::size_t c = 0; c < chunks; ++c) first[c + 1] += first[c];
  std::vector<ChunkResult> results(chunks);
  for_tasks(pc, chunks, [&](std::size_t c) {
    trace::Span span("parse chunk", "parse");
    span.arg("bytes", cut[c + 1] - cut[c]);
    const std::int64_t start = span.on() ? trace::active_detail()->now_ns() : 0;
    results[c] = parse_chunk(text, cut[c], cut[c + 1], first[c], rules, scan.ids.data());
    if (span.on()) {
      const std::int64_t ns = std::max<std::int64_t>(1, trace::active_detail()->now_ns() - start);
      trace::counter("parse bytes/s", static_cast<std::uint64_t>(static_cast<double>(cut[c + 1] - cut[c]) * 1e9 /
                                                                 static_cast<double>(ns)));
    }
  });
  for (const auto& r : results) {
    scan.count += r.count;
    if (r.error.kind != ChunkError::kNone) {
      scan.error = r.error;  // chunks are in text order: the first is earliest
      break;
    }
  }
  return scan;
}

// Self-loops are errors; csr_from_pairs finds them, and only then is the edge's
// line found, by scanning to it.
void reject_self_loop(std::string_view text, std::string_view source, std::size_t body,
                      const std::optional<SelfLoop>& loop, std::uint64_t base) {
  if (!loop) return;
  const std::size_t e = loop->edge;
  std::size_t pos = body;
  for (std::uint64_t i = 0;; ++i) {
    while (is_space(text[pos])) ++pos;
    if (i == 2 * e) break;
    while (!is_space(text[pos])) ++pos;
  }
  const std::string id = std::to_string(loop->node + base);
  throw_at(source, text, pos, "edge " + std::to_string(e + 1) + " is a self-loop: cycle: " + id + " -> " + id + kLoopyHint);
}

}  // namespace

OwnedGame parse_classic(std::string_view text, const ParseOptions& options) {
  OwnedGame game;
  UnzeroedArray<node_t> ids;
  parse_classic(text, options, game, ids);
  return game;
}

void parse_classic(std::string_view text, const ParseOptions& options, OwnedGame& game, UnzeroedArray<node_t>& ids_scratch) {
  const std::string_view source = options.source;
  if (options.timer) options.timer->start("parse");
  std::optional<LineOrigin> origin;  // an instance deep in a stream: its errors count lines from its start
  if (options.start_line != 0) origin.emplace(text, options.start, options.start_line);
  const Header h = parse_header(text, source, options.start);
  // 2M + K numbers follow, saturating: a header that overflows this is short.
  const IdRules rules{h.m > (UINT64_MAX - h.k) / 2 ? UINT64_MAX : 2 * h.m + h.k, 1, h.n};
  BodyScan scan = scan_ids(text, h.body, rules, options.threads, std::move(ids_scratch));
  // Hand the scratch back however this ends.
  struct GiveBack {
    UnzeroedArray<node_t>& to;
    UnzeroedArray<node_t>& from;
    ~GiveBack() { to = std::move(from); }
  } give_back{ids_scratch, scan.ids};
  if (scan.error.kind != ChunkError::kNone) report(text, source, h, rules, scan.error);
  if (scan.count < rules.need) report_short(text, source, h, scan.count);

  // Every count is now backed by the input; only N can still be a bare promise.
  // (The place is only worked out when the check fails: counting lines up
  // to a stream's 10,000th instance is not free.)
  const std::uint64_t node_bytes = h.n * (sizeof(edge_t) + 3 * sizeof(node_t));
  if (node_bytes > memory_budget_bytes())
    require_memory(node_bytes, std::string(source) + ":" + std::to_string(line_of(text, options.start)),
                   "N = " + std::to_string(h.n) + " nodes");
  if (options.timer) options.timer->start("build CSR");
  // The tokens first: the pairs' storage becomes the targets.
  game.tokens.assign(scan.ids.begin() + static_cast<std::ptrdiff_t>(2 * h.m),
                     scan.ids.begin() + static_cast<std::ptrdiff_t>(rules.need));
  const auto loop = csr_from_pairs(static_cast<node_t>(h.n), h.m, scan.ids, game, {options.threads});
  if (!options.self_loops) reject_self_loop(text, source, h.body, loop, 1);
  if (options.timer) options.timer->stop();
}

}  // namespace grundy

namespace grundy {

namespace {

// What an edge list's leading comment lines say: SNAP's description (read
// past), and grundy's own "# nodes: N" and "# tokens: ..." (ids in the
// list's base), which keep isolated nodes and the tokens of a written game.
struct EdgeListComments {
  std::size_t end = 0;  // the first byte after them
  std::uint64_t nodes = 0;
  std::vector<std::uint64_t> tokens;
};

std::uint64_t comment_number(std::string_view word, std::string_view source, std::uint64_t line) {
  std::uint64_t v = 0;
  const bool ok = !word.empty() && word.size() <= 19 &&
                  std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  for (const char c : word) v = v * 10 + static_cast<unsigned>(c - '0');
  if (!ok || v > kMaxNodes)
    throw InputError(std::string(source) + ":" + std::to_string(line) + ": comment: \"" + std::string(word) +
                     "\" is not a node id or count");
  return v;
}

EdgeListComments read_comments(std::string_view text, std::string_view source, std::uint64_t base) {
  EdgeListComments c;
  std::uint64_t line = 1;
  while (c.end < text.size()) {
    std::size_t at = c.end;
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r')) ++at;
    const std::size_t eol = std::min(text.find('\n', at), text.size());
    if (at < text.size() && text[at] != '#' && text[at] != '\n') break;
    const std::string_view body = text.substr(at, eol - at);
    const auto words_after = [&](std::string_view key) {
      std::vector<std::string_view> words;
      std::string_view rest = body.substr(key.size());
      while (!rest.empty()) {
        const std::size_t b = rest.find_first_not_of(" \t\r");
        if (b == std::string_view::npos) break;
        rest.remove_prefix(b);
        const std::size_t e = std::min(rest.find_first_of(" \t\r"), rest.size());
        words.push_back(rest.substr(0, e));
        rest.remove_prefix(e);
      }
      return words;
    };
    if (body.starts_with("# nodes:")) {
      const auto words = words_after("# nodes:");
      if (words.size() != 1)
        throw InputError(std::string(source) + ":" + std::to_string(line) + ": comment: \"# nodes:\" takes one count");
      c.nodes = comment_number(words[0], source, line);
    } else if (body.starts_with("# tokens:")) {
      for (const auto w : words_after("# tokens:")) {
        const std::uint64_t id = comment_number(w, source, line);
        if (id < base)
          throw InputError(std::string(source) + ":" + std::to_string(line) + ": comment: token id " + std::string(w) +
                           " is below the base " + std::to_string(base));
        c.tokens.push_back(id);
      }
    }
    c.end = std::min(eol + 1, text.size());
    ++line;
  }
  return c;
}

}  // namespace

OwnedGame parse_edge_list(std::string_view text, const EdgeListOptions& options) {
  const std::string_view source = options.source;
  if (options.timer) options.timer->start("parse");
  if (options.base > 1) throw InputError(std::string(source) + ": --base must be 0 or 1");
  // No header: every number is an endpoint, and N is one past the largest id.
  Header h;
  h.m = UINT64_MAX / 2;  // for messages: every number belongs to an edge
  const IdRules rules{UINT64_MAX, options.base, kMaxNodes};
  const EdgeListComments comments = read_comments(text, source, options.base);
  const std::vector<std::uint64_t>& tokens = options.tokens.empty() ? comments.tokens : options.tokens;
  BodyScan scan = scan_ids(text, comments.end, rules, options.threads);
  if (scan.error.kind != ChunkError::kNone) report(text, source, h, rules, scan.error);
  if (scan.count % 2 != 0) {
    h.m = scan.count / 2 + 1;
    report_short(text, source, h, scan.count);
  }
  const std::uint64_t m = scan.count / 2;
  std::uint64_t n = comments.nodes;
  for (std::uint64_t i = 0; i < scan.count; ++i) n = std::max<std::uint64_t>(n, scan.ids[i] + std::uint64_t{1});
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const std::uint64_t id = tokens[t];
    if (n == 0)
      throw InputError(std::string(source) + ": token " + std::to_string(t + 1) + ": node id " + std::to_string(id) +
                       ", but the edge list has no edges, so the graph has no nodes");
    if (id < options.base || id - options.base >= n)
      throw InputError(std::string(source) + ": token " + std::to_string(t + 1) + ": node id " + std::to_string(id) +
                       " is not a node of the graph (ids " + std::to_string(options.base) + ".." +
                       std::to_string(n + options.base - 1) + ")");
  }
  // N is one past the largest id: "0 200000000" is 12 bytes promising 2*10^8 nodes.
  const std::uint64_t node_bytes = n * (sizeof(edge_t) + 3 * sizeof(node_t));
  if (node_bytes > memory_budget_bytes())
    require_memory(node_bytes, std::string(source), "N = " + std::to_string(n) + " nodes (one past the largest id)");
  if (options.timer) options.timer->start("build CSR");
  OwnedGame game;
  const auto loop = csr_from_pairs(static_cast<node_t>(n), m, scan.ids, game, {options.threads});
  if (!options.self_loops) reject_self_loop(text, source, 0, loop, options.base);
  for (std::uint64_t id : tokens) game.tokens.push_back(static_cast<node_t>(id - options.base));
  if (options.timer) options.timer->stop();
  return game;
}

}  // namespace grundy
