// Failing writes and interrupted commands never leave a file under the
// final name, nor a temporary behind.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_process.hpp"

namespace grundy {
namespace {

using testing::run_grundy;
using testing::run_shell;
using testing::TempDir;

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

TEST(Faults, InterruptedWritersLeaveNothing) {
  // A generator killed half-way (SIGTERM, SIGINT) removes its temporary.
  TempDir dir;
  for (const char* sig : {"TERM", "INT"}) {
    for (const char* out : {"big.gcsr", "big.txt"}) {
      const auto r = run_shell("$GRUNDY gen --nodes 5000000 --edges 60000000 " + dir.file(out) +
                               " & pid=$!; sleep 0.3; kill -" + sig + " $pid; wait $pid; echo $?");
      EXPECT_NE(r.out, "0\n") << "the writer finished before the signal: make it bigger";
      expect_empty(dir);
    }
  }
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
  EXPECT_NE(b.err.find("more than the 0.1 GiB of memory this process may use"), std::string::npos) << b.err;
  EXPECT_EQ(run_shell("echo '50000000 0 0' | $GRUNDY solve").out, "lose\n");
  const auto e = run_grundy({"solve"}, "5 3000000000 3000000000\n1 2\n");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("input ends after 1 of 3000000000 edges"), std::string::npos) << e.err;
}

}  // namespace
}  // namespace grundy
