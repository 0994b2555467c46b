// Deveci, Kaya, Ucar and Catalyurek, "Fast and high quality topology-aware
// task mapping" (IPDPS 2015), as in the UMPA framework:
//   umpa-greedy  Algorithm 1, greedy graph growing: the task with the most
//                send+receive volume first, then the task most connected to
//                the mapped ones, each on the free site nearest to its
//                partners' sites (BFS level), least weighted hops among those;
//                N_BFS in {0, 1} extra far-apart seeds, the better kept.
//   umpa-wh      + Algorithm 2: each task in order of the weighted hops it
//                causes tries the first Delta = 8 candidates found by BFS from
//                its partners' sites, swapping with the first that lowers WH;
//                passes while a pass gains more than 0.5 %.
//   umpa-mc      + Algorithm 3: swaps that lower the maximum volume congestion
//                (then the average), tried for the tasks whose messages cross
//                the most congested link. Needs a routing model.
// Deviations (documented in docs/strategies.md): no METIS pre-partition into nodes
// (tasks go straight to free slots, the paper's first suggestion), and moves
// onto free slots join the swaps when the allocation has spare slots.
#pragma once

#include <vector>

#include "strategies/common/sites.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

namespace umpa {
inline constexpr std::size_t kDelta = 8;       ///< candidates per task (the paper's Delta)
inline constexpr double kMinPassGain = 0.005;  ///< another WH pass only above 0.5 %

/// Algorithm 1 with `seeds` = N_BFS.
[[nodiscard]] std::vector<Site> greedy_mapping(const CommMatrix& sym, const SiteSpace& sites, int seeds);
/// Algorithm 2 on site_of (in place). Returns the passes run.
int refine_weighted_hops(const CommMatrix& sym, const SiteSpace& sites, std::vector<Site>& site_of);
}  // namespace umpa

class UmpaGreedyMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

class UmpaWhMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

class UmpaMcMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
