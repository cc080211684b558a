// Runs the real `grundy` binary in tests: argv in, exit code, stdout and
// stderr out. Input and output go through temporary files, so no pipe can
// fill up and deadlock.
#pragma once

#include <string>
#include <vector>

namespace grundy::test_support {

struct ProcessResult {
  int exit_code = -1;  ///< -1: killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

/// Runs GRUNDY_BINARY with `args`, feeding `stdin_text` on stdin.
ProcessResult run_grundy(const std::vector<std::string>& args, const std::string& stdin_text = "");

/// Runs `/bin/sh -c script` (GRUNDY is set to the binary in its environment).
ProcessResult run_shell(const std::string& script);

/// A fresh temporary directory, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

std::string read_file(const std::string& path);

/// The lines of `s`, without their line ends.
std::vector<std::string> lines(const std::string& s);

}  // namespace grundy::test_support
