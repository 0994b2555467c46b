// tmap's Python module, the compiled half (`tmap._tmap`): the library's
// map, evaluate and compare over a matrix given as COO arrays (or a file,
// read here so that a .phases traffic keeps its phases) and a machine given
// as tm-map's strings; the pure-Python half (tmap/__init__.py) turns numpy
// arrays, scipy.sparse matrices and networkx graphs into those arrays.
// Mapping runs with the GIL released; progress reaches a Python callable
// with it held. Errors are the library's categories as Python exceptions
// (tmap.InputError, ..., all tmap.Error).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/compare.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/launch.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/report.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "tmap/version.hpp"

namespace py = pybind11;

namespace {

using Ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

/// The traffic: a file the library reads (no numpy needed: the arrays are
/// None), or COO arrays.
tmap::CommMatrix matrix_of(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                           const std::optional<Ints>& volumes, const std::string& path) {
  if (!path.empty()) return tmap::read_comm(path, std::nullopt, {});
  if (!rows || !cols || !volumes) throw tmap::ParameterError("traffic: no matrix and no file");
  if (n < 1 || n > tmap::kMaxRanks) {
    throw tmap::ParameterError("traffic: " + std::to_string(n) + " ranks; a matrix has 1 to " +
                               std::to_string(tmap::kMaxRanks));
  }
  if (rows->size() != cols->size() || rows->size() != volumes->size()) {
    throw tmap::ParameterError("traffic: rows, columns and volumes differ in length");
  }
  std::vector<tmap::CommEntry> entries;
  entries.reserve(static_cast<std::size_t>(rows->size()));
  const auto r = rows->unchecked<1>();
  const auto c = cols->unchecked<1>();
  const auto v = volumes->unchecked<1>();
  for (py::ssize_t k = 0; k < rows->size(); ++k) {
    if (v(k) < 0) {
      throw tmap::ParameterError("traffic: volume " + std::to_string(v(k)) + " from rank " + std::to_string(r(k)) +
                                 " to " + std::to_string(c(k)) + " is negative");
    }
    entries.push_back({static_cast<tmap::Rank>(r(k)), static_cast<tmap::Rank>(c(k)), v(k)});
  }
  try {
    return tmap::CommMatrix::from_entries(static_cast<tmap::Rank>(n), std::move(entries));
  } catch (const tmap::InputError& e) {
    throw tmap::ParameterError("traffic: " + std::string(e.what()));
  }
}

/// A library error in the words of the Python call: its arguments, not
/// tm-map's flags (machine, not -t; host_names, not --host-names).
std::string in_arguments(std::string message) {
  struct Word {
    std::string_view flag;
    std::string_view argument;
  };
  static constexpr std::array<Word, 9> kPrefixes{{{"-t: ", "machine: "},
                                                  {"-t '", "machine '"},
                                                  {"--node ", "node "},
                                                  {"--node: ", "node: "},
                                                  {"host-names: ", "host_names: "},
                                                  {"--host-names: ", "host_names: "},
                                                  {"-o: ", "oversubscription: "},
                                                  {"--alloc: ", "alloc: "},
                                                  {"--constraints: ", "allowed: "}}};
  for (const auto& word : kPrefixes) {
    if (message.starts_with(word.flag)) {
      message = std::string(word.argument) + message.substr(word.flag.size());
      break;
    }
  }
  for (const auto& [from, to] : {std::pair<std::string_view, std::string_view>{"tmap.NODE", "node"},
                                 std::pair<std::string_view, std::string_view>{"tmap.HOST_NAMES", "host_names"},
                                 std::pair<std::string_view, std::string_view>{"--host-names '", "host_names='"}}) {
    for (auto at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size())) {
      message.replace(at, from.size(), to);
    }
  }
  return message;
}

/// Runs `work`, its errors in the Python call's words (tmap.Error kinds
/// kept; a mapping the library calls broken is the caller's argument).
template <typename Work>
auto in_python_words(Work&& work) {
  try {
    return work();
  } catch (const tmap::InputError& e) {
    if (!e.file().empty()) throw;
    throw tmap::InputError(in_arguments(e.what()));
  } catch (const tmap::ParameterError& e) {
    throw tmap::ParameterError(in_arguments(e.what()));
  }
}

/// The machine and where ranks may go, as tm-map's -t, --node,
/// --host-names, -o and an allowed PE list take them.
struct Machine {
  std::unique_ptr<tmap::Topology> topology;
  tmap::Constraints constraints;
};

