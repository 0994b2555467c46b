// What the MPI front ends are asked to do: the machine, the strategy, how
// much to print, what a dist graph's edges mean after reordering, and (for
// Open MPI's component) the process's own hwloc topology. The preload
// library reads them from the TMAP_* environment; the component from its
// MCA parameters, the environment filling what they leave unset.
#pragma once

#include <memory>
#include <string>

#include "mpi/orders.h"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

namespace tmap::mpi {

/// What reordering a dist graph means (the MPI standard allows both).
enum class DistGraphEdges {
  /// Each process keeps the edges it declared, renumbered: MPI_Dist_graph_neighbors
  /// names the same processes as before (Open MPI's treematch, MPICH's tests).
  processes,
  /// The graph's vertices are ranks: new rank k gets the edges declared for
  /// old rank k, as MPI_Graph_create's vertex k is rank k.
  ranks,
};

struct Settings {
  std::string topology;    ///< the machine (any -t value); empty: never reorder
  std::string node;        ///< a network's nodes (--node values, ';' between them); empty: a PE a node
  std::string host_names;  ///< a network's host names (a --host-names list); empty: cn<node>
  std::string pe;          ///< what a PE is (--pe): empty or cpu, or gpu
  /// The run's configuration, as tm-map's: the preset, then the config
  /// file, then the strategy and objective asked for (tm-map's default:
  /// auto, hop-bytes).
  Context context;
  int verbose = 0;  ///< 1: a line per decision; 2: also why not
  DistGraphEdges dist_graph = DistGraphEdges::processes;
  std::string error;               ///< a setting that cannot be used: never reorder, say why
  void* hwloc_topology = nullptr;  ///< this machine's hwloc_topology_t, or null: load one
};

/// `given` (null fields and verbose < 0: unset) over the TMAP_TOPOLOGY,
/// TMAP_NODE, TMAP_HOST_NAMES, TMAP_PE, TMAP_PRESET, TMAP_CONFIG, TMAP_STRATEGY,
/// TMAP_OBJECTIVE, TMAP_VERBOSE and TMAP_DIST_GRAPH environment. A preset,
/// config file, strategy or objective that cannot be used sets `error`
/// (never reorder, say why).
[[nodiscard]] Settings settings_from(const tmap_orders_settings* given);

/// The machine the settings name: TMAP_TOPOLOGY's, with TMAP_NODE's nodes
/// and TMAP_HOST_NAMES' names where it is a network of nodes, as tm-map
/// reads -t, --node and --host-names. InputError without a machine.
[[nodiscard]] std::shared_ptr<const Topology> load_settings_machine(const Settings& settings);

/// The strategy as the report names it: NAME, or NAME:REFINE with one.
[[nodiscard]] std::string strategy_label(const Context& context);

}  // namespace tmap::mpi
