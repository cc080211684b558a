#include "grundy/temp_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include "grundy/input_error.hpp"

namespace grundy {
namespace {

// Live temporaries, in fixed slots the signal handler can read without
// allocating: a path is copied in before its slot is marked in use.
constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];
std::mutex g_slot_mutex;

extern "C" void on_interrupt(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

int take_slot(const std::string& temp) {
  if (temp.size() >= kPathMax) return -1;  // too long to track: still removed on errors
  std::lock_guard lock(g_slot_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (!g_used[i].load()) {
      std::memcpy(g_paths[i], temp.c_str(), temp.size() + 1);
      g_used[i].store(true);
      return i;
    }
  }
  return -1;
}

void release_slot(int slot) {
  if (slot >= 0) g_used[slot].store(false);
}

}  // namespace

void install_interrupt_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction sa {};
      sa.sa_handler = on_interrupt;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
    std::signal(SIGXFSZ, SIG_IGN);
  });
}

TempFile::TempFile(std::string path) : path_(std::move(path)) {
  install_interrupt_cleanup();
  temp_ = path_ + ".tmp-" + std::to_string(::getpid());
  slot_ = take_slot(temp_);
  fd_ = ::open(temp_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int err = errno;
    release_slot(slot_);
    throw InputError(path_ + ": cannot create: " + std::strerror(err));
  }
}

TempFile::~TempFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  release_slot(slot_);
}

void TempFile::commit() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw InputError(path_ + ": write failed: " + std::strerror(errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw InputError(path_ + ": cannot rename into place: " + std::strerror(errno));
  temp_.clear();
  release_slot(slot_);
  slot_ = -1;
}

}  // namespace grundy
