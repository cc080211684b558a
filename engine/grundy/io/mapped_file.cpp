#include "grundy/io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "grundy/core/input_error.hpp"
#include "grundy/core/memory_budget.hpp"
#include "grundy/io/temp_file.hpp"

namespace grundy {
namespace {

[[noreturn]] void fail(const std::string& name, const char* what) {
  throw InputError(name + ": " + what + ": " + std::strerror(errno));
}

// Live mappings, in fixed slots a SIGBUS handler can read: a file that
// another process truncates while it is mapped raises SIGBUS on the next
// read of a page past its new end, and the handler names the file.
constexpr int kMapSlots = 1024;
constexpr std::size_t kNameMax = 512;
struct MapSlot {
  std::atomic<bool> used{false};
  const char* begin = nullptr;
  std::size_t size = 0;
  char name[kNameMax] = {};
};
MapSlot g_maps[kMapSlots];

void write_all(const char* s) {
  for (std::size_t len = std::strlen(s); len > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, s, len);
    if (n <= 0) return;
    s += n;
    len -= static_cast<std::size_t>(n);
  }
}

extern "C" void on_bus_error(int, siginfo_t* info, void*) {
  const char* addr = static_cast<const char*>(info->si_addr);
  const char* name = nullptr;
  for (auto& m : g_maps)
    if (m.used.load() && addr >= m.begin && addr < m.begin + m.size) name = m.name;
  remove_live_temporaries();
  write_all("grundy: ");
  write_all(name != nullptr ? name : "an input");
  write_all(": the file shrank while it was being read (truncated by another program?)\n");
  ::_exit(1);
}

int register_mapping(const char* begin, std::size_t size, const std::string& name) {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_bus_error;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, nullptr);
  });
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  for (int i = 0; i < kMapSlots; ++i) {
    if (!g_maps[i].used.load()) {
      g_maps[i].begin = begin;
      g_maps[i].size = size;
      const std::size_t n = std::min(name.size(), kNameMax - 1);
      std::memcpy(g_maps[i].name, name.data(), n);
      g_maps[i].name[n] = '\0';
      g_maps[i].used.store(true);
      return i;
    }
  }
  return -1;  // untracked: the handler still ends the process with a message
}

}  // namespace

MappedFile::MappedFile(const std::string& path, Pages pages) : name_(path == "-" ? "<stdin>" : path) {
  if (path.empty()) throw InputError("an input path is empty");
  const bool is_stdin = path == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(name_, "cannot open");
  struct Closer {
    int fd;
    bool own;
    ~Closer() {
      if (own) ::close(fd);
    }
  } closer{fd, !is_stdin};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(name_, "cannot stat");
  if (S_ISDIR(st.st_mode)) throw InputError(name_ + ": is a directory");
  if (!S_ISREG(st.st_mode)) {
    try {
      read_stream(fd);
    } catch (...) {
      if (stream_ != nullptr) ::munmap(stream_, stream_capacity_);
      throw;
    }
    return;
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ == 0) return;
  // Every page is read in (up front, with MAP_POPULATE, or as it is
  // first read), so the file counts.
  require_memory(size_, name_, "mapping this file of " + std::to_string(size_) + " bytes");
  const int populate = pages == Pages::up_front ? MAP_POPULATE : 0;
  mapping_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | populate, fd, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    fail(name_, "cannot map");
  }
  data_ = static_cast<const char*>(mapping_);
  slot_ = register_mapping(data_, size_, name_);
}

MappedFile::~MappedFile() {
  if (slot_ >= 0) g_maps[slot_].used.store(false);
  if (mapping_ != nullptr) ::munmap(mapping_, size_);
  if (stream_ != nullptr) ::munmap(stream_, stream_capacity_);
}

