// libFuzzer target: the .gcsr loader. Any bytes must be rejected with an
// InputError or yield arrays that the engine can solve without reading out
// of bounds (ASan checks every access).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "grundy/formats/gcsr.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/level_solver.hpp"
#include "fuzz_memory_limit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  // A mapping is page-aligned; the fuzzer's buffer is not. Copy to an
  // aligned buffer of exactly `size` bytes, so ASan still sees every overrun.
  std::unique_ptr<char, decltype(&std::free)> buf(
      static_cast<char*>(std::aligned_alloc(64, (size + 63) / 64 * 64 + 64)), &std::free);
  std::memcpy(buf.get(), data, size);
  const std::string_view bytes(buf.get(), size);
  try {
    const GcsrGame g = read_gcsr(bytes, "fuzz", {1});
    if (g.game.graph.n <= 100000) level_sg(g.game.graph, {1}, nullptr, g.layers);
  } catch (const InputError&) {
  } catch (const std::exception&) {
    // CycleError from an unlayered file with a cycle: a clean answer too.
  }
  return 0;
}
