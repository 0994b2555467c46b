// auto's search for a mapping at or below two candidates that trade off
// (see auto.hpp: as_fast_within_hop_bytes).
#include <algorithm>
#include <map>
#include <vector>

#include "routing/phased_time.hpp"
#include "strategies/auto/auto.hpp"
#include "strategies/common/node_pes.hpp"
#include "strategies/common/settle_in_nodes.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {

/// The sum over the machine's resources of the square of the seconds each
/// is busy over the whole job (every phase, every round): a mapping's
/// spread of load, which falls when a move unloads a busiest resource even
/// where another as busy stays (a plateau of the predicted time).
class LoadSpread {
 public:
  LoadSpread(const CommMatrix& comm, const BottleneckModel& model) : comm_(comm), model_(model) {}

  double operator()(std::span<const PE> mapping) const {
    busy_.assign(static_cast<std::size_t>(model_.num_resources()), 0.0);
    const auto add = [&](const CommMatrix& traffic, double rounds) {
      detail::for_each_message(
          traffic, mapping, model_, [&](std::span<const LinkId> route, double, double, Volume volume) {
            for (const auto r : route) {
              busy_[static_cast<std::size_t>(r)] += rounds * static_cast<double>(volume) / model_.bandwidth(r);
            }
          });
    };
    if (comm_.phases().empty()) {
      add(comm_, 1.0);
    } else {
      for (const auto& phase : comm_.phases()) add(phase.traffic, static_cast<double>(phase.repeat));
    }
    double sum = 0.0;
    for (const double b : busy_) sum += b * b;
    return sum;
  }

 private:
  const CommMatrix& comm_;
  const BottleneckModel& model_;
  mutable std::vector<double> busy_;
};

}  // namespace

std::int64_t scores_allowed(const CommMatrix& comm, const AsFastLimits& limits) {
  std::int64_t messages = comm.num_entries();
  if (!comm.phases().empty()) {
    messages = 0;
    for (const auto& phase : comm.phases()) messages += phase.traffic.num_entries();
  }
  return std::min(limits.most_evaluations, limits.most_message_visits / std::max<std::int64_t>(messages, 1));
}

