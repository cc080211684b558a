// The pieces of a batch that the one-process run and the distributed dealer
// (dist/batch.hpp) share: the items the inputs are split into, the producer
// that splits them in input order, and the solve of one item.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grundy/core/sg_values.hpp"
#include "grundy/formats/game_loader.hpp"
#include "grundy/formats/instance_stream.hpp"
#include "grundy/jobs/batch.hpp"
#include "grundy/solve/level_solver.hpp"

namespace grundy {

/// One thread's reusable arrays: after the first few instances, parsing and
/// solving allocate nothing.
struct Workspace {
  Workspace() { level.wants_depth = true; }  // each instance's depth is reported
  LoadScratch load;
  LevelScratch level;
  SgValues sg;
};

/// Bytes that items point into, and what keeps them alive: a mapped file,
/// or one window of a stream read a window at a time.
struct Source {
  std::string name;
  std::string_view bytes;
  std::shared_ptr<const void> keep;
};

struct Item {
  std::shared_ptr<const Source> file{};  // null: the input could not be opened or listed
  std::string open_error{};
  InstanceSpan span{};
  std::string note{};  // appended to the instance's error
  std::uint64_t line = 0;
  std::string framing_error{};  // the framer's verdict on a damaged region (not parsed)
};

/// Solves one item into `r` (whose name, path, index and line are set):
/// with `pc` threads, the engine and checks `o` asks for.
void solve_item(const Item& item, InstanceResult& r, Workspace& ws, const BatchOptions& o, const ParallelConfig& pc);

/// The bytes of all inputs, for progress; 0 when one is a stream (its size
/// is known only at its end).
std::uint64_t total_input_bytes(const std::vector<BatchInput>& inputs);

/// Turns the inputs into items, one file at a time, in input order. A file
/// stays mapped while an item of it is in flight (the items share it), so a
/// batch of 100,000 files holds only a few mappings at a time; a stream on
/// stdin, and a file whose instances are small, is read a window at a time.
class ItemProducer {
 public:
  ItemProducer(const std::vector<BatchInput>& inputs, std::size_t stream_window)
      : inputs_(inputs), stream_window_(stream_window) {}

  /// The next item and its result's name, path and index, or false at the
  /// end of the inputs.
  bool next(Item& item, InstanceResult& where);
  /// False when next() would wait for a stream that has paused: the items
  /// at hand are then worth solving and answering first.
  bool ready() const;

 private:
  void place(const FramedInstance& here, bool only, Item& item, InstanceResult& where) const;
  void start_windows(WindowedFramer::Reader read, const std::string& name, WindowedFramer::Idle idle);
  bool refill();

  const std::vector<BatchInput>& inputs_;
  std::size_t stream_window_;
  std::size_t next_input_ = 0;
  std::shared_ptr<const Source> file_;  // the text file or stream window being framed
  std::optional<StreamFramer> framer_;
  std::optional<FramedInstance> lookahead_;  // its next instance, found early
  bool first_ = false;
  std::optional<WindowedFramer> windows_;  // stdin as a stream, or a file of small instances
  std::string windows_name_;               // its name in messages
  std::vector<FramedInstance> pending_;    // the current window's instances
  std::size_t pending_next_ = 0;
};

}  // namespace grundy
