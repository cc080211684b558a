// The file behind every output grundy writes, never left half-written.
//
// A regular destination (or a missing one) is written as an unnamed file in
// its folder (O_TMPFILE) and linked in over the destination only when
// complete, so the final name never holds a partial file and a process that
// is killed outright (SIGKILL, the OOM killer) leaves nothing behind. Where
// the file system has no O_TMPFILE, a uniquely named ".grundy-<pid>-XXXXXX"
// (mkstemp) stands in; temporaries of processes that are gone are removed
// the next time one is made in that folder. Fatal signals (INT, TERM, HUP,
// QUIT, PIPE, ALRM, USR1, USR2, XCPU, VTALRM, PROF) unlink every live named
// temporary before the signal ends the process as usual; SIGXFSZ is
// ignored, so a file-size limit is a write error, not a kill.
//
// A symbolic link is followed to its target, which is what gets replaced.
// A destination that exists and is not a regular file (a device such as
// /dev/null or /dev/stdout, a FIFO) is written through, never replaced.
#pragma once

#include <string>

namespace grundy {

class TempFile {
 public:
  /// Opens the output for `path`; throws InputError naming path. `named`:
  /// always a named temporary (temp_path()), which other processes can open.
  explicit TempFile(std::string path, bool named = false);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  /// The named temporary's path (empty for an unnamed one, or written through).
  const std::string& temp_path() const { return temp_; }
  /// True when the destination is a device or FIFO, written in place.
  bool writes_through() const { return through_; }
  /// Closes and publishes the file under its final name. Throws InputError.
  void commit();

 private:
  std::string path_;    // as the user gave it (for messages)
  std::string target_;  // the file that is replaced: path_ with its links followed
  std::string temp_;    // the named temporary, if any
  int fd_ = -1;
  int slot_ = -1;
  bool through_ = false;
  bool unnamed_ = false;
};

/// Installs the signal handlers (idempotent; TempFile calls it).
void install_interrupt_cleanup();

/// A line (static storage, ending in a newline) written to stderr when a
/// fatal signal ends the process: grundy-mpi's rank 0 says why the job
/// stopped when mpirun ends it for a rank that died.
void set_fatal_signal_note(const char* note);

/// Unlinks every live named temporary; async-signal-safe (for handlers
/// that end the process some other way).
void remove_live_temporaries() noexcept;

}  // namespace grundy
