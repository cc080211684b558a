// grundy's Python module (_grundy; the package grundy wraps it): NumPy
// arrays in without a copy, the engine's own array out, the GIL released
// while oneTBB works, grundy::Error as ValueError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <grundy/grundy.hpp>

#include <optional>
#include <string>

namespace py = pybind11;

namespace {

// A Graph and the Python objects whose buffers it views.
struct PyGraph {
  grundy::Graph graph;
  py::object keep;  // the NumPy arrays (or nothing, when the Graph owns its arrays)
};

std::string dtype_name(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

// Views indptr and indices as they are (ids of 4 or 8 bytes: the engine
// reads either in place); any other dtype is a TypeError, never a silent
// copy of the indices.
PyGraph view(const py::array& indptr, const py::array& indices, const std::string& name) {
  if (indptr.ndim() != 1 || indices.ndim() != 1) throw py::type_error("indptr and indices must be 1-D arrays");
  if (!(indptr.flags() & py::array::c_style) || !(indices.flags() & py::array::c_style))
    throw py::type_error("indptr and indices must be contiguous (numpy.ascontiguousarray)");
  const char kind = indices.dtype().kind();
  const auto bytes = indices.itemsize();
  if (!((kind == 'i' || kind == 'u') && (bytes == 4 || bytes == 8)))
    throw py::type_error("indices of dtype " + dtype_name(indices) +
                         ": grundy reads node ids in place as int32, uint32, int64 or uint64; convert them once "
                         "yourself (indices.astype(numpy.int32)) if every id fits");
  const char pkind = indptr.dtype().kind();
  const auto pbytes = indptr.itemsize();
  if (!((pkind == 'i' || pkind == 'u') && (pbytes == 4 || pbytes == 8)))
    throw py::type_error("indptr of dtype " + dtype_name(indptr) + ": int32, uint32, int64 or uint64 please");
  const std::size_t n1 = static_cast<std::size_t>(indptr.size()), m = static_cast<std::size_t>(indices.size());
  const bool signed_ids = kind == 'i';
  // Offsets and ids of the widths given, both of the ids' signedness.
  const auto go = [&]<class Narrow, class Wide>() {
    const auto typed = [&]<class O, class T>() {
      return grundy::Graph::view(std::span<const O>(static_cast<const O*>(indptr.data()), n1),
                                 std::span<const T>(static_cast<const T*>(indices.data()), m), name);
    };
    if (pbytes == 8) return bytes == 8 ? typed.template operator()<Wide, Wide>() : typed.template operator()<Wide, Narrow>();
    return bytes == 8 ? typed.template operator()<Narrow, Wide>() : typed.template operator()<Narrow, Narrow>();
  };
  grundy::Graph g = signed_ids ? go.template operator()<std::int32_t, std::int64_t>()
                               : go.template operator()<std::uint32_t, std::uint64_t>();
  // Signed and unsigned offsets of one width: the Graph API pairs them with
  // ids of the same signedness, and both are checked non-negative.
  return {std::move(g), py::make_tuple(indptr, indices)};
}

grundy::Options options_of(py::object threads, const std::string& engine, bool loopy, bool verify) {
  grundy::Options o;
  if (!threads.is_none()) {
    const long t = threads.cast<long>();
    if (t < 1) throw py::value_error("threads must be at least 1 (None: every core)");
    o.threads = static_cast<unsigned>(t);
  }
  if (engine == "auto") o.engine = grundy::Engine::automatic;
  else if (engine == "level") o.engine = grundy::Engine::level;
  else if (engine == "serial") o.engine = grundy::Engine::serial;
  else if (engine == "bgl") o.engine = grundy::Engine::bgl;
  else throw py::value_error("engine \"" + engine + "\": auto, level, serial or bgl");
  o.loopy = loopy;
  o.verify = verify;
  return o;
}

// The engine's array as a NumPy array that owns it (no copy).
py::array values_array(grundy::Values v) {
  auto* held = new grundy::Values(std::move(v));
  py::capsule owner(held, [](void* p) { delete static_cast<grundy::Values*>(p); });
  const auto n = static_cast<py::ssize_t>(held->size());
  if (held->width() == 16)
    return py::array(py::dtype::of<std::uint16_t>(), {n}, {}, held->data(), owner);
  return py::array(py::dtype::of<std::uint32_t>(), {n}, {}, held->data(), owner);
}

// A view of the Graph's own arrays, kept alive by the Python Graph object.
template <class T>
py::array array_over(std::span<const T> s, py::handle owner) {
  return py::array(py::dtype::of<T>(), {static_cast<py::ssize_t>(s.size())}, {}, s.data(), owner);
}

std::vector<std::uint32_t> token_list(const py::object& tokens) { return tokens.cast<std::vector<std::uint32_t>>(); }

py::object move_of(const std::optional<grundy::TokenMove>& m) {
  if (!m) return py::none();
  return py::make_tuple(m->token, m->from, m->to);
}

}  // namespace

PYBIND11_MODULE(_grundy, m) {
  m.doc() = "grundy's engine (see the grundy package)";
  py::register_exception<grundy::Error>(m, "Error", PyExc_ValueError);
  m.attr("INFINITE") = grundy::Values::infinite;
  m.attr("__version__") = grundy::version();

  py::class_<PyGraph>(m, "Graph")
      .def(py::init([](const py::array& indptr, const py::array& indices, const std::string& name) {
             return view(indptr, indices, name);
           }),
           py::arg("indptr"), py::arg("indices"), py::arg("name") = "<graph>")
      .def_property_readonly("nodes", [](const PyGraph& g) { return g.graph.nodes(); })
      .def_property_readonly("edges", [](const PyGraph& g) { return g.graph.edges(); })
      .def_property_readonly("name", [](const PyGraph& g) { return g.graph.name(); })
      .def_property_readonly("indptr", [](py::object self) {
        return array_over(self.cast<const PyGraph&>().graph.offsets(), self);
      })
      .def_property_readonly("indices", [](py::object self) {
        const grundy::Graph& g = self.cast<const PyGraph&>().graph;
        return g.id_bits() == 64 ? array_over(g.wide_targets(), self) : array_over(g.targets(), self);
      })
      .def_property_readonly("tokens", [](py::object self) {
        return array_over(self.cast<const PyGraph&>().graph.tokens(), self);
      })
      .def_property_readonly("targets_address", [](const PyGraph& g) {
        const void* at = g.graph.id_bits() == 64 ? static_cast<const void*>(g.graph.wide_targets().data())
                                                 : static_cast<const void*>(g.graph.targets().data());
        return reinterpret_cast<std::uintptr_t>(at);
      })
      .def_property_readonly("source", [](const PyGraph& g) {
        const grundy::GraphSource s = g.graph.source();
        py::dict d;
        d["format"] = s.format;
        d["bytes"] = s.bytes;
        d["layered"] = s.layered;
        d["degree_runs"] = s.degree_runs;
        return d;
      })
      .def_property_readonly("original_ids", [](py::object self) {
        return array_over(self.cast<const PyGraph&>().graph.original_ids(), self);
      })
      .def("__repr__", [](const PyGraph& g) {
        return "<grundy.Graph " + g.graph.name() + ": " + std::to_string(g.graph.nodes()) + " nodes, " +
               std::to_string(g.graph.edges()) + " edges>";
      });

  m.def(
      "load",
      [](const std::string& path, bool loopy) {
        py::gil_scoped_release free;
        return PyGraph{grundy::Graph::load(path, loopy), py::none()};
      },
      py::arg("path"), py::arg("loopy") = false);
  m.def(
      "gen",
      [](const std::string& shape, std::uint64_t nodes, std::uint64_t edges, std::uint64_t tokens, std::uint64_t seed,
         std::uint64_t layers, py::object threads) {
        const unsigned t = threads.is_none() ? 0 : threads.cast<unsigned>();
        py::gil_scoped_release free;
        return PyGraph{grundy::Graph::generate(shape, nodes, edges, tokens, seed, layers, t), py::none()};
      },
      py::arg("shape"), py::arg("nodes"), py::arg("edges"), py::arg("tokens") = 10, py::arg("seed") = 1,
      py::arg("layers") = 8, py::arg("threads") = py::none());
  m.def(
      "save",
      [](const PyGraph& g, const std::string& path, bool layered, bool loopy, py::object threads) {
        const grundy::Options o = options_of(threads, "auto", loopy, false);
        py::gil_scoped_release free;
        return g.graph.save(path, {.layered = layered, .loopy = loopy}, o);
      },
      py::arg("graph"), py::arg("path"), py::arg("layered") = false, py::arg("loopy") = false,
      py::arg("threads") = py::none());
  m.def(
      "layering",
      [](const PyGraph& g, py::object threads) {
        const grundy::Options o = options_of(threads, "auto", false, false);
        std::optional<grundy::Layering> layers;
        {
          py::gil_scoped_release free;
          layers = grundy::layering(g.graph, o);
        }
        // Both arrays view the Layering, which the capsule keeps alive.
        auto* held = new grundy::Layering(std::move(*layers));
        py::capsule owner(held, [](void* p) { delete static_cast<grundy::Layering*>(p); });
        return py::make_tuple(array_over(held->order(), owner), array_over(held->begin(), owner));
      },
      py::arg("graph"), py::arg("threads") = py::none());
  m.def(
      "sg",
      [](const PyGraph& g, py::object threads, const std::string& engine, bool loopy, bool verify) {
        const grundy::Options o = options_of(threads, engine, loopy, verify);
        grundy::Values v = [&] {
          py::gil_scoped_release free;  // other Python threads run while oneTBB works
          return grundy::sg(g.graph, o);
        }();
        return values_array(std::move(v));
      },
      py::arg("graph"), py::arg("threads") = py::none(), py::arg("engine") = "auto", py::arg("loopy") = false,
      py::arg("verify") = false);
  m.def(
      "outcomes",
      [](const PyGraph& g, py::object threads) {
        const grundy::Options o = options_of(threads, "auto", true, false);
        std::optional<grundy::Outcomes> out;
        {
          py::gil_scoped_release free;
          out = grundy::outcomes(g.graph, o);
        }
        // One byte a node, the letters of --outcome-out: W, L, D.
        py::array_t<char> letters(static_cast<py::ssize_t>(out->size()));
        char* at = static_cast<char*>(letters.mutable_data());
        for (std::size_t u = 0; u < out->size(); ++u) {
          const grundy::Verdict v = (*out)[u];
          at[u] = v == grundy::Verdict::win ? 'W' : v == grundy::Verdict::lose ? 'L' : 'D';
        }
        return letters.view("S1");
      },
      py::arg("graph"), py::arg("threads") = py::none());
  m.def(
      "solve",
      [](const PyGraph& g, const py::object& tokens, py::object threads, const std::string& engine, bool loopy,
         bool verify) {
        const grundy::Options o = options_of(threads, engine, loopy, verify);
        const std::vector<std::uint32_t> t = tokens.is_none()
                                                 ? std::vector<std::uint32_t>(g.graph.tokens().begin(), g.graph.tokens().end())
                                                 : token_list(tokens);
        grundy::Answer a;
        {
          py::gil_scoped_release free;
          a = grundy::solve(g.graph, t, o);
        }
        return py::make_tuple(grundy::verdict_word(a.verdict), a.nim_sum, move_of(a.move));
      },
      py::arg("graph"), py::arg("tokens") = py::none(), py::arg("threads") = py::none(), py::arg("engine") = "auto",
      py::arg("loopy") = false, py::arg("verify") = false);
  m.def(
      "batch",
      [](const std::vector<std::string>& paths, py::object threads, const std::string& engine, bool loopy, bool verify) {
        const grundy::Options o = options_of(threads, engine, loopy, verify);
        std::vector<grundy::BatchResult> rs;
        {
          py::gil_scoped_release free;
          rs = grundy::batch(paths, o);
        }
        py::list out;
        for (const auto& r : rs) {
          py::dict d;
          const auto known = [](bool k, std::uint64_t v) { return k ? py::object(py::int_(v)) : py::none(); };
          d["name"] = r.name;
          d["path"] = r.path;
          d["index"] = known(r.index != 0, r.index);
          d["line"] = known(r.line != 0, r.line);
          d["verdict"] = r.verdict ? py::object(py::str(grundy::verdict_word(*r.verdict))) : py::none();
          d["error"] = r.error.empty() ? py::none() : py::object(py::str(r.error));
          d["mismatch"] = r.mismatch;
          d["xor"] = r.nim_sum;
          d["n"] = known(r.parsed, r.nodes);
          d["m"] = known(r.parsed, r.edges);
          d["k"] = known(r.parsed, r.tokens);
          d["depth"] = known(r.depth.has_value(), r.depth.value_or(0));
          d["microseconds"] = r.microseconds;
          d["move"] = move_of(r.move);
          out.append(d);
        }
        return out;
      },
      py::arg("paths"), py::arg("threads") = py::none(), py::arg("engine") = "auto", py::arg("loopy") = false,
      py::arg("verify") = false);
}
