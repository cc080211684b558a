#include "grundy/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "grundy/input_error.hpp"

namespace grundy {
namespace {

[[noreturn]] void fail(const std::string& name, const char* what) {
  throw InputError(name + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

MappedFile::MappedFile(const std::string& path) : name_(path == "-" ? "<stdin>" : path) {
  const bool is_stdin = path == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(name_, "cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    if (!is_stdin) ::close(fd);
    fail(name_, "cannot stat");
  }
  if (S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    throw InputError(name_ + ": is a directory");
  }
  if (S_ISREG(st.st_mode)) {
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
      mapping_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        if (!is_stdin) ::close(fd);
        fail(name_, "cannot map");
      }
      data_ = static_cast<const char*>(mapping_);
    }
  } else {
    // A pipe or terminal: its length is known only at its end.
    std::size_t used = 0;
    buffer_.resize(1 << 16);
    for (;;) {
      if (used == buffer_.size()) buffer_.resize(buffer_.size() * 2);
      const ssize_t got = ::read(fd, buffer_.data() + used, buffer_.size() - used);
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        if (!is_stdin) ::close(fd);
        fail(name_, "cannot read");
      }
      used += static_cast<std::size_t>(got);
    }
    buffer_.resize(used);
    data_ = buffer_.data();
    size_ = used;
  }
  if (!is_stdin) ::close(fd);
}

MappedFile::~MappedFile() {
  if (mapping_ != nullptr) ::munmap(mapping_, size_);
}

}  // namespace grundy
