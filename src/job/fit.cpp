// Why a job's ranks do not fit where they may go, and what would make them.
#include <fmt/format.h>

#include <algorithm>

#include "job/job_state.hpp"
#include "tmap/host_layout.hpp"

namespace tmap {

/// Where a network's nodes are one PE each because no node was described,
/// describe the node; a matrix numbered from 1 (rank 0 silent, one rank too
/// many) is said; otherwise more nodes first (a production job wants a CPU
/// per rank), sharing CPUs (-o) last.
std::string not_fitting(const CommMatrix& comm, const Constraints& c, const std::string& shortfall,
                        const Topology& topology, bool node_given) {
  const auto n = comm.num_ranks();
  const auto pes = static_cast<std::int64_t>(c.allowed_pes().size());
  if (c.imbalance() >= 0.0 && c.load_limit() > 0) {
    // Balanced by load: the limit, not the PEs, is what is short.
    return fmt::format(
        "{} ranks do not fit: at --imbalance {} a PE may hold a load of {}, so at most {} of these "
        "ranks, {} on the {} allowed PEs; raise EPS or give the job more PEs",
        n, c.imbalance(), c.load_limit(), c.capacity(), c.num_slots(), pes);
  }
  auto text = fmt::format("{} ranks do not fit: {} allowed PEs x {} rank(s) each = {} slots", n, pes, c.capacity(),
                          c.num_slots());
  if (!shortfall.empty()) text += ": " + shortfall;
  bool rank0_silent = comm.targets(0).empty();
  for (Rank i = 1; i < n && rank0_silent; ++i) {
    const auto t = comm.targets(i);
    rank0_silent = t.empty() || t.front() != 0;
  }
  const auto kind = topology.kind();
  const bool network = kind == "fattree" || kind == "dragonfly" || kind == "torus" || kind == "slurm-tree";
  if (rank0_silent && n - 1 <= c.num_slots()) {
    text += "; rank 0 sends and receives nothing: is the matrix numbered from 1? (tmap numbers ranks from 0)";
  } else if (network && !node_given && topology.size() == topology.num_nodes()) {
    text += fmt::format(
        "; without --node each of the {} nodes is one PE: say what a node holds, e.g. --node 'package:2 core:12' "
        "(hwloc's synthetic description), --node node.xml (lstopo --of xml) or --node this",
        topology.num_nodes());
  } else if (pes > 0) {
    const auto per_node = topology.size() / std::max<NodeId>(1, topology.num_nodes());
    text += fmt::format(
        "; give the job more PEs ({} ranks need {} PEs: a larger allocation, or more nodes of {} PE(s)), or, to share "
        "{} between ranks, -o {}",
        n, n, per_node, device_slot(topology, 0) ? "GPUs" : "CPUs", (n + pes - 1) / pes);
  }
  return text;
}

}  // namespace tmap
