// libFuzzer target: the classic text parser, then every engine on what it
// accepts. Any input must give a game or an InputError; a game must give the
// same SG values from the level engine and the reference solver, or a
// CycleError from both. Parsed again with self-loops allowed (--loopy), the
// loopy engine's values must meet Fraenkel's conditions, agree with the
// retrograde outcomes, and equal the SG values where there is no cycle.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "grundy/formats/classic_text.hpp"
#include "grundy/core/cycle.hpp"
#include "grundy/core/input_error.hpp"
#include "grundy/solve/level_solver.hpp"
#include "grundy/solve/loopy_solver.hpp"
#include "grundy/solve/serial_solver.hpp"
#include "fuzz_memory_limit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  OwnedGame loopy_game;
  try {
    loopy_game = parse_classic(text, {.source = "fuzz", .self_loops = true});
  } catch (const InputError&) {
    return 0;
  }
  if (loopy_game.n > 100000) return 0;  // a valid but huge N: parsing was the point
  const CsrView g = loopy_game.graph();
  const LoopyValues values = solve_loopy(g, {});
  const auto id = [](node_t u) { return std::uint64_t{u} + 1; };
  if (!verify_loopy(g, values, solve_outcomes(g, {}).of, {}, id).empty()) __builtin_trap();
  OwnedGame game;
  try {
    game = parse_classic(text, {"fuzz"});
  } catch (const InputError&) {
    return 0;  // a self-loop: an error without --loopy
  }
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
  if (level_cycle) return 0;
  const std::vector<sg_t> sg = level.to_vector();
  if (sg != serial.to_vector()) __builtin_trap();
  if (!std::equal(sg.begin(), sg.end(), values.value.begin(), values.value.end())) __builtin_trap();
  return 0;
}