Machine machine_of(const std::string& spec, const std::string& node, const std::string& host_names,
                   std::int64_t oversubscription, const std::optional<std::vector<tmap::PE>>& allowed,
                   const std::optional<std::string>& alloc = std::nullopt) {
  return in_python_words([&] {
    Machine m;
    m.topology = tmap::load_machine(tmap::machine_spec_from_text(spec, node, host_names, "tmap."));
    if (oversubscription < 1) throw tmap::ParameterError("oversubscription: at least 1 rank a PE");
    if (allowed && alloc) throw tmap::ParameterError("allowed and alloc both say where ranks may go: give one");
    if (alloc) {
      // As tm-map --alloc: host names (the machine's, else read by their
      // trailing number) or node ids, every PE of those nodes.
      const auto& t = *m.topology;
      const auto known = tmap::allocation_host_ids(t, {});
      auto allocation = tmap::parse_allocation(*alloc, {}, "alloc", known.empty() ? nullptr : &known);
      allocation.resolve(t);
      const auto slots = tmap::job_rank_slots(t, &allocation, allocation.cpus_per_rank);
      m.constraints = tmap::job_constraints(t, &allocation, slots, oversubscription);
      return m;
    }
    try {
      m.constraints = allowed ? tmap::Constraints::allowed(*m.topology, *allowed, oversubscription)
                              : tmap::Constraints::all(*m.topology, oversubscription);
    } catch (const tmap::InputError& e) {
      throw tmap::InputError((allowed ? "allowed: " : "machine: ") + std::string(e.what()));
    }
    return m;
  });
}

/// tm-map's configuration path: preset, config file, options, then the
/// strategy, seed and objective given.
tmap::Context context_of(const std::optional<std::string>& preset, const std::optional<std::string>& config,
                         const std::map<std::string, std::string>& options, const std::optional<std::string>& strategy,
                         std::optional<std::uint64_t> seed, const std::optional<std::string>& objective) {
  return in_python_words([&] {
    tmap::Context c = preset ? tmap::preset(*preset) : tmap::Context{};
    if (config) c = tmap::load_config(tmap::read_file(*config), *config, c);
    for (const auto& [key, value] : options) tmap::set_option(c, key, value);
    if (strategy) tmap::set_option(c, "strategy", *strategy);
    if (seed) c.seed = *seed;
    if (objective) tmap::set_option(c, "objective", *objective);
    return c;
  });
}

/// A report as the JSON tm-map writes, as a Python dict.
py::object as_dict(const std::string& json) {
  return py::module_::import("json").attr("loads")(json);
}

py::object map_traffic(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                       const std::optional<Ints>& volumes, const std::string& machine, const std::string& node,
                       const std::string& host_names, std::int64_t oversubscription,
                       const std::optional<std::vector<tmap::PE>>& allowed, const std::optional<std::string>& alloc,
                       const std::optional<std::string>& strategy, std::optional<std::uint64_t> seed,
                       const std::optional<std::string>& objective, const std::optional<std::string>& preset,
                       const std::optional<std::string>& config, const std::map<std::string, std::string>& options,
                       int threads, const std::optional<py::function>& progress,
                       const std::optional<std::vector<tmap::PE>>& initial, const std::string& path) {
  const auto comm = matrix_of(n, rows, cols, volumes, path);
  const auto m = machine_of(machine, node, host_names, oversubscription, allowed, alloc);
  auto context = context_of(preset, config, options, strategy, seed, objective);
  if (threads > 0) context.threads = threads;
  if (initial) {
    if (strategy) throw tmap::ParameterError("initial: a mapping to improve, not with a strategy");
    tmap::refine_given_mapping_by_default(context, options.contains("refine"));
  }
  tmap::Run run(context);
  std::optional<py::error_already_set> raised;
  if (progress) {
    // Called from the mapping's thread: the GIL is taken for the call; an
    // exception in the callback stops the run and is raised after it.
    run.hooks.progress = [&progress, &raised](const tmap::Progress& p) {
      py::gil_scoped_acquire gil;
      try {
        const py::object keep =
            (*progress)(py::dict(py::arg("stage") = std::string(p.stage), py::arg("detail") = std::string(p.detail),
                                 py::arg("fraction") = p.fraction, py::arg("hop_bytes") = p.hop_bytes,
                                 py::arg("elapsed_s") = p.elapsed_s, py::arg("done") = p.done));
        return keep.is_none() || keep.cast<bool>();
      } catch (py::error_already_set& e) {
        raised = std::move(e);
        return false;
      }
    };
  }
  const tmap::Problem problem{comm, *m.topology, m.constraints};
  const auto routing = tmap::make_routing(*m.topology);
  if (routing && !context.link_bandwidths.empty()) routing->set_bandwidths(context.link_bandwidths);
  tmap::ReportedMapping result;
  {
    py::gil_scoped_release release;
    result = initial ? tmap::refine_and_report("initial", *initial, problem, run, routing.get())
                     : tmap::run_and_report(context.strategy, problem, run, routing.get());
  }
  if (raised) throw std::move(*raised);
  return as_dict(tmap::mapping_json(result.mapping, result.report));
}

