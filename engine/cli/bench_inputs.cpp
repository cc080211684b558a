#include "bench_inputs.hpp"

#include <regex.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "command.hpp"
#include "grundy/core/input_error.hpp"

namespace grundy::cli {
namespace {

std::uint64_t count_value(const std::string& key, const std::string& value) {
  std::string why;
  const auto v = parse_count(value, why);
  if (!v) throw std::invalid_argument(key + "=" + value + " " + (why.empty() ? "is not a count" : why));
  return *v;
}

bool wanted(const std::vector<std::string>& list, const std::string& x) {
  return list.empty() || std::find(list.begin(), list.end(), x) != list.end();
}

std::string valid_names(const std::vector<ManifestEntry>& manifest) {
  std::string names;
  for (const auto& e : manifest) names += (names.empty() ? "" : ", ") + e.name;
  return names;
}

bool benchable_file(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".gcsr" || ext == ".txt" || ext == ".in" || ext == ".el";
}

BenchInput generated(const std::string& name, const std::string& kind, const GenRequest& g, const std::string& cache) {
  BenchInput in;
  in.name = name;
  in.kind = kind;
  in.file = cache_file(cache, g);
  in.gen = g;
  in.generator = gen_command(g, in.file);
  return in;
}

}  // namespace

const char* embedded_manifest() {
  return
#include "bench_manifest.inc"
      ;
}

std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& source) {
  std::vector<ManifestEntry> out;
  std::set<std::string> names;
  std::istringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const std::string where = source + ":" + std::to_string(line_no) + ": ";
    std::istringstream f(line);
    ManifestEntry e;
    std::string shape, layered;
    f >> e.name >> e.size >> shape >> e.spec.nodes >> e.spec.edges >> e.spec.tokens >> e.spec.seed >> e.spec.layers >>
        layered;
    if (!f || (layered != "yes" && layered != "no")) throw InputError(where + "expected 9 tab-separated fields");
    try {
      e.spec.shape = parse_shape(shape);
      check_spec(e.spec);  // sizes past what any file holds are refused here, with the row's line
    } catch (const std::invalid_argument& err) {
      throw InputError(where + err.what());
    }
    e.layered = layered == "yes";
    if (!names.insert(e.name).second) throw InputError(where + "dataset \"" + e.name + "\" is named twice");
    out.push_back(e);
  }
  return out;
}

GenRequest parse_gen_spec(const std::string& text) {
  if (text.rfind("gen:", 0) != 0) throw std::invalid_argument("a generator spec starts with gen:");
  GenRequest g;
  std::istringstream parts(text.substr(4));
  std::string part;
  bool first = true, nodes = false;
  while (std::getline(parts, part, ',')) {
    const auto eq = part.find('=');
    const std::string key = part.substr(0, eq), value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (first && eq == std::string::npos) {
      g.spec.shape = parse_shape(key);
    } else if (key == "shape") {
      g.spec.shape = parse_shape(value);
    } else if (key == "nodes" || key == "n") {
      g.spec.nodes = count_value(key, value);
      nodes = true;
    } else if (key == "edges" || key == "m") {
      g.spec.edges = count_value(key, value);
    } else if (key == "tokens" || key == "k") {
      g.spec.tokens = count_value(key, value);
    } else if (key == "seed" || key == "s") {
      g.spec.seed = count_value(key, value);
    } else if (key == "layers") {
      g.spec.layers = count_value(key, value);
    } else if (key == "layered" && (value.empty() || value == "yes" || value == "no")) {
      g.layered = value != "no";
    } else {
      throw std::invalid_argument("\"" + part + "\" in " + text +
                                  ": the keys are nodes, edges, tokens, seed, layers and layered");
    }
    first = false;
  }
  if (!nodes) throw std::invalid_argument(text + ": nodes=N is required");
  check_spec(g.spec);
  return g;
}

std::string gen_command(const GenRequest& g, const std::string& file) {
  const GenSpec& s = g.spec;
  return "grundy gen --shape " + std::string(shape_name(s.shape)) + " --nodes " + std::to_string(s.nodes) +
         " --edges " + std::to_string(s.edges) + " --tokens " + std::to_string(s.tokens) + " --seed " +
         std::to_string(s.seed) + " --layers " + std::to_string(s.layers) + (g.layered ? " --layered" : "") + " " +
         file;
}

std::string cache_file(const std::string& dir, const GenRequest& g) {
  const GenSpec& s = g.spec;
  return dir + "/" + std::string(shape_name(s.shape)) + "-n" + std::to_string(s.nodes) + "-m" +
         std::to_string(s.edges) + "-k" + std::to_string(s.tokens) + "-s" + std::to_string(s.seed) + "-l" +
         std::to_string(s.layers) + (g.layered ? "-layered" : "") + ".g" + std::to_string(kGeneratorVersion) + ".gcsr";
}

