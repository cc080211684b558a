// Streams of concatenated classic instances, and where each instance starts.
//
// An instance delimits itself by its counts ("N M K", then 2M + K numbers),
// so a missing or extra number moves every later boundary. Counting alone
// cannot notice that, and then later instances would be given verdicts that
// are not their own. StreamFramer therefore also reads the stream's layout:
//
// - A stream whose first line holds at most four tokens (or, its first
//   instance damaged, whose first lines nearly all do) is *line-laid*: every
//   header is three numbers alone on a line, and every instance ends at a
//   line end. An instance is framed only when its count ends at a line end
//   and the next non-blank line is a header whose own count also ends at a
//   line end (or the text ends). Anything else is a bad region: it runs to the
//   next line from which two instances frame this way and the first parses;
//   the region is reported as one instance, parsed for its error.
// - A bad region holds exactly one instance when its numbers are within
//   kSlack of what its header promises and no line inside it could be a
//   header of its own (plus the one case of a clean instance followed by a
//   damaged header). Otherwise the count of instances is lost: later
//   instances are still solved, but have no index (the batch names them by
//   their header's line), so no verdict is ever filed under another's number.
// - Any other stream is *free-form* (several instances share lines) and is
//   split by counts alone; a miscount there cannot be noticed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grundy {

/// An instance's bytes: text[begin, end).
struct InstanceSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The instances of text[from, ...) split by their counts alone. An instance
/// whose header is malformed, or that runs out of numbers, extends to the end
/// of the text (parsing it reports the error) and ends the list.
std::vector<InstanceSpan> split_instances(std::string_view text, std::size_t from = 0);

/// One instance of a stream, as placed by StreamFramer.
struct FramedInstance {
  InstanceSpan span;
  std::uint64_t index = 0;  ///< 1-based position in the stream; 0 once the count is lost
  std::uint64_t line = 0;   ///< the line its first byte is on
  std::string note;         ///< said after its error: why later instances have no index
  /// A region whose header is split over lines inside a stream: reported as
  /// this error (without the "<file>:<line>: " prefix), never parsed, since
  /// the parser would take the header's missing numbers from the body.
  std::string error;
  /// False for the second of two instances placed at once (a damaged header
  /// right after a whole instance): framing that starts at it would place it
  /// on its own, so a window of the stream never starts there.
  bool resumable = true;
};

/// Places the instances of a stream one at a time, in order (see above).
class StreamFramer {
 public:
  explicit StreamFramer(std::string_view text);

  /// Where a window of a longer stream starts: text[0] is the first byte of
  /// an instance that an earlier window placed (on `line`, numbered `index`,
  /// 0 once lost), in a stream whose layout that window read.
  struct Resume {
    bool line_laid = false;
    std::uint64_t index = 1;
    std::uint64_t line = 1;
  };
  StreamFramer(std::string_view text, const Resume& resume);
  /// The text is a window that the stream goes on past, whose instances
  /// from the first whose placement looks at its end are framed again in
  /// the next window: that one is given as it starts, and it is the last.
  void stop_at_end() { stop_at_end_ = true; }
  std::optional<FramedInstance> next();
  bool line_laid() const { return line_laid_; }

  /// The lines after the first that the layout is read from.
  static constexpr unsigned kLook = 64;
  /// True when `text` (a stream's start) holds every line the layout is read
  /// from, each ended: a window that does not must grow before framing.
  static bool sees_layout(std::string_view text);

  /// A bad region's numbers may differ from its header's promise by this
  /// much and still be one instance: a missing or extra edge, or token.
  static constexpr std::uint64_t kSlack = 3;

 private:
  // How an instance whose header is on a line ends by its counts.
  struct Frame {
    bool header = false;  // the line is three numbers
    std::uint64_t n = 0, m = 0, promised = 0;
    std::size_t body = 0;  // the header line's end
    bool clean = false;    // the promised numbers are there, and the last ends its line
    std::size_t end = 0;   // after the last number
    std::size_t next = 0;  // the next line with a token (the text's size: none)
    // The first line of three tokens after the header (SIZE_MAX: none).
    std::size_t first_three = SIZE_MAX;
  };
  bool looks_line_laid() const;
  Frame frame(std::size_t line) const;
  Frame whole_frame(std::size_t line) const;
  bool frames_clean(std::size_t line) const;
  bool ids_fit(const Frame& f) const;
  bool is_anchor(std::size_t line) const;
  std::size_t find_anchor(std::size_t after_line);
  bool no_hidden_header(std::size_t after_line, std::size_t end) const;
  bool body_shaped(std::size_t line, std::uint64_t count, std::size_t end) const;
  bool damaged_header(std::size_t line, std::size_t end) const;
  bool swallows(std::size_t line, const Frame& f) const;
  FramedInstance make(std::size_t begin, std::size_t end);
  FramedInstance make_damaged(std::size_t begin, std::size_t end);
  std::optional<FramedInstance> bad_region(std::size_t line, const Frame& f, bool ambiguous);
  std::optional<FramedInstance> next_line_laid();
  std::optional<FramedInstance> placed_at_end(std::size_t begin, std::size_t end);
  std::optional<FramedInstance> next_free_form();

