#include "mpi/settings.hpp"

#include <cstdlib>
#include <string_view>

#include "tmap/error.hpp"
#include "tmap/job.hpp"

namespace tmap::mpi {

namespace {

/// The given value when set, else the environment's, else empty.
std::string chosen(const char* given, const char* variable) {
  if (given != nullptr && *given != '\0') return given;
  const char* value = std::getenv(variable);
  return value != nullptr ? value : "";
}

}  // namespace

Settings settings_from(const tmap_orders_settings* given) {
  Settings s;
  s.topology = chosen(given != nullptr ? given->topology : nullptr, "TMAP_TOPOLOGY");
  s.node = chosen(given != nullptr ? given->node : nullptr, "TMAP_NODE");
  s.host_names = chosen(given != nullptr ? given->host_names : nullptr, "TMAP_HOST_NAMES");
  s.pe = chosen(given != nullptr ? given->pe : nullptr, "TMAP_PE");
  // tm-map's configuration path: preset, config file, then the strategy.
  const auto preset_name = chosen(given != nullptr ? given->preset : nullptr, "TMAP_PRESET");
  const auto config = chosen(given != nullptr ? given->config : nullptr, "TMAP_CONFIG");
  const auto strategy = chosen(given != nullptr ? given->strategy : nullptr, "TMAP_STRATEGY");
  const auto objective = chosen(given != nullptr ? given->objective : nullptr, "TMAP_OBJECTIVE");
  try {
    // tm-map's configuration path, in the variables' words (the job's).
    JobSpec spec;
    spec.words = JobWords::mpi();
    spec.context.preset = preset_name;
    spec.context.config_file = config;
    if (!objective.empty()) spec.context.options.emplace_back("objective", objective);
    spec.context.strategy = strategy;
    s.context = Job(std::move(spec)).context();
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  if (given != nullptr && given->verbose >= 0) {
    s.verbose = given->verbose;
  } else if (const char* v = std::getenv("TMAP_VERBOSE"); v != nullptr) {
    s.verbose = std::atoi(v);
  }
  const auto edges = chosen(given != nullptr ? given->dist_graph : nullptr, "TMAP_DIST_GRAPH");
  if (edges == "ranks") {
    s.dist_graph = DistGraphEdges::ranks;
  } else if (!edges.empty() && edges != "processes") {
    s.error = "the dist-graph meaning '" + edges +
              "' is neither 'processes' nor 'ranks' (TMAP_DIST_GRAPH, or Open MPI's topo_tmap_dist_graph)";
  }
  if (given != nullptr) s.hwloc_topology = given->hwloc_topology;
  return s;
}

std::shared_ptr<const Topology> load_settings_machine(const Settings& settings) {
  if (settings.topology.empty()) throw InputError("no machine (TMAP_TOPOLOGY) is set");
  // As tm-map reads -t, --node and --host-names, in the variables' words.
  JobSpec spec;
  spec.words = JobWords::mpi();
  set_job_field(spec, "machine", settings.topology);
  if (!settings.node.empty()) set_job_field(spec, "node", settings.node);
  if (!settings.host_names.empty()) set_job_field(spec, "host-names", settings.host_names);
  if (!settings.pe.empty()) set_job_field(spec, "pe", settings.pe);
  return Job(std::move(spec)).machine_shared();
}

std::string strategy_label(const Context& context) {
  if (context.refine.kind == RefineKind::None) return context.strategy;
  return context.strategy + ":" + std::string(refine_kind_name(context.refine.kind));
}

}  // namespace tmap::mpi