py::object evaluate_mapping(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                            const std::optional<Ints>& volumes, const std::string& machine, const std::string& node,
                            const std::string& host_names, std::int64_t oversubscription,
                            const std::vector<tmap::PE>& mapping, const std::string& link_bandwidths,
                            const std::string& path) {
  const auto comm = matrix_of(n, rows, cols, volumes, path);
  const auto m = machine_of(machine, node, host_names, oversubscription, std::nullopt);
  try {
    tmap::validate_mapping(mapping, comm.num_ranks(), m.constraints);
  } catch (const tmap::InternalError& e) {  // the caller's mapping, not a bug of ours
    throw tmap::ParameterError("mapping: " + std::string(e.what()));
  }
  const tmap::Problem problem{comm, *m.topology, m.constraints};
  const auto routing = tmap::make_routing(*m.topology);
  if (routing && !link_bandwidths.empty()) routing->set_bandwidths(link_bandwidths);
  auto report = tmap::describe_mapping(problem, mapping, routing.get(), link_bandwidths);
  report.strategy = "given";
  return as_dict(tmap::mapping_json(mapping, report));
}

py::tuple compare_strategies(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                             const std::optional<Ints>& volumes, const std::string& machine, const std::string& node,
                             const std::string& host_names, std::int64_t oversubscription,
                             const std::optional<std::vector<tmap::PE>>& allowed,
                             const std::optional<std::string>& alloc, const std::string& strategies,
                             std::optional<std::uint64_t> seed, const std::optional<std::string>& objective,
                             const std::optional<std::string>& preset, const std::optional<std::string>& config,
                             const std::map<std::string, std::string>& options, const std::string& path) {
  const auto comm = matrix_of(n, rows, cols, volumes, path);
  const auto m = machine_of(machine, node, host_names, oversubscription, allowed, alloc);
  const auto context = context_of(preset, config, options, std::nullopt, seed, objective);
  const auto names = in_python_words([&] { return tmap::comparison_strategies(strategies); });
  const tmap::Problem problem{comm, *m.topology, m.constraints};
  const auto routing = tmap::make_routing(*m.topology);
  if (routing && !context.link_bandwidths.empty()) routing->set_bandwidths(context.link_bandwidths);
  tmap::Comparison comparison;
  {
    py::gil_scoped_release release;
    comparison = tmap::compare(problem, tmap::Run(context), names, {}, routing.get());
  }
  return py::make_tuple(tmap::comparison_text(comparison), as_dict(tmap::comparison_json(comparison)));
}

std::string launch_file(const std::vector<tmap::PE>& mapping, const std::string& machine, const std::string& node,
                        const std::string& host_names, const std::string& format, const std::string& program) {
  const auto m = machine_of(machine, node, host_names, 1, std::nullopt);
  const auto kind = tmap::mapping_format_from_name(format);
  if (!tmap::is_launch_format(kind)) {
    throw tmap::ParameterError("format: '" + format + "' is not a launcher's (rankfile, hostfile, machinefile, hydra)");
  }
  for (const auto pe : mapping) {
    if (pe < 0 || pe >= m.topology->size()) {
      throw tmap::ParameterError("mapping: PE " + std::to_string(pe) + " is not on this machine");
    }
  }
  const auto& t = *m.topology;
  const auto host_of = tmap::launch_host_names(t, nullptr, {});
  const std::function<std::string(tmap::PE)> slot_of = [&t](tmap::PE pe) {
    return std::to_string(tmap::slot_in_node(t, pe));
  };
  return tmap::format_launch_file(kind, mapping, host_of, slot_of, program);
}

}  // namespace

PYBIND11_MODULE(_tmap, m) {
  m.doc() = "tmap's compiled core: use the tmap package (tmap.map, tmap.evaluate, tmap.compare)";
  // One Python exception per error category, all tmap.Error (translators
  // run newest first: the base is registered first).
  static py::exception<tmap::Error> error(m, "Error");
  py::register_exception<tmap::InputError>(m, "InputError", error.ptr());
  py::register_exception<tmap::ParameterError>(m, "ParameterError", error.ptr());
  py::register_exception<tmap::UnsupportedError>(m, "UnsupportedError", error.ptr());
  py::register_exception<tmap::ResourceError>(m, "ResourceError", error.ptr());
  py::register_exception<tmap::SystemError>(m, "SystemError", error.ptr());
  py::register_exception<tmap::InternalError>(m, "InternalError", error.ptr());
  m.def("map", &map_traffic, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"), py::arg("machine"),
        py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("allowed"), py::arg("alloc"),
        py::arg("strategy"), py::arg("seed"), py::arg("objective"), py::arg("preset"), py::arg("config"),
        py::arg("options"), py::arg("threads"), py::arg("progress"), py::arg("initial") = std::nullopt,
        py::arg("path") = "");
  m.def("evaluate", &evaluate_mapping, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"),
        py::arg("machine"), py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("mapping"),
        py::arg("link_bandwidths"), py::arg("path") = "");
  m.def("compare", &compare_strategies, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"),
        py::arg("machine"), py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("allowed"),
        py::arg("alloc"), py::arg("strategies"), py::arg("seed"), py::arg("objective"), py::arg("preset"),
        py::arg("config"), py::arg("options"), py::arg("path") = "");
  m.def("launch_file", &launch_file, py::arg("mapping"), py::arg("machine"), py::arg("node"), py::arg("host_names"),
        py::arg("format"), py::arg("program"));
  m.attr("__version__") = std::string(tmap::version());
}
