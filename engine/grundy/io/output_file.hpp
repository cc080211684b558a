// Buffered text output that is never left half-written.
//
// A file goes through a TempFile: written under a temporary name, renamed
// over the destination by commit(). "-" writes straight to stdout instead.
// Every write error (a full disk, a closed pipe, a file-size limit) is an
// InputError naming the destination.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "grundy/io/temp_file.hpp"

namespace grundy {

class OutputFile {
 public:
  explicit OutputFile(std::string path);

  /// Appends bytes (buffered).
  void write(std::string_view bytes);
  /// Flushes and publishes the file under its final name.
  void commit();
  /// Hands what is buffered to the destination now (a stream's reader waits).
  void flush_now() { flush(); }

 private:
  void flush();
  std::string path_;
  std::unique_ptr<TempFile> temp_;  // null for stdout
  int fd_ = -1;
  std::string buffer_;
};

/// "-" or a name of standard output (/dev/stdout, /dev/fd/1,
/// /proc/self/fd/1): output that belongs after what stdout already got.
bool names_stdout(const std::string& path);

/// Throws InputError "<path>: cannot write: ..." when `path` cannot be
/// created (its folder missing, not a folder, or not writable; the path a
/// folder): what a command checks before a long job whose output is made
/// only at its end.
void require_writable(const std::string& path);

/// True when both paths exist and name the same file (links followed): an
/// output that would replace the input it is computed from.
bool same_file(const std::string& a, const std::string& b);

/// Writes all of `bytes` at `offset` of fd (pwrite), or throws InputError
/// "<path>: write failed: ...".
void write_at(int fd, const char* bytes, std::size_t size, std::uint64_t offset, const std::string& path);

/// Appends the decimal form of v and then `end`: the hot loop of every text
/// writer, kept free of locale and stream state.
void append_number(std::string& out, std::uint64_t v, char end = '\n');

/// Writes each value on its own line (SG value listings).
template <class T>
void write_lines(OutputFile& out, std::span<T> values) {
  std::string chunk;
  chunk.reserve((1 << 20) + 32);
  for (const auto v : values) {
    append_number(chunk, v);
    if (chunk.size() >= (1 << 20)) {
      out.write(chunk);
      chunk.clear();
    }
  }
  out.write(chunk);
}

}  // namespace grundy
