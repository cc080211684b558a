#include "grundy/io/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "grundy/core/input_error.hpp"

namespace grundy {
namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
  } else {
    temp_ = std::make_unique<TempFile>(path_);
    fd_ = temp_->fd();
  }
  buffer_.reserve(kBufferBytes);
}

void OutputFile::write(std::string_view bytes) {
  if (buffer_.size() + bytes.size() > kBufferBytes) flush();
  if (bytes.size() >= kBufferBytes) {
    buffer_.assign(bytes);
    flush();
  } else {
    buffer_.append(bytes);
  }
}

void OutputFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw InputError((temp_ ? path_ : std::string("<stdout>")) +
                       ": write failed: " + std::strerror(n < 0 ? errno : ENOSPC));
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void OutputFile::commit() {
  flush();
  if (temp_) temp_->commit();
}

bool names_stdout(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

void append_number(std::string& out, std::uint64_t v, char end) {
  char digits[24];
  char* p = std::to_chars(digits, digits + sizeof digits, v).ptr;
  *p++ = end;
  out.append(digits, p);
}

}  // namespace grundy
