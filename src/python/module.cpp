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
#include <variant>
#include <vector>

#include "report_objects.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/compare.hpp"
#include "tmap/config.hpp"
#include "tmap/describe.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/job.hpp"
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

/// A machine parsed once (tmap.Machine): reused by every call given it.
struct PyMachine {
  std::shared_ptr<const tmap::Topology> topology;
};

using MachineArg = std::variant<PyMachine, std::string>;

/// A Python call's job: its machine, where ranks may go (allowed PEs or
/// alloc's host list, `oversubscription` ranks a PE), in the Python
/// arguments' words.
tmap::JobSpec job_spec(const MachineArg& machine, const std::string& node, const std::string& host_names,
                       std::int64_t oversubscription, const std::optional<std::vector<tmap::PE>>& allowed,
                       const std::optional<std::string>& alloc) {
  tmap::JobSpec spec;
  spec.words = tmap::JobWords::python();
  if (const auto* built = std::get_if<PyMachine>(&machine)) {
    if (!node.empty() || !host_names.empty()) {
      throw tmap::ParameterError("node, host_names: a tmap.Machine holds its nodes and names already");
    }
    spec.machine.built = built->topology;
  } else {
    spec.machine.topology = std::get<std::string>(machine);
    if (spec.machine.topology.find_first_not_of(" \t\n") == std::string::npos) {
      throw tmap::InputError("machine: the machine is empty");
    }
    if (!node.empty()) tmap::set_job_field(spec, "node", node);
    if (!host_names.empty()) tmap::set_job_field(spec, "host-names", host_names);
  }
  if (oversubscription < 1) throw tmap::ParameterError("oversubscription: at least 1 rank a PE");
  spec.allocation.oversubscription = oversubscription;
  if (allowed && alloc) throw tmap::ParameterError("allowed and alloc both say where ranks may go: give one");
  if (alloc) {
    spec.allocation.kind = tmap::AllocationSource::Kind::Hosts;
    spec.allocation.hosts = *alloc;
  } else if (allowed) {
    spec.allocation.kind = tmap::AllocationSource::Kind::Pes;
    spec.allocation.pes = *allowed;
  }
  return spec;
}

/// Many ranks a PE balanced by load (imbalance=, tm-map's --imbalance) and
/// the ranks' weights given (weights=, replacing a graph's vertex loads).
void set_balance(tmap::JobSpec& spec, std::optional<double> imbalance,
                 const std::optional<std::vector<tmap::Volume>>& weights) {
  if (imbalance) {
    if (!(*imbalance >= 0.0 && *imbalance <= 1e6)) {
      throw tmap::ParameterError("imbalance: a number from 0 to 1e6 (0.03: 3 % above the average load), not " +
                                 std::to_string(*imbalance));
    }
    spec.allocation.imbalance = *imbalance;
  }
  if (weights) {
    if (weights->empty()) throw tmap::ParameterError("weights: an empty list (one weight a rank)");
    spec.traffic.weight_values = *weights;
  }
}

/// The traffic: a file the library reads, or the COO arrays' matrix.
void set_traffic(tmap::JobSpec& spec, std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                 const std::optional<Ints>& volumes, const std::string& path) {
  if (!path.empty()) {
    spec.traffic.path = path;
  } else {
    spec.traffic.matrix = matrix_of(n, rows, cols, volumes, path);
  }
}

/// tm-map's configuration path: preset, config file, options, then the
/// strategy, seed and objective given.
void set_context(tmap::JobSpec& spec, const std::optional<std::string>& preset,
                 const std::optional<std::string>& config, const std::map<std::string, std::string>& options,
                 const std::optional<std::string>& strategy, std::optional<std::uint64_t> seed,
                 const std::optional<std::string>& objective) {
  auto& c = spec.context;
  if (preset) c.preset = *preset;
  if (config) c.config_file = *config;
  for (const auto& [key, value] : options) c.options.emplace_back(key, value);
  if (seed) c.options.emplace_back("seed", std::to_string(*seed));
  if (objective) c.options.emplace_back("objective", *objective);
  if (strategy) c.strategy = *strategy;
}

/// tmap.Report, the dict whose keys are also attributes, that reports'
/// objects are built as (tmap/__init__.py).
py::object report_type() {
  return py::module_::import("tmap").attr("Report");
}

/// A mapping's report as tmap.Report objects (tm-map's JSON report's keys).
py::object report_of(const tmap::Mapping& mapping, const tmap::MappingReport& report) {
  return tmap::python::report_object([&](tmap::ReportWriter& out) { tmap::write_mapping_report(mapping, report, out); },
                                     report_type());
}