  std::string_view text_;
  std::size_t pos_ = 0;       // where the next instance starts (a line start when line-laid)
  std::uint64_t index_ = 1;   // the next instance's index; 0: lost
  std::uint64_t line_ = 1;    // the line of pos_, counted incrementally
  std::size_t line_pos_ = 0;  // the byte line_ was counted up to
  bool line_laid_ = false;
  bool resumed_ = false;  // text_ is a later window of a stream, never the whole of it
  bool done_ = false;
  bool stop_at_end_ = false;
  std::optional<FramedInstance> queued_;  // the second of two instances placed at once
  std::size_t anchor_from_ = SIZE_MAX;    // find_anchor's last question and answer
  std::size_t anchor_ = SIZE_MAX;
  std::size_t cached_line_ = SIZE_MAX;  // the last lookahead's frame, reused as the next instance's
  Frame cached_;
};

/// A stream that cannot be mapped (a pipe), framed a window at a time, so
/// that a reader holds a bounded part of it, never all of it: each window is
/// framed whole, and the instances from the first whose placement looked at
/// the window's end (where reading stopped, not where the stream ends) are
/// framed again at the start of the next window, with more bytes behind
/// them. The instances come out exactly as StreamFramer places them in the
/// whole stream (fuzz_stream checks it with windows of 1 to 97 bytes); a
/// window grows while none of its instances is settled, so an instance is
/// never cut. Bytes no text instance holds (and a .gcsr, or compressed data,
/// which a stream cannot be) are an InputError as soon as they arrive, and
/// so is a window past the memory budget.
class WindowPool;

class WindowedFramer {
 public:
  /// Fills `into` with up to `room` bytes; returns 0 at the stream's end.
  using Reader = std::function<std::size_t(char* into, std::size_t room)>;
  /// True when no byte is ready to read now: the stream has paused.
  using Idle = std::function<bool()>;

  /// `name` is the stream's in messages ("<stdin>"). With `idle`, a pause
  /// in the stream ends the window early: what has arrived is framed, and
  /// when its last instance is whole by its counts with nothing but
  /// whitespace after it, every instance in it is settled, so that a
  /// producer's instances are answered before it writes more. (The one
  /// difference from framing the whole stream: bytes after a pause that
  /// are not an instance are their own error, not the previous instance's.)
  WindowedFramer(Reader read, std::string name, std::size_t window, Idle idle = {});
  ~WindowedFramer();

  /// A file read a window at a time: its bytes go to the parser as they
  /// lie, as when it is mapped (its format was told from its first bytes),
  /// instead of being refused unless they are text.
  void take_any_bytes() { text_only_ = false; }

  /// The next instances, their spans within `text` (a window, shared with
  /// whoever parses them); false at the end of the stream.
  bool next(std::vector<FramedInstance>& out, std::shared_ptr<const std::string>& text);

  /// True when the stream ended in the first window that placed anything
  /// (names and the whitespace-only case depend on it).
  bool whole_in_one() const { return done_ && !resume_; }

 private:
  void read_until(std::size_t target, bool may_pause = false);
  std::size_t read_whole_instances();
  void check_text(std::size_t from);
  std::shared_ptr<const std::string> share_carry();
  bool settle_at_pause(const StreamFramer& framer, std::vector<FramedInstance>& out,
                       std::shared_ptr<const std::string>& text);

  Reader read_;
  Idle idle_;
  std::string name_;
  std::size_t window_;
  std::uint64_t consumed_ = 0;  // bytes of the stream before carry_
  std::uint64_t line_ = 1;      // the line carry_[0] is on
  std::size_t checked_ = 0;     // carry_'s bytes checked as text
  std::string carry_;           // bytes read and not yet framed for good
  std::vector<char> staging_;   // what one read gets, appended to carry_
  std::shared_ptr<WindowPool> pool_;
  std::optional<StreamFramer::Resume> resume_;
  bool eof_ = false, done_ = false;
  bool text_only_ = true;
  bool paused_ = false;  // the last read_until stopped at a pause in the stream
};

}  // namespace grundy
