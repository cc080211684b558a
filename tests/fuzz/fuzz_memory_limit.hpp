// Shared by every fuzz target (each is its own executable): a valid header
// may ask for 10^9 nodes, and the engine refuses what exceeds its memory
// budget, which is kept well under libFuzzer's own RSS limit.
#pragma once

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("GRUNDY_MEMORY_LIMIT", "1G", 1);
  return 0;
}