std::string default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::string(xdg) + "/grundy";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/grundy";
  return ".grundy-cache";
}

std::vector<BenchInput> instances_of(const BenchInput& in, std::size_t count, const std::string& cache) {
  if (!in.gen) return {in};
  std::vector<BenchInput> out{in};
  for (std::size_t i = 1; i < count; ++i) {
    GenRequest g = *in.gen;
    g.spec.seed += i;
    BenchInput next = generated(in.name, in.kind, g, cache);
    next.size = in.size;
    out.push_back(std::move(next));
  }
  return out;
}

std::vector<BenchInput> resolve_inputs(const InputSelection& select, const std::vector<ManifestEntry>& manifest) {
  std::vector<BenchInput> out;
  const auto from_manifest = [&](const ManifestEntry& e) {
    BenchInput in = generated(e.name, "manifest", {e.spec, e.layered}, select.cache);
    in.size = e.size;
    out.push_back(in);
  };
  for (const std::string& arg : select.args) {
    if (arg.rfind("gen:", 0) == 0) {
      try {
        out.push_back(generated(arg.substr(4), "gen", parse_gen_spec(arg), select.cache));
      } catch (const std::invalid_argument& e) {
        throw InputError(std::string("bench: ") + e.what());
      }
      continue;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg, ec))
        if (entry.is_regular_file() && benchable_file(entry.path())) files.push_back(entry.path());
      if (ec) throw InputError(arg + ": cannot list the folder: " + ec.message());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) out.push_back({.name = f.filename().string(), .kind = "file", .file = f.string()});
      continue;
    }
    if (std::filesystem::exists(arg, ec)) {
      out.push_back({.name = std::filesystem::path(arg).filename().string(), .kind = "file", .file = arg});
      continue;
    }
    const auto e = std::find_if(manifest.begin(), manifest.end(), [&](const auto& m) { return m.name == arg; });
    if (e == manifest.end())
      throw InputError(arg + ": no such file, folder or dataset (a gen: spec, or one of " + valid_names(manifest) +
                       ")");
    from_manifest(*e);
  }
  if (!select.args.empty() && select.filter.empty() && select.names.empty()) return out;
  // POSIX extended regular expressions, as grep -E reads them.
  std::unique_ptr<regex_t, void (*)(regex_t*)> filter(nullptr, [](regex_t* r) {
    ::regfree(r);
    delete r;
  });
  if (!select.filter.empty()) {
    auto compiled = std::make_unique<regex_t>();
    if (const int err = ::regcomp(compiled.get(), select.filter.c_str(), REG_EXTENDED | REG_NOSUB); err != 0) {
      char why[256];
      ::regerror(err, compiled.get(), why, sizeof why);
      throw InputError("--filter " + select.filter + ": not a regular expression: " + why);
    }
    filter.reset(compiled.release());
  }
  const auto matches = [&](const std::string& name) {
    return filter == nullptr || ::regexec(filter.get(), name.c_str(), 0, nullptr, 0) == 0;
  };
  for (const std::string& name : select.names)
    if (std::none_of(manifest.begin(), manifest.end(), [&](const auto& m) { return m.name == name; }))
      throw InputError("--datasets " + name + ": no such dataset (one of " + valid_names(manifest) + ")");
  // Sizes default to small only when nothing else narrows the choice.
  const std::vector<std::string> sizes =
      select.sizes.empty() && !filter && select.names.empty() ? std::vector<std::string>{"small"} : select.sizes;
  for (const auto& e : manifest)
    if (wanted(sizes, e.size) && wanted(select.names, e.name) && matches(e.name)) from_manifest(e);
  return out;
}

std::string list_manifest(const std::vector<ManifestEntry>& manifest, const std::string& cache) {
  std::string out = "name                 size    shape       nodes         edges       layered  file      cached\n";
  for (const auto& e : manifest) {
    const std::uint64_t bytes = 8 * (e.spec.nodes + 1) + 4 * generated_edges(e.spec) + 4 * e.spec.tokens;
    char size[32];
    std::snprintf(size, sizeof size, bytes >= (1u << 30) ? "%.1f GB" : "%.0f MB",
                  static_cast<double>(bytes) / (bytes >= (1u << 30) ? 1e9 : 1e6));
    char line[256];
    std::error_code ec;
    std::snprintf(line, sizeof line, "%-20s %-7s %-11s %-13llu %-11llu %-8s ~%-8s %s\n", e.name.c_str(), e.size.c_str(),
                  std::string(shape_name(e.spec.shape)).c_str(), static_cast<unsigned long long>(e.spec.nodes),
                  static_cast<unsigned long long>(generated_edges(e.spec)), e.layered ? "yes" : "no", size,
                  std::filesystem::exists(cache_file(cache, {e.spec, e.layered}), ec) ? "yes" : "no");
    out += line;
  }
  return out;
}

}  // namespace grundy::cli
