// Per-node outputs of games with cycles, as text a line a node, nodes 1..N
// in the user's ids: generalized SG values ("3", "inf:0,2,5") and
// single-token outcomes (W, L or D).
#pragma once

#include <cstdint>
#include <span>

#include "grundy/core/csr_graph.hpp"
#include "grundy/core/loopy.hpp"
#include "grundy/io/output_file.hpp"

namespace grundy {

/// The most members of an infinite value's K written on its line; the rest
/// are counted ("inf:0,1,... (+N more)"). The verdict never needs them
/// printed: it asks K one membership question.
inline constexpr std::size_t kListedInfiniteSet = 1000;

/// Writes every node's value; returns how many lines shortened their K.
/// `original_ids` maps stored ids to the user's (empty when the same).
std::uint64_t write_loopy_values(OutputFile& out, const CsrView& graph, std::span<const sg_t> values,
                                 std::span<const node_t> original_ids);

/// Writes every node's outcome letter.
void write_outcomes(OutputFile& out, std::span<const Outcome> outcomes, std::span<const node_t> original_ids);

}  // namespace grundy
