// What an SMPI run of a mapping needs to know about the machine, written by
// tm-sim into a small text file and read by the platform module SimGrid
// loads (smpi_platform.cpp): the machine (a -t spec), the link model (the
// one-round model's SimOptions: latency per hop, bandwidth per link kind,
// a node's memory for ranks that share one) and the PEs the ranks sit on
// (one SimGrid host each, "pe<ID>"). One item per line:
//   topology torus3D 4 4 4
//   node package:2 core:8        (a network of nodes only)
//   node_for cn2,cn3 package:1 core:16   (nodes of another kind)
//   latency 5e-07
//   bandwidth 12500000000
//   bandwidth_of_kind dim0 25000000000
//   node_latency 2e-07
//   node_bandwidth 50000000000
//   pes 0 1 5 9
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/simulate.hpp"
#include "tmap/machine.hpp"
#include "tmap/types.hpp"

namespace tmap::sim {

struct PlatformSpec {
  std::string topology;
  std::string node;  ///< a network's node description (tmap::MachineSpec::node); empty for other machines
  /// Nodes of other kinds (tmap::MachineSpec::node_by_hosts), their hosts
  /// as cn<node index>, comma separated.
  std::vector<std::pair<std::string, std::string>> node_by_hosts;
  std::string pe;  ///< what a PE is (tmap::MachineSpec::pe): empty, cpu or gpu
  SimOptions options;
  std::vector<PE> pes;  ///< distinct, increasing
};

/// The host SMPI places a rank on: "pe<ID>".
[[nodiscard]] std::string host_name(PE pe);

[[nodiscard]] std::string to_text(const PlatformSpec& spec);

/// Parses to_text's format; InputError naming `origin`, the line and the
/// problem otherwise.
[[nodiscard]] PlatformSpec parse_platform_spec(std::string_view text, const std::string& origin);

}  // namespace tmap::sim
