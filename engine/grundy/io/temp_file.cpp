#include "grundy/io/temp_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#include "grundy/core/input_error.hpp"

namespace grundy {
namespace {

// Live named temporaries, in fixed slots the signal handler can read without
// allocating: a path is copied in before its slot is marked in use.
constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];
std::mutex g_slot_mutex;

constexpr int kFatalSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGPIPE, SIGALRM,
                                 SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF};

std::atomic<const char*> g_signal_note{nullptr};

extern "C" void on_fatal_signal(int sig) {
  remove_live_temporaries();
  if (const char* note = g_signal_note.load()) {
    const ssize_t ignored = ::write(STDERR_FILENO, note, std::strlen(note));
    (void)ignored;
  }
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

bool names_a_descriptor(const std::filesystem::path& p) {
  const std::string s = p.string();
  return s.rfind("/proc/", 0) == 0 || s.rfind("/dev/fd/", 0) == 0;
}

// The file a path names once its symbolic links are followed (a dangling
// link names the file it would point to); empty when a link goes through
// /proc or /dev/fd (/dev/stdout): that names an open file, to write into.
std::string follow_links(const std::string& path) {
  std::filesystem::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (names_a_descriptor(p)) return {};
    std::error_code ec;
    if (!std::filesystem::is_symlink(p, ec)) return p.string();
    const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
    if (ec) return p.string();
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();  // a loop: open() reports it
}

std::string folder_of(const std::string& target) {
  const std::string dir = std::filesystem::path(target).parent_path().string();
  return dir.empty() ? "." : dir;
}

// Removes ".grundy-<pid>-*" temporaries of processes that no longer run,
// once per folder per process.
void remove_stale_temporaries(const std::string& dir) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  std::lock_guard lock(mutex);
  if (!swept.insert(dir).second) return;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    const char* name = e->d_name;
    if (std::strncmp(name, ".grundy-", 8) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name + 8, &end, 10);
    if (end == name + 8 || *end != '-' || pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) ::unlinkat(::dirfd(d), name, 0);
  }
  ::closedir(d);
}

std::string unique_name(const std::string& dir) { return dir + "/.grundy-" + std::to_string(::getpid()) + "-XXXXXX"; }

}  // namespace

void remove_live_temporaries() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_paths[i]);
}

void set_fatal_signal_note(const char* note) { g_signal_note.store(note); }

void install_interrupt_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kFatalSignals) {
      struct sigaction old {};
      ::sigaction(sig, nullptr, &old);
      // Signals that whoever started us ignores stay ignored, but for the
      // four a user sends to stop a program (a script's background job
      // starts with SIGINT ignored).
      const bool stop = sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT;
      if (old.sa_handler == SIG_IGN && !stop) continue;
      struct sigaction sa {};
      sa.sa_handler = on_fatal_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
    std::signal(SIGXFSZ, SIG_IGN);
  });
}

TempFile::TempFile(std::string path, bool named) : path_(std::move(path)) {
  install_interrupt_cleanup();
  if (path_.empty()) throw InputError("an output path is empty");
  target_ = follow_links(path_);
  struct stat st {};
  const bool open_file = target_.empty();
  if (open_file || ::stat(target_.c_str(), &st) == 0) {
    if (!open_file && S_ISDIR(st.st_mode)) throw InputError(path_ + ": is a directory");
    if (open_file || !S_ISREG(st.st_mode)) {  // a device, FIFO or open file: write into it, never replace it
      fd_ = ::open(open_file ? path_.c_str() : target_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
      if (fd_ < 0) throw InputError(path_ + ": cannot open for writing: " + std::strerror(errno));
      through_ = true;
      return;
    }
  }
  const std::string dir = folder_of(target_);
  if (!named) fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd_ >= 0) {
    unnamed_ = true;
    return;
  }
  if (!named && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT)
    throw InputError(path_ + ": cannot create: " + std::strerror(errno));
  remove_stale_temporaries(dir);
  std::string name = unique_name(dir);
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) throw InputError(path_ + ": cannot create: " + std::strerror(errno));
  ::fchmod(fd_, 0644);
  temp_ = name;
  slot_ = take_slot(temp_);
}

TempFile::~TempFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  release_slot(slot_);
}

void TempFile::commit() {
  const int fd = fd_;
  if (unnamed_) {
    // Give the finished file a short unique name, then rename it over the
    // target: link() cannot replace a file, rename() can.
    const std::string dir = folder_of(target_);
    for (int attempt = 0; attempt < 100 && temp_.empty(); ++attempt) {
      // Unique within this process by the counter, across processes by the pid.
      static std::atomic<unsigned> next_name{0};
      const std::string name =
          dir + "/.grundy-" + std::to_string(::getpid()) + "-" + std::to_string(next_name.fetch_add(1));
      const int slot = take_slot(name);
      const std::string proc = "/proc/self/fd/" + std::to_string(fd);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        temp_ = name;
        slot_ = slot;
      } else {
        const int err = errno;
        release_slot(slot);
        if (err != EEXIST) throw InputError(path_ + ": cannot link into place: " + std::strerror(err));
      }
    }
    if (temp_.empty()) throw InputError(path_ + ": cannot find a free temporary name");
  }
  fd_ = -1;
  if (::close(fd) != 0) throw InputError(path_ + ": write failed: " + std::strerror(errno));
  if (through_) return;
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    throw InputError(path_ + ": cannot rename into place: " + std::strerror(errno));
  temp_.clear();
  release_slot(slot_);
  slot_ = -1;
}

}  // namespace grundy
