// libFuzzer target: the classic text parser, then every engine on what it
// accepts. Any input must give a game or an InputError; a game must give the
// same SG values from the level engine and the reference solver, or a
// CycleError from both.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "grundy/formats/classic_text.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "fuzz_memory_limit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  OwnedGame game;
  try {
    game = parse_classic(text, {"fuzz"});
  } catch (const InputError&) {
    return 0;
  }
  if (game.n > 100000) return 0;  // a valid but huge N: parsing was the point
  bool level_cycle = false, serial_cycle = false;
  SgValues level, serial;
  try {
    level = level_sg(game.graph(), {1});
  } catch (const CycleError&) {
    level_cycle = true;
  }
  try {
    serial = serial_sg(game.graph());
  } catch (const CycleError&) {
    serial_cycle = true;
  }
  if (level_cycle != serial_cycle) __builtin_trap();
  if (!level_cycle && level.to_vector() != serial.to_vector()) __builtin_trap();
  return 0;
}
