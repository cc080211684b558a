#include "perf_control.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "grundy/core/input_error.hpp"

namespace grundy::cli {

PerfControl::PerfControl(const std::string& spec) {
  const auto comma = spec.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == spec.size())
    throw InputError("--perf-control " + spec + ": expected CTL,ACK (the FIFOs given to perf --control fifo:CTL,ACK)");
  ctl_path_ = spec.substr(0, comma);
  ack_path_ = spec.substr(comma + 1);
  // perf holds both open already; opening our ends does not block then.
  ctl_ = ::open(ctl_path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (ctl_ < 0) throw InputError(ctl_path_ + ": --perf-control: cannot open the control FIFO: " + std::strerror(errno));
  ack_ = ::open(ack_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (ack_ < 0) {
    const int err = errno;
    ::close(ctl_);
    throw InputError(ack_path_ + ": --perf-control: cannot open the ack FIFO: " + std::strerror(err));
  }
}

PerfControl::~PerfControl() {
  if (ctl_ >= 0) ::close(ctl_);
  if (ack_ >= 0) ::close(ack_);
}

void PerfControl::command(const char* what) {
  const std::string line = std::string(what) + "\n";
  if (::write(ctl_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw InputError(ctl_path_ + ": --perf-control: cannot write \"" + what + "\": " + std::strerror(errno));
  // perf answers "ack\n" (and a NUL): read up to the line's end.
  std::string answer;
  for (char c; answer.empty() || answer.back() != '\n';) {
    const ssize_t got = ::read(ack_, &c, 1);
    if (got <= 0) throw InputError(ack_path_ + ": --perf-control: no ack for \"" + what + "\" (perf gone?)");
    if (c != '\0') answer += c;
  }
  if (answer != "ack\n") throw InputError(ack_path_ + ": --perf-control: perf answered \"" + answer + "\"");
}

}  // namespace grundy::cli
