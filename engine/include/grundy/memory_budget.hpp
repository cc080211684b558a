// Refusing allocations that cannot succeed.
//
// A header may announce a billion nodes in a 20-byte file. Before arrays are
// sized from such a count, the bytes they need are compared with the
// machine's physical memory, so the user gets a clear error instead of an
// out-of-memory kill half-way through.
#pragma once

#include <cstdint>
#include <string>

namespace grundy {

/// Physical memory of this machine in bytes.
std::uint64_t physical_memory_bytes();

/// Throws InputError "<where>: <what> needs X GiB, more than this machine's
/// Y GiB of memory" when `bytes` exceeds physical memory.
void require_memory(std::uint64_t bytes, const std::string& where, const std::string& what);

}  // namespace grundy
