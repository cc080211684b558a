// What this binary is: its version, commit, build and libraries. The one
// source for `grundy --version` and for the build fields of bench reports.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace grundy::cli {

/// The build's facts as report fields (key -> JSON value), in a fixed order:
/// grundy, commit, build, march, cxx_flags, compiler, onetbb, boost, cli11.
std::vector<std::pair<std::string, std::string>> build_facts();

/// The commit the binary was built from ("unknown" outside a git checkout,
/// "-dirty" with uncommitted changes); $GRUNDY_COMMIT, when set, names it for
/// a binary carried away from its build (tools/measure/bundle.sh).
std::string source_commit();

/// `grundy --version`: a line for grundy and one per fact, or (json) one
/// JSON object with "schema": 1.
std::string version_text(bool json);

}  // namespace grundy::cli
