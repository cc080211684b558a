// --perf-control CTL,ACK: drives `perf stat/record --control fifo:CTL,ACK`
// (started with --delay=-1, events off), so that perf counts the solve
// phases only, not start-up, loading or output: "enable" before them,
// "disable" after, each answered by perf's "ack".
#pragma once

#include <string>

namespace grundy::cli {

class PerfControl {
 public:
  /// Opens both FIFOs ("CTL,ACK"); throws InputError naming the one that fails.
  explicit PerfControl(const std::string& spec);
  ~PerfControl();
  PerfControl(const PerfControl&) = delete;
  PerfControl& operator=(const PerfControl&) = delete;

  void enable() { command("enable"); }
  void disable() { command("disable"); }

 private:
  void command(const char* what);
  std::string ctl_path_, ack_path_;
  int ctl_ = -1, ack_ = -1;
};

}  // namespace grundy::cli
