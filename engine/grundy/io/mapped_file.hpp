// Read-only input bytes: a memory mapping of a file, or stdin.
//
// Files are mapped, never read through iostreams: the parser and the binary
// loader work straight on the page cache. Stdin is mapped too when it is a
// regular file (a `<` redirect); a pipe or device is read into memory, since
// its size is known only at its end (mapped_file.cpp says how that is bounded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace grundy {

/// When `bytes` start as gzip, zstd, xz or bzip2 data do: the error to give,
/// "<name>: gzip-compressed data; unpack it first: zcat FILE | grundy solve -";
/// else empty.
std::string compressed_input_error(std::string_view bytes, std::string_view name);

/// The place of the first byte in `bytes` that no text instance holds
/// (text: printable ASCII and \t \n \v \f \r), or bytes.size(). Checked a
/// block at a time in a form the compiler vectorises.
std::size_t first_non_text(std::string_view bytes);

/// "<name>:<line>: byte 0x00 at offset 12: not a text instance".
std::string non_text_error(std::string_view name, std::uint64_t line, unsigned char byte, std::uint64_t offset);

/// Asks for a buffer of `bytes` in the pipe behind `fd`, where fd is one
/// and the system allows it (else nothing): its writer then wakes the
/// reader about once a buffer, not once every 64 KiB.
void widen_pipe(int fd, std::size_t bytes);

class MappedFile {
 public:
  /// How a mapped file's pages come in: all at once as it is mapped (a
  /// solver then reads them in any order), or as they are first read (a
  /// batch reads its files front to back, and the workers that read them
  /// share the faults instead of one thread taking them all before any
  /// instance is solved: docs/TUNING.md#batch-pages).
  enum class Pages { up_front, on_first_read };

  /// Opens `path` ("-" is stdin). Throws InputError naming the path on failure.
  explicit MappedFile(const std::string& path, Pages pages = Pages::up_front);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_, size_}; }
  /// The name used in messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  void* mapping_ = nullptr;  // non-null when data_ is an mmap
  int slot_ = -1;            // its entry for the SIGBUS handler
  char* stream_ = nullptr;   // holds a pipe or device's bytes (anonymous memory)
  std::size_t stream_capacity_ = 0;
  void read_stream(int fd);
};

}  // namespace grundy
