#include "mpi/settings.hpp"

#include <array>
#include <cstdlib>
#include <string_view>

#include "tmap/allocation.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/objective.hpp"
#include "util/file.hpp"

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
  // tm-map's configuration path: preset, config file, then the strategy.
  const auto preset_name = chosen(given != nullptr ? given->preset : nullptr, "TMAP_PRESET");
  const auto config = chosen(given != nullptr ? given->config : nullptr, "TMAP_CONFIG");
  const auto strategy = chosen(given != nullptr ? given->strategy : nullptr, "TMAP_STRATEGY");
  const auto objective = chosen(given != nullptr ? given->objective : nullptr, "TMAP_OBJECTIVE");
  try {
    if (!preset_name.empty()) s.context = preset(preset_name);
    if (!config.empty()) s.context = load_config(detail::read_text_file(config), config, s.context);
    if (!strategy.empty()) {
      // NAME[:REFINE], as tm-map's -s and --refine together (an unknown
      // name is refused here, before the program's topology is created).
      // ptscotch (PT-Scotch where the graph lives) is the MPI layer's own,
      // outside the strategy table (issue 62 makes it a row).
      if (strategy == "ptscotch") {
        s.context.strategy = strategy;
      } else {
        const auto spec = parse_strategy_spec(strategy);
        s.context.strategy = spec.name;
        if (spec.refine) s.context.refine.kind = *spec.refine;
      }
    }
    if (!objective.empty()) set_option(s.context, "objective", objective);
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

namespace {

/// A machine's error in the words the MPI layer's user set: the variables
/// (and Open MPI's parameters), not tm-map's flags.
std::string in_variables(std::string message) {
  struct Word {
    std::string_view flag;
    std::string_view variable;
  };
  static constexpr std::array<Word, 6> kWords{{{"--node", "TMAP_NODE (topo_tmap_node)"},
                                               {"node:", "TMAP_NODE (topo_tmap_node):"},
                                               {"--host-names", "TMAP_HOST_NAMES (topo_tmap_host_names)"},
                                               {"host-names:", "TMAP_HOST_NAMES (topo_tmap_host_names):"},
                                               {"-t:", "TMAP_TOPOLOGY (topo_tmap_topology):"},
                                               {"-t '", "TMAP_TOPOLOGY (topo_tmap_topology) '"}}};
  for (const auto& word : kWords) {
    if (message.starts_with(word.flag)) return std::string(word.variable) + message.substr(word.flag.size());
  }
  return message;
}

}  // namespace

std::unique_ptr<Topology> load_settings_machine(const Settings& settings) {
  if (settings.topology.empty()) throw InputError("no machine (TMAP_TOPOLOGY) is set");
  try {
    return load_machine(machine_spec_from_text(settings.topology, settings.node, settings.host_names, "TMAP_"));
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;  // names its file and line
    throw InputError(in_variables(e.what()));
  } catch (const ParameterError& e) {
    throw ParameterError(in_variables(e.what()));
  }
}

std::string strategy_label(const Context& context) {
  if (context.refine.kind == RefineKind::None) return context.strategy;
  return context.strategy + ":" + std::string(refine_kind_name(context.refine.kind));
}

}  // namespace tmap::mpi