AsFastResult as_fast_within_hop_bytes(const Problem& problem, const ObjectiveMeter& meter, Mapping& mapping,
                                      ObjectiveScore score, double target, const AsFastLimits& limits) {
  const auto* model = meter.bottleneck();
  if (problem.constraints.capacity() != 1 || model == nullptr) return {.score = score, .skipped = true};
  const LoadSpread spread_of(problem.comm, *model);
  // Each node's allowed PEs, in PE order, and who sits on each.
  const auto nodes = pes_by_node(problem.topology, problem.constraints.allowed_pes());
  std::map<PE, Rank> holder;
  for (std::size_t r = 0; r < mapping.size(); ++r) holder[mapping[r]] = static_cast<Rank>(r);
  const auto rank_on = [&](PE pe) {
    const auto it = holder.find(pe);
    return it == holder.end() ? Rank{-1} : it->second;
  };
  const std::int64_t most_evaluations = scores_allowed(problem.comm, limits);
  // Too few scores to be worth starting (15 found nothing at 4,096 ranks
  // of LU on Tianhe-3).
  if (most_evaluations < limits.least_evaluations) return {.score = score, .skipped = true};
  const std::int64_t ceiling = score.hop_bytes;
  double spread = spread_of(mapping);
  std::int64_t evaluations = 0;
  // Exchanges the ranks of PEs xs[k] and ys[k] for every k, keeps the
  // result when it is faster, or as fast and less spread, within the
  // hop-bytes; else puts them back.
  const auto try_exchange = [&](std::span<const PE> xs, std::span<const PE> ys) {
    std::vector<std::pair<Rank, Rank>> ranks;
    for (std::size_t k = 0; k < xs.size(); ++k) ranks.emplace_back(rank_on(xs[k]), rank_on(ys[k]));
    const auto place = [&](bool exchanged) {
      for (std::size_t k = 0; k < xs.size(); ++k) {
        if (ranks[k].first >= 0) mapping[static_cast<std::size_t>(ranks[k].first)] = exchanged ? ys[k] : xs[k];
        if (ranks[k].second >= 0) mapping[static_cast<std::size_t>(ranks[k].second)] = exchanged ? xs[k] : ys[k];
      }
    };
    place(true);
    ++evaluations;
    const auto tried = meter(mapping);
    bool keep = false;
    double tried_spread = spread;
    if (tried.hop_bytes <= ceiling) {
      if (tried.value < score.value * (1.0 - 1e-9)) {
        keep = true;
        tried_spread = spread_of(mapping);
      } else if (tried.value <= score.value * (1.0 + 1e-9)) {
        tried_spread = spread_of(mapping);
        keep = tried_spread < spread * (1.0 - 1e-9);
      }
    }
    if (!keep) {
      place(false);
      return false;
    }
    score = tried;
    spread = tried_spread;
    for (std::size_t k = 0; k < xs.size(); ++k) {
      holder.erase(xs[k]);
      holder.erase(ys[k]);
    }
    for (std::size_t k = 0; k < xs.size(); ++k) {
      if (ranks[k].first >= 0) holder[ys[k]] = ranks[k].first;
      if (ranks[k].second >= 0) holder[xs[k]] = ranks[k].second;
    }
    return true;
  };
  const auto done = [&] { return evaluations >= most_evaluations || score.value <= target; };
  bool improved = true;
  while (improved && !done()) {
    improved = false;
    // Whole nodes' ranks exchanged, PE k for PE k (nodes of one shape).
    for (std::size_t a = 0; a < nodes.size() && !done(); ++a) {
      for (std::size_t b = a + 1; b < nodes.size() && !done(); ++b) {
        if (nodes[a].size() == nodes[b].size()) improved |= try_exchange(nodes[a], nodes[b]);
      }
    }
    // Two PEs of one node.
    for (const auto& pes : nodes) {
      for (std::size_t a = 0; a < pes.size() && !done(); ++a) {
        for (std::size_t b = a + 1; b < pes.size() && !done(); ++b) {
          if (rank_on(pes[a]) >= 0 || rank_on(pes[b]) >= 0) {
            improved |= try_exchange(std::span<const PE>(&pes[a], 1), std::span<const PE>(&pes[b], 1));
          }
        }
      }
    }
  }
  return {.score = score, .scores = evaluations};
}

AsFastResult fewer_hop_bytes_within_time(const Problem& problem, const ObjectiveMeter& meter, Mapping& mapping,
                                         ObjectiveScore score, std::int64_t target, const AsFastLimits& limits) {
  if (problem.constraints.capacity() != 1 || meter.bottleneck() == nullptr) return {.score = score, .skipped = true};
  const std::int64_t most_evaluations = scores_allowed(problem.comm, limits);
  if (most_evaluations < limits.least_evaluations) return {.score = score, .skipped = true};
  const CommMatrix sym = problem.comm.symmetrized();
  const auto& topology = problem.topology;
  const auto cost = [&](Rank r, PE pe, Rank skip) {
    return pairs_cost(sym, topology, mapping, r, pe, std::span<const Rank>(&skip, 1));
  };
  const double ceiling = score.value;
  std::int64_t evaluations = 0;
  const auto n = static_cast<Rank>(mapping.size());
  bool improved = true;
  while (improved && score.hop_bytes > target && evaluations < most_evaluations) {
    improved = false;
    for (Rank x = 0; x < n && score.hop_bytes > target && evaluations < most_evaluations; ++x) {
      for (Rank y = x + 1; y < n && score.hop_bytes > target && evaluations < most_evaluations; ++y) {
        const PE px = mapping[static_cast<std::size_t>(x)];
        const PE py = mapping[static_cast<std::size_t>(y)];
        const Volume gain = cost(x, px, y) + cost(y, py, x) - cost(x, py, y) - cost(y, px, x);
        if (gain <= 0) continue;
        mapping[static_cast<std::size_t>(x)] = py;
        mapping[static_cast<std::size_t>(y)] = px;
        ++evaluations;
        const auto tried = meter(mapping);
        if (tried.hop_bytes < score.hop_bytes && tried.value <= ceiling * (1.0 + 1e-9)) {
          score = tried;
          improved = true;
        } else {
          mapping[static_cast<std::size_t>(x)] = px;
          mapping[static_cast<std::size_t>(y)] = py;
        }
      }
    }
  }
  return {.score = score, .scores = evaluations};
}

}  // namespace tmap::strategies
