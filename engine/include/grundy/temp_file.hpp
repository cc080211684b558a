// The temporary file behind every output grundy writes.
//
// Output goes to "<path>.tmp-<pid>" and is renamed over <path> only when
// complete, so the final name never holds a partial file. The temporary is
// removed when the writer is destroyed uncommitted (an error) and also when
// the process is interrupted (SIGINT, SIGTERM, SIGHUP): a handler unlinks
// every live temporary, then lets the signal end the process as usual.
// SIGXFSZ is ignored, so a file-size limit is a write error, not a kill.
#pragma once

#include <string>

namespace grundy {

class TempFile {
 public:
  /// Creates the temporary for `path` (O_EXCL); throws InputError naming path.
  explicit TempFile(std::string path);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  /// Closes and renames over the final path. Throws InputError on failure.
  void commit();

 private:
  std::string path_, temp_;
  int fd_ = -1;
  int slot_ = -1;
};

/// Installs the interrupt handlers (idempotent; TempFile calls it).
void install_interrupt_cleanup();

}  // namespace grundy
