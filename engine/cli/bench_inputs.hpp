// What `grundy bench` runs on: the user's files and folders (classic text,
// .el, .gcsr), generator specs (`gen:kron,nodes=2^23,edges=1e8,seed=1`),
// and the datasets of the manifest that ships inside the binary, by name,
// size class or regular expression. Generated graphs are cached as .gcsr
// files named by their generator's exact parameters and version, so an
// edited manifest or a new generator never reuses a stale file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "grundy/gen/generator.hpp"

namespace grundy::cli {

/// A row of the manifest (datasets/bench.tsv, embedded at build time).
struct ManifestEntry {
  std::string name, size;
  GenSpec spec;
  bool layered = false;
};

/// The manifest compiled into this binary.
const char* embedded_manifest();
/// Parses a manifest (tab-separated rows, `#` comments); `source` names it in errors.
std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& source);

/// A generated graph: the spec and whether it is stored renumbered by layers.
struct GenRequest {
  GenSpec spec;
  bool layered = false;
};
/// "gen:SHAPE,nodes=N,edges=M[,tokens=K][,seed=S][,layers=L][,layered]" (n, m,
/// k, s as short keys; counts take 1e6, 10M, 2^20). Throws std::invalid_argument.
GenRequest parse_gen_spec(const std::string& text);
/// The `grundy gen` command that makes `file` from `g`.
std::string gen_command(const GenRequest& g, const std::string& file);
/// `dir`/SHAPE-nN-mM-kK-sS-lL[-layered].gV.gcsr: the parameters and the
/// generator's version in the name.
std::string cache_file(const std::string& dir, const GenRequest& g);
/// $XDG_CACHE_HOME/grundy, or ~/.cache/grundy.
std::string default_cache_dir();

/// One thing to benchmark.
struct BenchInput {
  std::string name{};               ///< what the report calls it
  std::string kind{};               ///< "manifest", "gen" or "file"
  std::string size{};               ///< the manifest's size class; "" otherwise
  std::string file{};               ///< what every trial loads
  std::optional<GenRequest> gen{};  ///< made into `file` when it is not cached yet
  std::string generator{};          ///< the `grundy gen` command, for generated inputs
};

struct InputSelection {
  std::vector<std::string> args;   ///< positional: files, folders, gen: specs, manifest names
  std::vector<std::string> sizes;  ///< manifest size classes (when no args and no filter: small)
  std::vector<std::string> names;  ///< --datasets
  std::string filter;              ///< --filter: a regular expression over manifest names
  std::string cache;               ///< folder for generated files
};

/// The graphs a run takes in turn: a generated input's spec with seeds
/// seed, seed+1, ..., seed+count-1, each its own cached file; a user's file
/// is one instance whatever the count.
std::vector<BenchInput> instances_of(const BenchInput& in, std::size_t count, const std::string& cache);

/// What the selection names, in order; throws InputError naming an unknown
/// dataset (with the valid names) or a missing file.
std::vector<BenchInput> resolve_inputs(const InputSelection& select, const std::vector<ManifestEntry>& manifest);

/// The manifest as a table (name, size, shape, nodes, edges, file size,
/// cached or not), for `grundy bench --list`.
std::string list_manifest(const std::vector<ManifestEntry>& manifest, const std::string& cache);

}  // namespace grundy::cli
