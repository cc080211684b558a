// Streams of concatenated classic instances.
//
// Each instance is self-delimiting: "N M K", then 2M + K numbers. The
// splitter only counts whitespace-separated tokens (it parses the three
// header numbers and nothing else), so it runs far faster than the parsers
// that then take the instances in parallel.
//
// A bad instance can throw the count off: one cut short swallows the start
// of the next. When an instance and the one found after it are both bad,
// the batch resynchronizes: it looks, line by line after the bad instance's
// header line, for a line of exactly three numbers from which a whole valid
// instance parses, and goes on from there. Streams laid out one header per
// line recover from any truncation that ends at a line end; a stream that
// puts several instances on one line does not, and reports the rest of the
// stream as one error.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace grundy {

/// An instance's bytes: text[begin, end).
struct InstanceSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The instances of text[from, ...), in order. An instance whose header is
/// malformed, or that runs out of numbers, extends to the end of the text
/// (parsing it reports the error) and ends the list.
std::vector<InstanceSpan> split_instances(std::string_view text, std::size_t from = 0);

/// Incremental splitting: each call returns the next instance of the text
/// (or nothing at its end), so that instances can be solved while the rest
/// of a stream is still being split.
class InstanceSplitter {
 public:
  explicit InstanceSplitter(std::string_view text, std::size_t from = 0) : text_(text), pos_(from) {}
  std::optional<InstanceSpan> next();

 private:
  std::string_view text_;
  std::size_t pos_;
  bool done_ = false;
};

/// The first line start after the line holding byte `after` whose line holds
/// exactly three numbers and where `valid(start)` holds; at most `max_tries`
/// candidates are tried.
std::optional<std::size_t> resync(std::string_view text, std::size_t after,
                                  const std::function<bool(std::size_t)>& valid,
                                  std::size_t max_tries = 1000);

}  // namespace grundy
