// libFuzzer target: the edge-list parser (SNAP's comments and grundy's own
// "# nodes:" and "# tokens:" lines included). Any input must give a game or
// an InputError; a game written back with write_edge_list must read back
// as the same game.
#include <cstddef>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <string_view>
#include <unistd.h>

#include "fuzz_memory_limit.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/formats/classic_text.hpp"
#include "grundy/io/output_file.hpp"
#include "grundy/io/temp_file.hpp"

namespace {

// OutputFile installs grundy's cleanup handlers for fatal signals; libFuzzer
// needs its own (SIGALRM is its -timeout), so they are put back once.
void keep_the_fuzzers_signal_handlers() {
  static const bool done = [] {
    constexpr int kSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGPIPE, SIGALRM,
                                SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF, SIGXFSZ};
    struct sigaction saved[sizeof kSignals / sizeof kSignals[0]];
    for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) ::sigaction(kSignals[i], nullptr, &saved[i]);
    grundy::install_interrupt_cleanup();
    for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) ::sigaction(kSignals[i], &saved[i], nullptr);
    return true;
  }();
  (void)done;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  OwnedGame game;
  try {
    game = parse_edge_list(text, {.source = "fuzz", .base = size % 2});
  } catch (const InputError&) {
    return 0;
  }
  if (game.n > 100000) return 0;  // a valid but huge N: parsing was the point
  keep_the_fuzzers_signal_handlers();
  char path[] = "/tmp/fuzz-edge-list-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return 0;
  ::close(fd);
  {
    OutputFile out(path);
    write_edge_list(game.view(), out);
    out.commit();
  }
  std::FILE* f = std::fopen(path, "rb");
  std::string written;
  for (int c; f && (c = std::fgetc(f)) != EOF;) written += static_cast<char>(c);
  if (f) std::fclose(f);
  ::unlink(path);
  const OwnedGame back = parse_edge_list(written, {.source = "written"});
  const bool same =
      back.n == game.n && back.offsets == game.offsets && back.targets == game.targets && back.tokens == game.tokens;
  if (!same) __builtin_trap();
  return 0;
}