py::object map_traffic(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                       const std::optional<Ints>& volumes, const MachineArg& machine, const std::string& node,
                       const std::string& host_names, std::int64_t oversubscription,
                       const std::optional<std::vector<tmap::PE>>& allowed, const std::optional<std::string>& alloc,
                       const std::optional<std::string>& strategy, std::optional<std::uint64_t> seed,
                       const std::optional<std::string>& objective, const std::optional<std::string>& preset,
                       const std::optional<std::string>& config, const std::map<std::string, std::string>& options,
                       int threads, const std::optional<py::function>& progress,
                       const std::optional<std::vector<tmap::PE>>& initial, const std::string& path,
                       std::optional<double> imbalance, const std::optional<std::vector<tmap::Volume>>& weights) {
  auto spec = job_spec(machine, node, host_names, oversubscription, allowed, alloc);
  set_traffic(spec, n, rows, cols, volumes, path);
  set_balance(spec, imbalance, weights);
  set_context(spec, preset, config, options, strategy, seed, objective);
  if (threads > 0) spec.context.options.emplace_back("threads", std::to_string(threads));
  if (initial && strategy) throw tmap::ParameterError("initial: a mapping to improve, not with a strategy");
  tmap::Job job(std::move(spec));
  (void)job.problem();  // every argument read and checked, with the GIL held
  tmap::RunHooks hooks;
  std::optional<py::error_already_set> raised;
  if (progress) {
    // Called from the mapping's thread: the GIL is taken for the call; an
    // exception in the callback stops the run and is raised after it.
    hooks.progress = [&progress, &raised](const tmap::Progress& p) {
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
  (void)job.routing();
  tmap::ReportedMapping result;
  {
    py::gil_scoped_release release;
    result = initial ? job.refine(*initial, hooks) : job.run(hooks);
  }
  if (raised) throw std::move(*raised);
  return report_of(result.mapping, result.report);
}

py::object evaluate_mapping(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                            const std::optional<Ints>& volumes, const MachineArg& machine, const std::string& node,
                            const std::string& host_names, std::int64_t oversubscription,
                            const std::vector<tmap::PE>& mapping, const std::string& link_bandwidths,
                            const std::string& path) {
  auto spec = job_spec(machine, node, host_names, oversubscription, std::nullopt, std::nullopt);
  set_traffic(spec, n, rows, cols, volumes, path);
  if (!link_bandwidths.empty()) spec.context.options.emplace_back("link-bw", link_bandwidths);
  tmap::Job job(std::move(spec));
  const auto problem = job.problem();
  try {
    tmap::validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints);
  } catch (const tmap::InternalError& e) {  // the caller's mapping, not a bug of ours
    throw tmap::ParameterError("mapping: " + std::string(e.what()));
  }
  auto report = tmap::describe_mapping(problem, mapping, job.routing(), link_bandwidths);
  report.strategy = "given";
  return report_of(mapping, report);
}

py::tuple compare_strategies(std::int64_t n, const std::optional<Ints>& rows, const std::optional<Ints>& cols,
                             const std::optional<Ints>& volumes, const MachineArg& machine, const std::string& node,
                             const std::string& host_names, std::int64_t oversubscription,
                             const std::optional<std::vector<tmap::PE>>& allowed,
                             const std::optional<std::string>& alloc, const std::string& strategies,
                             std::optional<std::uint64_t> seed, const std::optional<std::string>& objective,
                             const std::optional<std::string>& preset, const std::optional<std::string>& config,
                             const std::map<std::string, std::string>& options, const std::string& path,
                             std::optional<double> imbalance, const std::optional<std::vector<tmap::Volume>>& weights) {
  auto spec = job_spec(machine, node, host_names, oversubscription, allowed, alloc);
  set_traffic(spec, n, rows, cols, volumes, path);
  set_balance(spec, imbalance, weights);
  set_context(spec, preset, config, options, std::nullopt, seed, objective);
  tmap::Job job(std::move(spec));
  const auto names = tmap::comparison_strategies(strategies);
  const auto problem = job.problem();
  const tmap::Run run(job.context());
  const auto* routing = job.routing();
  tmap::Comparison comparison;
  {
    py::gil_scoped_release release;
    comparison = tmap::compare(problem, run, names, {}, routing);
  }
  return py::make_tuple(tmap::comparison_text(comparison),
                        tmap::python::report_object(
                            [&](tmap::ReportWriter& out) { tmap::write_comparison(comparison, out); }, report_type()));
}

std::string launch_file(const std::vector<tmap::PE>& mapping, const MachineArg& machine, const std::string& node,
                        const std::string& host_names, const std::optional<std::string>& alloc,
                        const std::string& format, const std::string& slots, const std::string& program) {
  auto spec = job_spec(machine, node, host_names, 1, std::nullopt, alloc);
  tmap::set_job_field(spec, "format", format);
  tmap::set_job_field(spec, "slots", slots);
  spec.output.program = program;
  const auto output = spec.output;
  return tmap::Job(std::move(spec)).launch_file(mapping, output);
}

/// tmap.Machine(machine, node="", host_names=""): read once, as tm-map's
/// -t, --node and --host-names read it.
PyMachine machine_of(const std::string& machine, const std::string& node, const std::string& host_names,
                     const std::string& pe) {
  auto spec = job_spec(machine, node, host_names, 1, std::nullopt, std::nullopt);
  if (!pe.empty()) tmap::set_job_field(spec, "pe", pe);
  tmap::Job job(std::move(spec));
  (void)job.machine();
  return PyMachine{job.machine_shared()};
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
  py::class_<PyMachine>(m, "Machine",
                        "A machine read once (tm-map's -t with --node and --host-names), for any number of calls: "
                        "tmap.Machine('fattree:2;4,4;1,2;1,2', node='package:2 core:8', host_names='cn[01-16]'); "
                        "pe='gpu' makes each GPU a PE (tm-map's --pe gpu)")
      .def(py::init(&machine_of), py::arg("machine"), py::arg("node") = "", py::arg("host_names") = "",
           py::arg("pe") = "")
      .def_property_readonly(
          "pes", [](const PyMachine& m) { return m.topology->size(); }, "Its PEs (the places a rank can run)")
      .def_property_readonly(
          "nodes", [](const PyMachine& m) { return m.topology->num_nodes(); }, "Its nodes")
      .def_property_readonly("kind", [](const PyMachine& m) { return m.topology->kind(); })
      .def_property_readonly("description", [](const PyMachine& m) { return m.topology->description(); })
      .def(
          "describe",
          [](const PyMachine& m) {
            const auto description = tmap::describe_machine(*m.topology);
            return tmap::python::report_object(
                [&](tmap::ReportWriter& out) { tmap::write_description(description, out); },
                py::module_::import("builtins").attr("dict"));
          },
          "What tmap understood (tm-topo --describe's JSON): hosts, PEs per node, cables, one example per distance")
      .def(
          "distance",
          [](const PyMachine& m, tmap::PE a, tmap::PE b) {
            if (a < 0 || b < 0 || a >= m.topology->size() || b >= m.topology->size()) {
              throw tmap::ParameterError("distance: PEs are 0 to " + std::to_string(m.topology->size() - 1));
            }
            return m.topology->distance(a, b);
          },
          py::arg("a"), py::arg("b"), "Hops between two PEs")
      .def("__repr__", [](const PyMachine& m) {
        return "tmap.Machine(" + m.topology->description() + ", " + std::to_string(m.topology->size()) + " PEs)";
      });
  m.def("map", &map_traffic, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"), py::arg("machine"),
        py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("allowed"), py::arg("alloc"),
        py::arg("strategy"), py::arg("seed"), py::arg("objective"), py::arg("preset"), py::arg("config"),
        py::arg("options"), py::arg("threads"), py::arg("progress"), py::arg("initial") = std::nullopt,
        py::arg("path") = "", py::arg("imbalance") = std::nullopt, py::arg("weights") = std::nullopt);
  m.def("evaluate", &evaluate_mapping, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"),
        py::arg("machine"), py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("mapping"),
        py::arg("link_bandwidths"), py::arg("path") = "");
  m.def("compare", &compare_strategies, py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("volumes"),
        py::arg("machine"), py::arg("node"), py::arg("host_names"), py::arg("oversubscription"), py::arg("allowed"),
        py::arg("alloc"), py::arg("strategies"), py::arg("seed"), py::arg("objective"), py::arg("preset"),
        py::arg("config"), py::arg("options"), py::arg("path") = "", py::arg("imbalance") = std::nullopt,
        py::arg("weights") = std::nullopt);
  m.def("launch_file", &launch_file, py::arg("mapping"), py::arg("machine"), py::arg("node"), py::arg("host_names"),
        py::arg("alloc"), py::arg("format"), py::arg("slots"), py::arg("program"));
  m.attr("__version__") = std::string(tmap::version());
}
