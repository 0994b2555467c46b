// What a mapping costs, as the reports show it: one function for the tools'
// runs, their --compare-file mappings and the library's callers.
#include <algorithm>
#include <string>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/objective.hpp"
#include "tmap/report.hpp"
#include "tmap/topology.hpp"
#include "util/parallel.hpp"

namespace tmap {

std::vector<std::pair<NodeId, Volume>> node_traffic(const CommMatrix& comm, const Topology& topology,
                                                    std::span<const PE> mapping) {
  // Counted in arrays over the machine's nodes (a map's lookup per message
  // was a quarter of a million-rank run's report), listed in node order.
  std::vector<Volume> bytes(static_cast<std::size_t>(topology.num_nodes()), 0);
  std::vector<char> occupied(bytes.size(), 0);
  std::vector<NodeId> node_of_rank(static_cast<std::size_t>(comm.num_ranks()));
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const NodeId node = topology.node_of(mapping[static_cast<std::size_t>(i)]);
    if (node < 0 || static_cast<std::size_t>(node) >= bytes.size()) {
      throw InternalError("node_traffic: PE " + std::to_string(mapping[static_cast<std::size_t>(i)]) + " of rank " +
                          std::to_string(i) + " is on node " + std::to_string(node) + " of " +
                          std::to_string(bytes.size()));
    }
    node_of_rank[static_cast<std::size_t>(i)] = node;
    occupied[static_cast<std::size_t>(node)] = 1;
  }
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const NodeId from = node_of_rank[static_cast<std::size_t>(i)];
    const auto partners = comm.targets(i);
    const auto volumes = comm.volumes(i);
    for (std::size_t e = 0; e < partners.size(); ++e) {
      const NodeId to = node_of_rank[static_cast<std::size_t>(partners[e])];
      if (from == to) continue;
      bytes[static_cast<std::size_t>(from)] += volumes[e];
      bytes[static_cast<std::size_t>(to)] += volumes[e];
    }
  }
  std::vector<std::pair<NodeId, Volume>> out;
  for (std::size_t node = 0; node < bytes.size(); ++node) {
    if (occupied[node] != 0) out.emplace_back(static_cast<NodeId>(node), bytes[node]);
  }
  return out;
}

MappingReport describe_mapping(const Problem& problem, std::span<const PE> mapping, const RoutingModel* routing,
                               std::string_view link_bandwidths, int threads) {
  MappingReport report;
  report.topology = problem.topology.description();
  report.num_pes = problem.topology.size();
  // Every message is routed twice (link loads, predicted time): one routing
  // on each side, the distances and node traffic (a fraction of a routing)
  // before the predicted time. At a million ranks on a torus each routing
  // is seconds. The sides write separate fields.
  detail::run_both(
      threads > 1 && routing != nullptr,
      [&] {
        report.metrics = evaluate(problem.comm, problem.topology, mapping);
        report.node_traffic = node_traffic(problem.comm, problem.topology, mapping);
        if (routing == nullptr) return;
        report.predicted_time_s =
            ObjectiveMeter(problem.comm, problem.topology, Objective::Time, link_bandwidths)(mapping).value;
      },
      [&] {
        if (routing != nullptr) report.routes = evaluate_routes(problem.comm, *routing, mapping);
      });
  const auto& c = problem.constraints;
  if (!problem.comm.rank_weights().empty() || c.imbalance() >= 0.0) {
    LoadReport loads;
    const auto per_pe = pe_loads(mapping, problem.comm.rank_weights(), c);
    for (const Volume load : per_pe) loads.max_load = std::max(loads.max_load, load);
    loads.limit = c.load_limit();
    loads.average = c.allowed_pes().empty() ? 0.0
                                            : static_cast<double>(problem.comm.total_rank_weight()) /
                                                  static_cast<double>(c.allowed_pes().size());
    loads.imbalance = loads.average > 0.0 ? static_cast<double>(loads.max_load) / loads.average - 1.0 : 0.0;
    loads.asked = c.imbalance();
    report.loads = loads;
  }
  return report;
}

}  // namespace tmap