std::size_t first_non_text(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  constexpr std::size_t kBlock = 4096;
  for (std::size_t at = 0; at < bytes.size(); at += kBlock) {
    const std::size_t n = std::min(kBlock, bytes.size() - at);
    unsigned char any = 0;  // branch-free, so that the loop vectorises
    for (std::size_t i = at; i < at + n; ++i)
      any |= static_cast<unsigned char>((p[i] < '\t') | ((p[i] > '\r') & (p[i] < 0x20)) | (p[i] >= 0x7f));
    if (!any) continue;
    for (std::size_t i = at; i < at + n; ++i)
      if (p[i] >= 0x20 ? p[i] >= 0x7f : (p[i] < '\t' || p[i] > '\r')) return i;
  }
  return bytes.size();
}

std::string non_text_error(std::string_view name, std::uint64_t line, unsigned char byte, std::uint64_t offset) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", byte);
  return std::string(name) + ":" + std::to_string(line) + ": byte " + hex + " at offset " + std::to_string(offset) +
         ": not a text instance";
}

std::string compressed_input_error(std::string_view bytes, std::string_view name) {
  struct Packed {
    std::string_view magic, kind, unpacker;
  };
  static constexpr Packed kPacked[] = {{"\x1f\x8b", "gzip", "zcat"},
                                       {"\x28\xb5\x2f\xfd", "zstd", "zstdcat"},
                                       {"\xfd"
                                        "7zXZ",
                                        "xz", "xzcat"},
                                       {"BZh", "bzip2", "bzcat"}};
  for (const Packed& p : kPacked) {
    if (!bytes.starts_with(p.magic) || (p.kind == "bzip2" && (bytes.size() < 4 || bytes[3] < '1' || bytes[3] > '9')))
      continue;
    const std::string file = name == "<stdin>" ? "FILE" : std::string(name);
    return std::string(name) + ": " + std::string(p.kind) +
           "-compressed data; unpack it first: " + std::string(p.unpacker) + " " + file + " | grundy solve -";
  }
  return {};
}

void widen_pipe(int fd, std::size_t bytes) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) (void)::fcntl(fd, F_SETPIPE_SZ, static_cast<int>(bytes));
}

// A pipe, terminal or device: its length is known only at its end (if it
// has one). It is read into anonymous memory that grows by remapping (no
// copy, no doubling), refused past the memory budget, and, unless it starts
// as a .gcsr does ("GCSR"), checked for bytes no text instance holds as it
// arrives, so /dev/zero or a binary file fails on its first block.
void MappedFile::read_stream(int fd) {
  constexpr std::size_t kStep = std::size_t{1} << 20;
  widen_pipe(fd, kStep);
  const std::uint64_t budget = memory_budget_bytes();
  std::size_t used = 0;
  std::size_t checked = 0;
  std::uint64_t lines = 1;
  bool binary = false;
  for (;;) {
    if (used == stream_capacity_) {
      if (stream_capacity_ + kStep > budget) {
        throw InputError(name_ + ": more than the " + std::to_string(budget >> 20) +
                         " MiB of memory this process may use arrived and the input goes on");
      }
      void* p = stream_ == nullptr ? ::mmap(nullptr, kStep, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                   : ::mremap(stream_, stream_capacity_, stream_capacity_ + kStep, MREMAP_MAYMOVE);
      if (p == MAP_FAILED) {
        throw InputError(name_ + ": out of memory reading the input");
      }
      stream_ = static_cast<char*>(p);
      stream_capacity_ += kStep;
    }
    const ssize_t got = ::read(fd, stream_ + used, stream_capacity_ - used);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(name_, "cannot read");
    }
    used += static_cast<std::size_t>(got);
    if (checked == 0 && used >= 4) binary = std::memcmp(stream_, "GCSR", 4) == 0;
    if (binary || used < 4) continue;
    const std::size_t bad = checked + first_non_text({stream_ + checked, used - checked});
    lines += static_cast<std::uint64_t>(std::count(stream_ + checked, stream_ + bad, '\n'));
    checked = bad;
    if (bad == used) continue;
    if (bad < 4) {
      const std::string packed = compressed_input_error({stream_, used}, name_);
      if (!packed.empty()) throw InputError(packed);
    }
    throw InputError(non_text_error(name_, lines, static_cast<unsigned char>(stream_[bad]), bad));
  }
  data_ = stream_;
  size_ = used;
}

}  // namespace grundy
