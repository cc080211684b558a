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

/// What one process may plan to use: physical memory, or less when the
/// environment variable GRUNDY_MEMORY_LIMIT (bytes; K, M, G suffixes) says
/// so (the fuzz targets set 1G, so that a valid 10^9-node header is refused
/// instead of exhausting the fuzzer's memory).
std::uint64_t memory_budget_bytes();

/// 1.5 GiB, 120 MiB, 4.0 KiB, 12 bytes: a size in the unit that fits it.
std::string size_text(std::uint64_t bytes);

/// Throws InputError "<where>: <what> needs X GiB, more than the Y GiB of
/// memory this process may use" when `bytes` exceeds memory_budget_bytes().
void require_memory(std::uint64_t bytes, const std::string& where, const std::string& what);

}  // namespace grundy
