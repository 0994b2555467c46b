// The machine of a job with no machine given (tmap/scheduler.hpp).
#include <fmt/format.h>

#include "tmap/scheduler.hpp"

namespace tmap {

SchedulerMachine Scheduler::machine(const std::string& node,
                                    std::vector<std::pair<std::string, std::string>> node_by_hosts,
                                    const AllocationRequest& request) const {
  SchedulerMachine machine;
  auto& spec = machine.spec;
  spec.node = node.empty() ? "this" : node;
  spec.node_by_hosts = std::move(node_by_hosts);
  const auto* node_origin = node.empty() ? "as hwloc sees this one" : "of --node";
  auto tree = switch_tree();
  if (!tree.text.empty()) {
    machine.note =
        fmt::format("no -t: the machine is {}'s switch tree (from {}), each node {}",
                    name() == "slurm" ? std::string("Slurm") : std::string(name()), tree.origin, node_origin);
    spec.topology = tree.origin;
    spec.topology_text = std::move(tree.text);
    return machine;
  }
  // No tree to go by: the job's nodes, all one switch apart.
  AllocationRequest whole_nodes = request;
  whole_nodes.known = nullptr;
  whole_nodes.cpus_per_rank_given = true;
  const auto job = allocation(whole_nodes);
  machine.note =
      fmt::format("no -t and no switch tree ({}): the job's {} nodes are taken as one switch's, each node {}",
                  tree.unavailable, job.hosts.size(), node_origin);
  spec.topology = "the job's nodes";
  spec.topology_text = "SwitchName=job Nodes=";
  for (std::size_t k = 0; k < job.hosts.size(); ++k) spec.topology_text += (k > 0 ? "," : "") + job.hosts[k];
  return machine;
}

}  // namespace tmap
