// A machine as tmap understood it, for a user to check a description
// against the real one (tm-topo --describe): its nodes and their names, PEs
// per node, the network's switches and cables kind by kind, and one example
// pair per distance class with its route. A swapped list in a fat tree's
// spec is another machine: the cable counts show it at a glance.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/report.hpp"
#include "tmap/routing.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class Topology;

struct MachineDescription {
  std::string machine;  ///< Topology::description()
  std::string kind;     ///< Topology::kind()
  PE pes = 0;
  NodeId nodes = 0;
  /// (PEs a node, how many nodes have that many), fewest PEs first.
  std::vector<std::pair<PE, NodeId>> node_sizes;
  /// Every node's host name, in node order.
  std::vector<std::string> hosts;
  /// The network's cables of one kind (a bandwidth class: "level1", "green", "dim0").
  struct CableKind {
    std::string kind;
    std::int64_t cables = 0;
    std::int64_t lower_ends = 0;  ///< distinct elements at the cables' lower ends
    std::int64_t upper_ends = 0;
    bool lower_are_nodes = false;  ///< the lower ends are compute nodes (else switches, routers)
    bool upper_are_nodes = false;
  };
  std::vector<CableKind> cables;
  std::int64_t switches = 0;  ///< switches and routers (the cables' ends that are not nodes)
  /// One pair of PEs at each distance from the first PE.
  struct Example {
    Distance distance = 0;
    PE a = 0;
    PE b = 0;
    std::int64_t pes_at_distance = 0;  ///< PEs this far from a
    std::string place;                 ///< where b is: "node002 slot 3"
    std::vector<std::string> route;    ///< the links from a to b (empty inside a node)
  };
  std::vector<Example> examples;
  /// The network for a picture: each pair of joined elements once, with
  /// its cable kind and how many parallel cables join them. Empty where
  /// the machine names no cable ends (Tianhe-3, meshes, tleafs).
  struct Cable {
    LinkEnds ends;
    int kind = 0;
    std::int64_t count = 0;
  };
  std::vector<Cable> graph;
};

/// The description of a machine. Cost: one pass over its PEs and its links.
[[nodiscard]] MachineDescription describe_machine(const Topology& topology);
/// The description as text for a reader, or as JSON ("hosts", "cables",
/// "examples", "graph": ends by host name or switch name).
[[nodiscard]] std::string description_text(const MachineDescription& description);
[[nodiscard]] std::string description_json(const MachineDescription& description);
/// description_json's object, handed to `out` as a tree (tmap/report.hpp).
void write_description(const MachineDescription& description, ReportWriter& out);

}  // namespace tmap

TMAP_API_END
