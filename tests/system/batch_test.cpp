// grundy batch through the real binary: order, names, errors, resync.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "grundy/formats/instance_stream.hpp"
#include "run_process.hpp"

namespace grundy {
namespace {

using test_support::lines;
using test_support::read_file;
using test_support::run_grundy;
using test_support::TempDir;

// A stream of `count` generated instances (seeds 1..count).
std::string stream(const TempDir& dir, const std::string& name, int count, const char* nodes = "40") {
  const std::string path = dir.file(name);
  const auto r = run_grundy(
      {"gen", "--nodes", nodes, "--edges", "150", "--tokens", "5", "--instances", std::to_string(count), path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

TEST(Splitter, FindsEveryInstanceOfAStream) {
  const std::string text = "2 1 1\n1 2\n1\n 3 0 2 1 3\n\n\n1 0 0 4 3 2 1 2 2 3 3 4 1\t2\r\n";
  const auto spans = split_instances(text);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(text.substr(spans[1].begin, spans[1].end - spans[1].begin), "3 0 2 1 3");
  EXPECT_EQ(text.substr(spans[2].begin, spans[2].end - spans[2].begin), "1 0 0");
  // Cut short: the last span runs to the end, for the parser to report.
  EXPECT_EQ(split_instances("2 5 1\n1 2\n").back().end, 10u);
  // Long runs of digits and spaces cross the 8-byte blocks in every way.
  std::string big = "100000 3 1";
  for (int i = 0; i < 3; ++i) big += "        123456789        " + std::to_string(i * 7 + 1);
  big += " 99999";
  EXPECT_EQ(split_instances(big + "\n1 0 0").size(), 2u);
}

TEST(Batch, SameAnswersAsSolveOneByOneInInputOrder) {
  TempDir dir;
  const std::string s = stream(dir, "s.txt", 30);
  const auto r = run_grundy({"batch", "-q", s});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    const std::string one = dir.file("one.txt");
    ASSERT_EQ(
        run_grundy({"gen", "--nodes", "40", "--edges", "150", "--tokens", "5", "--seed", std::to_string(i + 1), one})
            .exit_code,
        0);
    const auto want = run_grundy({"solve", one});
    EXPECT_EQ(got[i], s + "#" + std::to_string(i + 1) + "\t" + want.out.substr(0, want.out.size() - 1));
  }
}

TEST(Batch, OutputDoesNotDependOnTheThreadCount) {
  TempDir dir;
  const std::string s = stream(dir, "s.txt", 400, "300");
  const auto one = run_grundy({"batch", "-q", "--threads", "1", "--move", s});
  ASSERT_EQ(one.exit_code, 0);
  for (const char* threads : {"2", "3", "5"}) {
    const auto r = run_grundy({"batch", "-q", "--threads", threads, "--move", s});
    EXPECT_EQ(r.out, one.out) << threads;
  }
}

TEST(Batch, FoldersFilesAndStdinInOrder) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("d/sub"));
  dir.write("d/b.txt", "2 1 1\n1 2\n1\n");
  dir.write("d/a.in", "1 0 1\n1\n");
  dir.write("d/sub/c.txt", "3 2 2\n1 2\n2 3\n1 3\n");
  dir.write("d/notes.md", "not an instance");
  ASSERT_EQ(run_grundy({"convert", "-q", GRUNDY_SOURCE_DIR "/datasets/sample.txt", dir.file("d/e.gcsr"), "--layered"})
                .exit_code,
            0);
  const auto r = run_grundy({"batch", "-q", dir.file("d"), "-"}, "2 1 1\n1 2\n2\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, dir.file("d/a.in") + "\tlose\n" + dir.file("d/b.txt") + "\twin\n" + dir.file("d/e.gcsr") +
                       "\twin\n" + dir.file("d/sub/c.txt") + "\tlose\n<stdin>\tlose\n");
}

// `producer | grundy batch -` streams: the writer below waits (up to 30 s)
// for the answers to its first instances before it writes the last one, so
// a batch that held them back until more input came would fail here, not
// hang. The lines are those of the same stream read from a file.
TEST(Batch, APipesInstancesAreAnsweredBeforeItsWriterGoesOn) {
  TempDir dir;
  const std::string a = dir.write("a.txt", "2 1 1\n1 2\n1\n3 2 1\n1 2\n2 3\n1\n");
  const std::string b = dir.write("b.txt", "1 0 1\n1\n");
  for (const char* threads : {"1", "2"}) {
    const std::string out = dir.file(std::string("out") + threads + ".txt"), flag = dir.file("answered");
    std::filesystem::remove(flag);
    // The output file exists before either side of the pipe starts (the
    // writer reads its length while the shell may still be opening it).
    const auto r = test_support::run_shell(
        ": > '" + out + "'; (cat '" + a + "'; i=0; while [ $(wc -l < '" + out + "') -lt 2 ] && [ $i -lt 300 ]; do "
        "sleep 0.1; i=$((i+1)); done; [ $(wc -l < '" + out + "') -ge 2 ] && touch '" + flag + "'; cat '" + b +
        "') | \"$GRUNDY\" batch -q -t " + threads + " - >> '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(flag)) << threads << " threads: a's lines came only after b";
    EXPECT_EQ(read_file(out), "<stdin>#1\twin\n<stdin>#2\tlose\n<stdin>#3\tlose\n") << threads << " threads";
  }
}

// `batch -` and `solve -` ask for a pipe buffer of a window (1 MiB), so
// that the writer is woken once a window, not once every 64 KiB
// (docs/TUNING.md#stream-window). The writer's end reads the pipe's size
// while the reader runs: it polls until the size grows, for up to 10 s.
TEST(Batch, APipeOnStdinIsWidenedToAWindow) {
  const std::string poll_size =
      "/usr/bin/python3 -c 'import fcntl, sys, time\n"
      "for _ in range(200):\n"
      "    size = fcntl.fcntl(1, 1032)\n"  // F_GETPIPE_SZ
      "    if size >= 1 << 20: break\n"
      "    time.sleep(0.05)\n"
      "print(size, file=sys.stderr)'";
  for (const char* command : {"batch -q -t 2 -", "solve -t 2 -"}) {
    const auto r = test_support::run_shell("(printf '2 1 1\n1 2\n1\n'; " + poll_size + ") | \"$GRUNDY\" " + command);
    ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.err, "1048576\n") << command;
  }
}

TEST(Batch, ABadInstanceNeverStopsTheRest) {
  TempDir dir;
  // #2 is cut short at a line end and swallows the start of #3; the batch
  // must resynchronize and still find #3 and #4.
  const std::string text =
      "3 2 1\n1 2\n2 3\n1\n"
      "5 4 1\n1 2\n2 3\n"
      "4 3 1\n1 2\n2 3\n3 4\n1\n"
      "2 1 2\n1 2\n1 2\n";
  const std::string s = dir.write("s.txt", text);
  const auto r = run_grundy({"batch", "-q", s, "/nonexistent/x.txt", dir.write("bad.txt", "2 1 1\n1 9\n1\n")});
  EXPECT_EQ(r.exit_code, 1);
  const auto got = lines(r.out);
  ASSERT_EQ(got.size(), 6u) << r.out;
  EXPECT_EQ(got[0], s + "#1\tlose");
  EXPECT_EQ(got[1].rfind(s + "#2\terror\t" + s + ":", 0), 0u) << got[1];
  EXPECT_EQ(got[2], s + "#3\twin");
  EXPECT_EQ(got[3], s + "#4\twin");
  EXPECT_EQ(got[4].rfind("/nonexistent/x.txt\terror\t/nonexistent/x.txt: cannot open", 0), 0u) << got[4];
  EXPECT_NE(got[5].find("error\t" + dir.file("bad.txt") + ":2: the target of edge 1: node id \"9\""), std::string::npos)
      << got[5];
}

// A file of small instances is read a window at a time (not mapped): its
// lines, damaged instances and a byte no text holds included, are those of
// the same bytes mapped (a `<` redirect), whose names say <stdin>.
TEST(Batch, AFileReadInWindowsAnswersAsItsMapping) {
  TempDir dir;
  std::string text = read_file(stream(dir, "s.txt", 4000));
  ASSERT_GT(text.size(), std::size_t{3} << 20);  // several 1 MiB windows
  const std::size_t cut = text.find("\n", text.size() / 3) + 1;
  text.erase(cut, text.find('\n', cut) + 1 - cut);  // an edge line gone
  text[text.find("\n", 2 * text.size() / 3) + 1] = '\0';
  const std::string s = dir.write("damaged.txt", text);
  const auto windows = run_grundy({"batch", "-q", s});
  const auto mapped = test_support::run_shell("\"$GRUNDY\" batch -q - < '" + s + "'");
  EXPECT_EQ(windows.exit_code, 1);
  EXPECT_EQ(mapped.exit_code, 1);
  std::string want = mapped.out, got = windows.out;
  for (std::size_t at; (at = got.find(s)) != std::string::npos;) got.replace(at, s.size(), "<stdin>");
  EXPECT_EQ(lines(got).size(), 4000u);
  EXPECT_EQ(got, want);
  EXPECT_NE(got.find("error"), std::string::npos);
}

// A named pipe given by its path is read as it is opened, never opened
// again for windows (that would wait for a writer that has gone: the
// timeout turns such a hang into a failure).
TEST(Batch, ANamedPipeGivenByPathIsReadOnce) {
  TempDir dir;
  const std::string s = stream(dir, "s.txt", 50), fifo = dir.file("fifo");
  const auto r = test_support::run_shell("mkfifo '" + fifo + "' && (cat '" + s + "' > '" + fifo +
                                         "' &) && timeout 60 \"$GRUNDY\" batch -q '" + fifo + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string want = run_grundy({"batch", "-q", s}).out;
  for (std::size_t at; (at = want.find(s)) != std::string::npos;) want.replace(at, s.size(), fifo);
  EXPECT_EQ(r.out, want);
}

TEST(Batch, JsonLinesAndVerify) {
  TempDir dir;
  const std::string s = stream(dir, "s.txt", 5);
  const auto r = run_grundy({"batch", "-q", "--json", "--verify", "--move", s});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& line : lines(r.out))
    for (const char* key : {"\"name\": ", "\"verdict\": ", "\"xor\": ", "\"n\": 40", "\"m\": 150", "\"k\": 5",
                            "\"depth\": ", "\"microseconds\": ", "\"move\": "})
      EXPECT_NE(line.find(key), std::string::npos) << key << " in " << line;
}

TEST(Batch, SummaryOnStderr) {
  TempDir dir;
  const auto r = run_grundy({"batch", stream(dir, "s.txt", 3)});
  EXPECT_NE(r.err.find("grundy: batch: 3 instances: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("instances/s"), std::string::npos);
}

}  // namespace
}  // namespace grundy
