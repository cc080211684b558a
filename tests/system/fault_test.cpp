// Failing writes and interrupted commands never leave a file under the
// final name, nor a temporary behind.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "run_process.hpp"
#include "sanitized.hpp"

namespace grundy {
namespace {

using test_support::run_grundy;
using test_support::run_shell;
using test_support::TempDir;

// Nothing in `dir` at all: no output, no temporary.
void expect_empty(const TempDir& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) ADD_FAILURE() << "left behind: " << e.path();
}

TEST(Faults, FileSizeLimitFailsCleanly) {
  // `ulimit -f` (1 KiB blocks) makes every write past 64 KiB fail: text,
  // binary (space reserved up front) and SG listings alike.
  TempDir dir;
  const std::string cases[] = {
      "$GRUNDY gen --nodes 100000 --edges 400000 " + dir.file("g.txt"),
      "$GRUNDY gen --nodes 100000 --edges 400000 " + dir.file("g.gcsr"),
      "$GRUNDY gen --nodes 100000 --edges 400000 --layered " + dir.file("l.gcsr"),
  };
  for (const auto& cmd : cases) {
    const auto r = run_shell("ulimit -f 64; " + cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << r.err;
    EXPECT_EQ(r.signal, 0);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    expect_empty(dir);
  }
  // convert and solve --sg-out, from an input made without the limit.
  TempDir in;
  ASSERT_EQ(run_grundy({"gen", "--nodes", "100000", "--edges", "400000", in.file("g.txt")}).exit_code, 0);
  for (const std::string& cmd : {"$GRUNDY convert -q " + in.file("g.txt") + " " + dir.file("c.gcsr"),
                                 "$GRUNDY solve " + in.file("g.txt") + " --sg-out " + dir.file("sg.txt")}) {
    const auto r = run_shell("ulimit -f 64; " + cmd);
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out, "") << "no verdict when the SG file failed";
    expect_empty(dir);
  }
}

// A shell line that starts a generator writing a 200M-edge graph to `out`
// in `dir` in the background, sends it signal `sig` once it writes there
// (its unnamed output open: its handlers are in place by then, so a loaded
// machine cannot send the signal before them, when a background job
// ignores SIGINT and SIGQUIT), and prints its exit status.
std::string signal_while_writing(const TempDir& dir, const std::string& out, const std::string& sig) {
  return "$GRUNDY gen --nodes 20000000 --edges 200000000 " + dir.file(out) +
         " & pid=$!; i=0; while [ $i -lt 1200 ] && ! ls -l /proc/$pid/fd 2>/dev/null | grep -q -- '" + dir.path() +
         "/'; do sleep 0.05; i=$((i + 1)); done; kill -" + sig + " $pid; wait $pid; echo $?";
}

TEST(Faults, InterruptedWritersLeaveNothing) {
  // A generator killed half-way (SIGTERM, SIGINT) removes its temporary.
  TempDir dir;
  for (const char* sig : {"TERM", "INT"}) {
    for (const char* out : {"big.gcsr", "big.txt"}) {
      const auto r = run_shell(signal_while_writing(dir, out, sig));
      EXPECT_NE(r.out, "0\n") << "the writer finished before the signal: make it bigger";
      expect_empty(dir);
    }
  }
}

TEST(Faults, KilledOrSignalledWritersLeaveNothing) {
  // SIGKILL (an OOM kill) cannot be handled: the output is an unnamed file
  // until it is complete. The other fatal signals unlink what has a name.
  TempDir dir;
  for (const char* sig : {"KILL", "USR1", "ALRM", "PIPE", "QUIT"}) {
    const auto r = run_shell(signal_while_writing(dir, "big.txt", sig));
    EXPECT_NE(r.out, "0\n") << sig << ": the writer finished before the signal";
    expect_empty(dir);
  }
}

TEST(Faults, StaleTemporariesOfDeadProcessesDoNotBlockALaterRun) {
  // A named temporary of a process that is gone (pid 2^22 - 1 is past any
  // pid_max default) is no obstacle, whatever its name.
  TempDir dir;
  dir.write(".grundy-4194303-abcdef", "stale");
  dir.write("out.txt.tmp-" + std::to_string(::getpid()), "older grundy");
  const auto r = run_grundy({"gen", "--nodes", "50", "--edges", "100", dir.file("out.txt")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("out.txt")));
}

TEST(Faults, DevicesFifosAndLinksAreWrittenThroughNotReplaced) {
  TempDir dir;
  const std::string sample = GRUNDY_SOURCE_DIR "/datasets/sample.txt";
  // A device stays a device (as root, replacing /dev/null would break the system).
  for (const char* dev : {"/dev/null", "/dev/stdout"}) {
    const auto r = run_grundy({"solve", sample, "--sg-out", dev});
    EXPECT_EQ(r.exit_code, 0) << dev << r.err;
    EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  }
  EXPECT_EQ(run_grundy({"solve", sample, "--sg-out", "/dev/stdout"}).out, "win\n2\n0\n1\n1\n0\n0\n");
  const auto full = run_grundy({"solve", sample, "--sg-out", "/dev/full"});
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.err.find("/dev/full: write failed"), std::string::npos) << full.err;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  // A FIFO is written into.
  const auto fifo = run_shell("cd " + dir.path() + " && mkfifo f && (cat f > got &) && $GRUNDY solve " + sample +
                              " --sg-out f && sleep 0.2 && cat got && test -p f && echo still-a-fifo");
  EXPECT_EQ(fifo.out, "win\n2\n0\n1\n1\n0\n0\nstill-a-fifo\n") << fifo.err;
  // A link is followed: its target is replaced, the link stays.
  dir.write("real.txt", "old\n");
  std::filesystem::create_symlink("real.txt", dir.file("link.txt"));
  ASSERT_EQ(run_grundy({"solve", sample, "--sg-out", dir.file("link.txt")}).exit_code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.txt")));
  EXPECT_EQ(test_support::read_file(dir.file("real.txt")), "2\n0\n1\n1\n0\n0\n");
  // A .gcsr is built through a mapping: a device is refused, untouched.
  std::filesystem::create_symlink("/dev/null", dir.file("null.gcsr"));
  const auto g = run_grundy({"gen", "--nodes", "10", "--edges", "10", dir.file("null.gcsr")});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_NE(g.err.find("needs a regular file"), std::string::npos) << g.err;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  // Output names as long as a file name may be.
  const std::string longest(255 - 4, 'x');
  EXPECT_EQ(run_grundy({"solve", sample, "--sg-out", dir.file(longest + ".txt")}).exit_code, 0);
}

TEST(Faults, AnInputTruncatedWhileMappedIsAnErrorNotABusError) {
  TempDir dir;
  // Under a sanitizer a third of the edges still reads for seconds.
  const char* const edges = test_support::kSanitized ? "10000000" : "30000000";
  ASSERT_EQ(run_grundy({"gen", "--nodes", "2000000", "--edges", edges, dir.file("g.txt")}).exit_code, 0);
  int caught = 0;
  // The file is cut once grundy has it mapped (a fixed delay from the start
  // lost that race on a loaded machine: the file was cut before it was
  // opened, a plain "input ends" error), and a moment later.
  for (const char* delay : {"0", "0.02", "0.05"}) {
    const auto r = run_shell("cp " + dir.file("g.txt") + " " + dir.file("t.txt") + "; $GRUNDY solve " +
                             dir.file("t.txt") + " & pid=$!; for i in $(seq 1000); do grep -q t.txt /proc/$pid/maps " +
                             "2>/dev/null && break; sleep 0.005; done; sleep " + delay + "; truncate -s 1000 " +
                             dir.file("t.txt") + "; wait $pid; echo $?");
    EXPECT_EQ(r.signal, 0);
    EXPECT_TRUE(r.out == "win\n0\n" || r.out == "lose\n0\n" || r.out == "1\n") << r.out << r.err;
    if (r.out == "1\n") {
      ++caught;
      EXPECT_NE(r.err.find("t.txt: the file shrank while it was being read"), std::string::npos) << r.err;
    }
  }
  EXPECT_GT(caught, 0) << "no run was caught mid-read: truncate sooner";
}

TEST(Faults, HeadersPromisingTooMuchFailBeforeAllocating) {
  // A 4-billion-node header in a tiny file: refused from the machine's memory
  // size, not by an out-of-memory kill (the test would not survive one).
  const auto r = run_grundy({"solve"}, "4000000000 0 0\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("needs"), std::string::npos) << r.err;
  // GRUNDY_MEMORY_LIMIT lowers the budget below the machine's memory.
  const auto b = run_shell("echo '50000000 0 0' | GRUNDY_MEMORY_LIMIT=100M $GRUNDY solve");
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.err.find("more than the 100 MiB of memory this process may use"), std::string::npos) << b.err;
  EXPECT_EQ(run_shell("echo '50000000 0 0' | $GRUNDY solve").out, "lose\n");
  const auto e = run_grundy({"solve"}, "5 3000000000 3000000000\n1 2\n");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("input ends after 1 of 3000000000 edges"), std::string::npos) << e.err;
}

}  // namespace
}  // namespace grundy
