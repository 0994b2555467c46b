// The predicted time of a traffic in phases (CommMatrix::phases: a
// .phases file, tm-gen's application patterns), for ObjectiveMeter.
//
// Each rank goes through the phases in their order, with no barrier: a
// rank starts a phase when it is done with the last (SimGrid's runs of the
// proxies and of `tm-sim --app replay` do the same).
//  - A phase whose sends form a cycle (exchanges, an all-reduce's steps),
//    run R times: in each round a message i -> j starts when both i and j
//    are done with what came before, and takes the later of its time alone
//    and its latency plus the time its busiest resource needs for the
//    round's bytes; both ranks are done when it ends. Where every rank
//    waits on the same busiest resource this is the phase's one round (the
//    flow model of objective.hpp) times R; where the busiest resources of
//    consecutive phases load different ranks, the phases overlap.
//  - A phase whose sends form no cycle, run R > 1 times (a pipelined sweep,
//    each rank sending a round once it received it): a rank's last round
//    arrives after the longest chain of messages alone that reaches it (the
//    fill), the R - 1 others follow at the pace of the phase's busiest
//    resource (its bytes of one round).
// Checked against SimGrid (docs/measurements.md, "Time in phases, rank by
// rank"): LU's lower sweep at 1,024 ranks (the wavefront proxy, 408
// planes) 0.93-0.97 of SimGrid's time on three mappings and 0.71 on two
// (in-order, greedy), ordered as SimGrid orders them (in-order and greedy
// equal, 0.4 % apart in SimGrid; one round per plane: 1.19-1.66, four of
// the five equal); LU's four halo turns at 4,096 ranks
// (the replay) 1.00-1.05 on three mappings and 1.27 on scotch+'s (one
// after another: treematch's 1.50, ranking it last where SimGrid ranks it
// first).
#pragma once

#include <limits>
#include <span>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/objective.hpp"
#include "tmap/types.hpp"

namespace tmap::detail {

/// Calls visit(route, latency, narrowest, bytes) for each message of
/// `traffic` in row order, with the resources it
/// loads under `model` (none between ranks on one PE), its latency and its
/// slowest resource's bandwidth (infinite when none).
template <class Visit>
void for_each_message(const CommMatrix& traffic, std::span<const PE> mapping, const BottleneckModel& model,
                      Visit&& visit) {
  std::vector<LinkId> route;
  for (Rank i = 0; i < traffic.num_ranks(); ++i) {
    const auto cols = traffic.targets(i);
    const auto vols = traffic.volumes(i);
    const PE a = mapping[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const PE b = mapping[static_cast<std::size_t>(cols[k])];
      route.clear();
      model.resources(a, b, route);
      visit(std::span<const LinkId>(route), model.latency(a, b, route), model.narrowest(route), vols[k]);
    }
  }
}

/// A phase's ranks, every sender before the ranks it sends to (Kahn's
/// order); empty when its sends form a cycle or it sends nothing.
[[nodiscard]] std::vector<Rank> upstream_first(const CommMatrix& traffic);

class PhasedTime {
 public:
  /// `comm` (with its phases) and `model` (a time model) must outlive this.
  PhasedTime(const CommMatrix& comm, const BottleneckModel& model);
  /// The time the last rank is done with the last phase.
  [[nodiscard]] double operator()(std::span<const PE> mapping) const;

 private:
  struct PhaseLoad;
  [[nodiscard]] PhaseLoad load(const CommMatrix& traffic, std::span<const PE> mapping) const;
  void exchange(const CommMatrix& traffic, std::int64_t repeat, std::span<const PE> mapping,
                std::vector<double>& ready) const;
  void pipeline(const CommMatrix& traffic, std::int64_t repeat, std::span<const Rank> order,
                std::span<const PE> mapping, std::vector<double>& ready) const;

  const CommMatrix& comm_;
  const BottleneckModel& model_;
  /// Per phase: its ranks upstream first where its rounds pipeline, else empty.
  std::vector<std::vector<Rank>> pipelines_;
};

}  // namespace tmap::detail
