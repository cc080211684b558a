// libFuzzer target: the batch's stream splitting (by counts, and the framer
// that also reads the layout), and the parser on every piece they cut. Spans
// must follow each other in order, and each must parse or be rejected
// cleanly. A pipe's windows (WindowedFramer, windows of 1 to 97 bytes), and
// a file's (any bytes), must place every instance exactly as the framer does
// on the whole text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "grundy/formats/classic_text.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/formats/instance_stream.hpp"
#include "grundy/io/mapped_file.hpp"
#include "fuzz_memory_limit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  OwnedGame game;
  UnzeroedArray<node_t> ids;
  const auto parse = [&](const InstanceSpan& s) {
    try {
      parse_classic(text.substr(0, s.end), {"fuzz", 1, nullptr, s.begin}, game, ids);
    } catch (const InputError&) {
    }
  };
  // Counting alone.
  std::size_t last = 0;
  for (const InstanceSpan& s : split_instances(text)) {
    if (s.begin < last || s.end < s.begin || s.end > size) __builtin_trap();
    last = s.end;
    parse(s);
  }
  // The batch's framer: spans in order, inside the text, indices counting up
  // until they are lost, and lost for good.
  StreamFramer framer(text);
  last = 0;
  std::uint64_t index = 0;
  bool lost = false;
  while (const auto f = framer.next()) {
    const InstanceSpan& s = f->span;
    if (s.begin < last || s.end < s.begin || s.end > size) __builtin_trap();
    if (f->index == 0) lost = true;
    if (lost ? f->index != 0 : f->index != index + 1) __builtin_trap();
    index = f->index;
    last = s.end;
    if (f->error.empty()) parse(s);
  }
  // The same stream through windows.
  using Placed = std::tuple<std::string, std::uint64_t, std::uint64_t, std::string, std::string>;
  std::vector<Placed> whole, windowed;
  StreamFramer again(text);
  while (const auto f = again.next())
    whole.emplace_back(std::string(text.substr(f->span.begin, f->span.end - f->span.begin)), f->index, f->line,
                       f->error, f->note);
  // A file read in windows takes any bytes, and places them as the whole
  // text does too.
  std::vector<FramedInstance> out;
  std::shared_ptr<const std::string> window;
  std::vector<Placed> from_file;
  std::size_t file_fed = 0;
  WindowedFramer file_windows(
      [&](char* into, std::size_t room) {
        const std::size_t n = std::min({room, size - file_fed, std::size_t{1} + size % 7});
        std::memcpy(into, text.data() + file_fed, n);
        file_fed += n;
        return n;
      },
      "fuzz", 1 + size % 61);
  file_windows.take_any_bytes();
  while (file_windows.next(out, window))
    for (const FramedInstance& f : out)
      from_file.emplace_back(window->substr(f.span.begin, f.span.end - f.span.begin), f.index, f.line, f.error,
                             f.note);
  if (from_file != whole) __builtin_trap();
  std::size_t fed = 0;
  WindowedFramer windows(
      [&](char* into, std::size_t room) {
        const std::size_t n = std::min({room, size - fed, std::size_t{1} + size % 13});
        std::memcpy(into, text.data() + fed, n);
        fed += n;
        return n;
      },
      "fuzz", 1 + size % 97);
  // A pipe holds text: anything else must be refused, and text never.
  const bool text_only =
      !text.starts_with("GCSR") && compressed_input_error(text, "fuzz").empty() && std::all_of(text.begin(), text.end(), [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return c >= 0x20 ? c < 0x7f : (c >= '\t' && c <= '\r');
      });
  try {
    while (windows.next(out, window))
      for (const FramedInstance& f : out)
        windowed.emplace_back(window->substr(f.span.begin, f.span.end - f.span.begin), f.index, f.line, f.error,
                              f.note);
  } catch (const InputError&) {
    if (text_only) __builtin_trap();
    return 0;
  }
  if (!text_only) __builtin_trap();
  if (windowed != whole) __builtin_trap();
  // The same stream pausing after every other read (WindowedFramer's idle
  // test): instances settled at a pause may differ from the whole text's
  // only where bytes after the pause are not an instance, so here every
  // piece must lie in its window, in order, with indices counting up until
  // they are lost.
  fed = 0;
  unsigned reads = 0;
  WindowedFramer pausing(
      [&](char* into, std::size_t room) {
        const std::size_t n = std::min({room, size - fed, std::size_t{1} + size % 11});
        std::memcpy(into, text.data() + fed, n);
        fed += n;
        ++reads;
        return n;
      },
      "fuzz", 1 + size % 89, [&] { return reads % 2 == 0 && fed < size; });
  std::uint64_t last_index = 0;
  bool index_lost = false;
  while (pausing.next(out, window)) {
    std::size_t end = 0;
    for (const FramedInstance& f : out) {
      if (f.span.begin < end || f.span.begin > f.span.end || f.span.end > window->size()) __builtin_trap();
      end = f.span.end;
      if (f.index == 0) index_lost = true;
      if (!index_lost && f.index != last_index + 1) __builtin_trap();
      last_index = f.index;
    }
  }
  return 0;
}
