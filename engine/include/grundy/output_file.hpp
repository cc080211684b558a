// Output files that are never left half-written.
//
// Bytes go to a temporary file beside the destination ("<path>.tmp-<pid>");
// commit() flushes it and renames it over the final name in one step. If the
// writer is destroyed without commit() (an error, an exception) the temporary
// is removed, so the final name holds either the old file or the complete new
// one. "-" writes straight to stdout instead.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace grundy {

class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends bytes (buffered). Throws InputError naming the path on failure.
  void write(std::string_view bytes);
  /// Flushes and publishes the file under its final name.
  void commit();

 private:
  void flush();
  std::string path_;
  std::string temp_;  // empty for stdout
  int fd_ = -1;
  std::string buffer_;
  bool committed_ = false;
};

/// Appends the decimal form of v and then `end`: the hot loop of every text
/// writer, kept free of locale and stream state.
void append_number(std::string& out, std::uint64_t v, char end = '\n');

/// Writes each value on its own line (SG value listings).
template <class T>
void write_lines(OutputFile& out, std::span<T> values) {
  std::string chunk;
  chunk.reserve((1 << 20) + 32);
  for (const T v : values) {
    append_number(chunk, v);
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
    }
  }
  out.write(chunk);
}

}  // namespace grundy
