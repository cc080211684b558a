// libFuzzer target: the batch stream splitter, and the parser on every
// piece it cuts. Spans must tile the input in order, and each must parse or
// be rejected cleanly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "grundy/classic_text.hpp"
#include "grundy/input_error.hpp"
#include "grundy/instance_stream.hpp"
#include "fuzz_memory_limit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace grundy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t last = 0;
  OwnedGame game;
  Array<node_t> ids;
  for (const InstanceSpan& s : split_instances(text)) {
    if (s.begin < last || s.end < s.begin || s.end > size) __builtin_trap();
    last = s.end;
    try {
      parse_classic(text.substr(0, s.end), {"fuzz", 1, nullptr, s.begin}, game, ids);
    } catch (const InputError&) {
    }
  }
  return 0;
}
