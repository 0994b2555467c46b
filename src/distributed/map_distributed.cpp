#include "distributed/map_distributed.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "distributed/gathered_map.hpp"
#include "distributed/grid_geometry.hpp"
#include "strategies/geometric/geometric.hpp"
#include "tmap/error.hpp"

namespace tmap::dist {

namespace {

/// True on every process when every pair is at the machine's least
/// distance between distinct PEs, one rank per PE: nothing does better.
bool provably_optimal(MPI_Comm comm, const LocalGraph& graph, const Topology& topology, const Constraints& constraints,
                      const Mapping& mapping) {
  const Distance least = topology.least_distance();
  if (least <= 0 || constraints.capacity() != 1) return false;
  int fine = 1;
  for (Rank v = 0; v < graph.count() && fine == 1; ++v) {
    const PE pe = mapping[static_cast<std::size_t>(graph.first + v)];
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      if (topology.distance(pe, mapping[static_cast<std::size_t>(graph.targets[static_cast<std::size_t>(e)])]) !=
          least) {
        fine = 0;
        break;
      }
    }
  }
  int every = 0;
  MPI_Allreduce(&fine, &every, 1, MPI_INT, MPI_MIN, comm);
  return every == 1;
}

}  // namespace

Mapping map_distributed(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                        const Constraints& constraints, const Context& context, DistributedStats* stats,
                        std::int64_t gather_entries) {
  DistributedStats local;
  auto& s = stats != nullptr ? *stats : local;
  const Rank n = graph.n;
  if (n > constraints.num_slots()) {
    throw InputError(std::to_string(n) + " ranks do not fit: " + std::to_string(constraints.num_slots()) + " slots");
  }
  const auto pes = constraints.allowed_pes();
  Mapping in_order(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) {
    in_order[static_cast<std::size_t>(r)] = pes[static_cast<std::size_t>(r / constraints.capacity())];
  }
  if (provably_optimal(comm, graph, topology, constraints, in_order)) {
    s.kept = "inorder";
    s.why = "every communicating pair at the least distance: optimal";
    return in_order;
  }
  std::optional<strategies::GridLayout> geometric;
  if (const auto grid = recover_grid(comm, graph)) {
    geometric = strategies::lay_out(
        *grid, topology, constraints,
        [&](const Mapping& mapping) { return distributed_hop_bytes(comm, graph, topology, mapping); }, s.why);
    if (geometric && provably_optimal(comm, graph, topology, constraints, geometric->mapping)) {
      s.kept = "geometric";
      s.why += " (optimal)";
      return std::move(geometric->mapping);
    }
  }
  // Candidates in order, ties to the first: the sequential default's on the
  // gathered graph where it is small enough, else PT-Scotch's; in-order; the
  // geometry's.
  Mapping best;
  std::int64_t best_cost = 0;
  const auto entries = total_entries(comm, graph);
  const bool gathered = entries <= gather_entries;
  if (gathered) {
    best = map_gathered(comm, graph, topology, constraints, context);
    best_cost = distributed_hop_bytes(comm, graph, topology, best);
    s.kept = "sequential";
  } else {
    best = map_ptscotch(comm, graph, topology, constraints, context, &s.halo);
    best_cost = s.halo.after;
    s.kept = "ptscotch";
  }
  const auto first_cost = best_cost;
  const auto in_order_cost = distributed_hop_bytes(comm, graph, topology, in_order);
  if (in_order_cost < best_cost) {
    best = std::move(in_order);
    best_cost = in_order_cost;
    s.kept = "inorder";
  }
  if (geometric && geometric->hop_bytes < best_cost) {
    best = std::move(geometric->mapping);
    best_cost = geometric->hop_bytes;
    s.kept = "geometric";
  }
  s.why =
      fmt::format("the lowest hop-bytes ({}) of {} ({}), inorder ({}){}", best_cost,
                  gathered ? fmt::format("the sequential default on the gathered graph ({} entries)", entries)
                           : std::string("ptscotch"),
                  first_cost, in_order_cost, geometric ? fmt::format(" and geometric ({})", geometric->hop_bytes) : "");
  return best;
}

}  // namespace tmap::dist
