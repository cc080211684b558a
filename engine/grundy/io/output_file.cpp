#include "grundy/io/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

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

void write_at(int fd, const char* bytes, std::size_t size, std::uint64_t offset, const std::string& path) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t w = ::pwrite(fd, bytes + done, size - done, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw InputError(path + ": write failed: " + std::strerror(w < 0 ? errno : EIO));
    done += static_cast<std::size_t>(w);
  }
}

void append_number(std::string& out, std::uint64_t v, char end) {
  char digits[24];
  char* p = std::to_chars(digits, digits + sizeof digits, v).ptr;
  *p++ = end;
  out.append(digits, p);
}

void require_writable(const std::string& path) {
  if (path.empty() || names_stdout(path)) return;  // an empty path is the writer's own error
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path + ": cannot write: it is a folder");
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec))
    throw InputError(path + ": cannot write: " + parent.string() +
                     (fs::exists(parent, ec) ? " is not a folder" : ": no such folder"));
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(path + ": cannot write: " + parent.string() + ": " + std::strerror(errno));
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace grundy
