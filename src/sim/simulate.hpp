// Simulated communication time with SimGrid (flow-level network model with
// link sharing): one round of the matrix, every rank posting all its sends
// at once, messages of A[i][j] bytes routed over the machine's links exactly
// as tmap's routing model routes them (Tianhe-3, meshes, tori, hypercubes,
// trees). Two PEs the routing model joins by no link (two cores of one
// Tianhe-3 node) talk through a node-local link (memory).
//
// Not part of libtmap: SimGrid's engine is one per process, so a process
// simulates one batch (every mapping of a --compare in one engine, each
// round after the previous one ends). The tools link this module.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

namespace tmap::sim {

struct SimOptions {
  /// Bandwidth of each link kind in bytes/s (the routing model's kinds:
  /// node, side, row, col on Tianhe-3; dim0.. on meshes; level1.. on trees);
  /// kinds not listed get `bandwidth`.
  std::map<std::string, double> bandwidth_of_kind;
  double bandwidth = 12.5e9;     ///< bytes/s: 100 Gb/s
  double latency = 0.5e-6;       ///< s per link
  double node_bandwidth = 50e9;  ///< bytes/s between two ranks of one node (memory)
  double node_latency = 0.2e-6;  ///< s
  int rounds = 1;                ///< rounds of the whole matrix, one after the other
};

/// Parses "--sim-bw"'s "kind=GB/s[,kind=GB/s...]" against the routing
/// model's kinds (InputError naming the kind or value otherwise). Defined
/// with the platform spec (platform_spec.cpp), which needs no SimGrid.
void parse_bandwidths(std::string_view spec, const RoutingModel& routing, SimOptions& options);

struct SimResult {
  double seconds = 0.0;       ///< simulated time of `rounds` rounds
  std::int64_t messages = 0;  ///< per round
};

/// Simulates each mapping (sigma[rank] = PE) in turn; InputError when the
/// topology has no links (deco, .dist, cmplt), or when called twice in a
/// process (SimGrid's engine is one per process).
[[nodiscard]] std::vector<SimResult> simulate(const CommMatrix& comm, const Topology& topology,
                                              const std::vector<Mapping>& mappings, const SimOptions& options);

}  // namespace tmap::sim
