#include "strategies/umpa/umpa.hpp"

#include <fmt/format.h>

#include "strategies/umpa/refine_mc.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"

namespace tmap::strategies {

namespace {

/// Algorithm 1 twice (N_BFS = 0 and 1); the lower hop-bytes wins (ties: 0).
std::vector<Site> best_greedy(const Problem& problem, const CommMatrix& sym, const SiteSpace& sites,
                              const Run& context) {
  std::vector<Site> best;
  std::int64_t best_cost = 0;
  for (int seeds = 0; seeds <= 1; ++seeds) {
    auto site_of = umpa::greedy_mapping(sym, sites, seeds);
    const auto cost = evaluate(problem.comm, problem.topology, sites.to_mapping(site_of)).hop_bytes;
    context.note(2, fmt::format("umpa: greedy with N_BFS = {}: hop-bytes {}", seeds, cost));
    if (best.empty() || cost < best_cost) {
      best = std::move(site_of);
      best_cost = cost;
    }
  }
  return best;
}

Mapping weighted_hops_mapping(const Problem& problem, const Run& context) {
  const auto sym = problem.comm.symmetrized();
  const SiteSpace sites(problem.topology, problem.constraints);
  sites.refuse_if_too_many("umpa");
  auto site_of = best_greedy(problem, sym, sites, context);
  const int passes = umpa::refine_weighted_hops(sym, sites, site_of);
  context.note(2, fmt::format("umpa: {} WH refinement pass(es)", passes));
  return sites.to_mapping(site_of);
}

}  // namespace

Mapping UmpaGreedyMapper::map(const Problem& problem, const Run& context) const {
  const auto sym = problem.comm.symmetrized();
  const SiteSpace sites(problem.topology, problem.constraints);
  sites.refuse_if_too_many("umpa-greedy");
  return sites.to_mapping(best_greedy(problem, sym, sites, context));
}

Mapping UmpaWhMapper::map(const Problem& problem, const Run& context) const {
  return weighted_hops_mapping(problem, context);
}

Mapping UmpaMcMapper::map(const Problem& problem, const Run& context) const {
  auto mapping = weighted_hops_mapping(problem, context);
  const auto routing = make_routing(problem.topology);
  if (!routing) {
    context.note(1, "umpa-mc: no routing model for a " + problem.topology.kind() +
                        " topology; the congestion refinement is skipped (umpa-wh's mapping)");
    return mapping;
  }
  if (!context.link_bandwidths.empty()) routing->set_bandwidths(context.link_bandwidths);
  const auto sym = problem.comm.symmetrized();
  // Routes are exact between sites when a site is one PE, or a node whose
  // PEs are 0 apart (no network inside it: Tianhe-3); tree nodes have links
  // inside, so there every PE is its own site.
  const auto intra = problem.topology.node_uniform_distance();
  const bool per_pe = !(intra && *intra == 0);
  const SiteSpace pes(problem.topology, problem.constraints, per_pe);
  auto site_of = pes.sites_of(mapping);
  const BottleneckModel model(problem.topology, *routing, Objective::Congestion);
  const auto r = umpa::refine_congestion(problem.comm, sym, pes, model, site_of);
  context.note(2, fmt::format("umpa-mc: {} swaps, MC {} -> {}, AC {:.4g} -> {:.4g}", r.swaps, r.mc_before, r.mc_after,
                              r.ac_before, r.ac_after));
  return pes.to_mapping(site_of);
}

}  // namespace tmap::strategies
