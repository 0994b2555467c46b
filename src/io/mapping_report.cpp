// What a mapping costs, as the reports show it: one function for the tools'
// runs, their --compare-file mappings and the library's callers.
#include <algorithm>
#include <map>

#include "tmap/comm_matrix.hpp"
#include "tmap/objective.hpp"
#include "tmap/report.hpp"
#include "tmap/topology.hpp"

namespace tmap {

std::vector<std::pair<NodeId, Volume>> node_traffic(const CommMatrix& comm, const Topology& topology,
                                                    std::span<const PE> mapping) {
  std::map<NodeId, Volume> bytes;
  const auto node = [&](Rank r) { return topology.node_of(mapping[static_cast<std::size_t>(r)]); };
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    bytes.try_emplace(node(i), 0);
    const auto partners = comm.targets(i);
    const auto volumes = comm.volumes(i);
    for (std::size_t e = 0; e < partners.size(); ++e) {
      if (node(i) == node(partners[e])) continue;
      bytes[node(i)] += volumes[e];
      bytes[node(partners[e])] += volumes[e];
    }
  }
  return {bytes.begin(), bytes.end()};
}

MappingReport describe_mapping(const Problem& problem, std::span<const PE> mapping, const RoutingModel* routing,
                               std::string_view link_bandwidths) {
  MappingReport report;
  report.topology = problem.topology.description();
  report.num_pes = problem.topology.size();
  report.metrics = evaluate(problem.comm, problem.topology, mapping);
  if (routing != nullptr) {
    report.routes = evaluate_routes(problem.comm, *routing, mapping);
    report.predicted_time_s =
        ObjectiveMeter(problem.comm, problem.topology, Objective::Time, link_bandwidths)(mapping).value;
  }
  report.node_traffic = node_traffic(problem.comm, problem.topology, mapping);
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
