// The predicted time of a traffic in phases: each rank through the phases
// in order (see phased_time.hpp).
#include "routing/phased_time.hpp"

#include <algorithm>

namespace tmap::detail {

namespace {

/// Rounds of an exchange followed one by one; the rest go at the pace of
/// the slowest message of each group of ranks, so that a phase of REPEAT
/// 1,000,000 costs what a few rounds cost.
constexpr std::int64_t kExactRounds = 8;

/// Whether each rank sends or receives in a phase.
std::vector<bool> taking_part(const CommMatrix& traffic) {
  std::vector<bool> takes_part(static_cast<std::size_t>(traffic.num_ranks()), false);
  for (Rank i = 0; i < traffic.num_ranks(); ++i) {
    for (const Rank j : traffic.targets(i)) {
      takes_part[static_cast<std::size_t>(i)] = true;
      takes_part[static_cast<std::size_t>(j)] = true;
    }
  }
  return takes_part;
}

/// Each rank's group: the ranks a phase's messages join, named by one of
/// them (union-find with path halving).
std::vector<std::size_t> groups(const CommMatrix& traffic) {
  std::vector<std::size_t> parent(static_cast<std::size_t>(traffic.num_ranks()));
  for (std::size_t r = 0; r < parent.size(); ++r) parent[r] = r;
  const auto root = [&](std::size_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  for (Rank i = 0; i < traffic.num_ranks(); ++i) {
    for (const Rank j : traffic.targets(i))
      parent[root(static_cast<std::size_t>(i))] = root(static_cast<std::size_t>(j));
  }
  for (std::size_t r = 0; r < parent.size(); ++r) parent[r] = root(r);
  return parent;
}

}  // namespace

std::vector<Rank> upstream_first(const CommMatrix& traffic) {
  const auto n = static_cast<std::size_t>(traffic.num_ranks());
  std::vector<std::int64_t> waiting(n, 0);
  for (const Rank j : traffic.columns()) ++waiting[static_cast<std::size_t>(j)];
  std::vector<Rank> order;
  order.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) order.push_back(static_cast<Rank>(i));
  }
  for (std::size_t next = 0; next < order.size(); ++next) {
    for (const Rank j : traffic.targets(order[next])) {
      if (--waiting[static_cast<std::size_t>(j)] == 0) order.push_back(j);
    }
  }
  if (order.size() < n || traffic.columns().empty()) order.clear();
  return order;
}

/// Each message of one round of a phase (in the phase's row order): its
/// time alone, and its time in the round (the later of that and its
/// latency plus its busiest resource's time for the round's bytes); and
/// the busiest resource's time for the round.
struct PhasedTime::PhaseLoad {
  std::vector<double> alone;
  std::vector<double> in_round;
  double busiest = 0.0;
};

PhasedTime::PhasedTime(const CommMatrix& comm, const BottleneckModel& model) : comm_(comm), model_(model) {
  for (const auto& phase : comm.phases()) {
    pipelines_.push_back(phase.repeat > 1 ? upstream_first(phase.traffic) : std::vector<Rank>{});
  }
}

double PhasedTime::operator()(std::span<const PE> mapping) const {
  std::vector<double> ready(static_cast<std::size_t>(comm_.num_ranks()), 0.0);
  const auto phases = comm_.phases();
  for (std::size_t p = 0; p < phases.size(); ++p) {
    if (pipelines_[p].empty()) {
      exchange(phases[p].traffic, phases[p].repeat, mapping, ready);
    } else {
      pipeline(phases[p].traffic, phases[p].repeat, pipelines_[p], mapping, ready);
    }
  }
  return ready.empty() ? 0.0 : *std::ranges::max_element(ready);
}

PhasedTime::PhaseLoad PhasedTime::load(const CommMatrix& traffic, std::span<const PE> mapping) const {
  PhaseLoad load;
  std::vector<Volume> bytes(static_cast<std::size_t>(model_.num_resources()), 0);
  std::vector<double> latency;
  std::vector<std::size_t> route_end;
  std::vector<LinkId> routes;
  for_each_message(
      traffic, mapping, model_,
      [&](std::span<const LinkId> route, double message_latency, double narrowest, Volume volume) {
        for (const auto r : route) bytes[static_cast<std::size_t>(r)] += volume;
        latency.push_back(message_latency);
        load.alone.push_back(route.empty() ? 0.0 : message_latency + static_cast<double>(volume) / narrowest);
        routes.insert(routes.end(), route.begin(), route.end());
        route_end.push_back(routes.size());
      });
  std::vector<double> busy(bytes.size());
  for (std::size_t r = 0; r < bytes.size(); ++r) {
    busy[r] = static_cast<double>(bytes[r]) / model_.bandwidth(static_cast<LinkId>(r));
    load.busiest = std::max(load.busiest, busy[r]);
  }
  load.in_round.reserve(load.alone.size());
  for (std::size_t e = 0, k = 0; e < load.alone.size(); ++e) {
    double worst = 0.0;
    for (; k < route_end[e]; ++k) worst = std::max(worst, busy[static_cast<std::size_t>(routes[k])]);
    load.in_round.push_back(std::max(load.alone[e], latency[e] + worst));
  }
  return load;
}

void PhasedTime::exchange(const CommMatrix& traffic, std::int64_t repeat, std::span<const PE> mapping,
                          std::vector<double>& ready) const {
  const auto load = this->load(traffic, mapping);
  const auto begin = traffic.row_begin();
  // The first rounds one by one (the rest below, at each group's pace).
  const std::int64_t exact = std::min<std::int64_t>(repeat, kExactRounds);
  std::vector<double> next;
  for (std::int64_t round = 0; round < exact; ++round) {
    next = ready;
    for (Rank i = 0; i < traffic.num_ranks(); ++i) {
      const auto cols = traffic.targets(i);
      const auto first = static_cast<std::size_t>(begin[static_cast<std::size_t>(i)]);
      const double i_ready = ready[static_cast<std::size_t>(i)];
      for (std::size_t k = 0; k < cols.size(); ++k) {
        const auto j = static_cast<std::size_t>(cols[k]);
        const double end = std::max(i_ready, ready[j]) + load.in_round[first + k];
        next[static_cast<std::size_t>(i)] = std::max(next[static_cast<std::size_t>(i)], end);
        next[j] = std::max(next[j], end);
      }
    }
    ready.swap(next);
  }
  if (exact < repeat) {
    // The rest at the pace of the slowest message of each group of ranks
    // the phase joins, which its ranks settle into (a ring of q ranks takes
    // up to q rounds to: a rank's last increment is no pace to go on).
    const auto group = groups(traffic);
    std::vector<double> pace(ready.size(), 0.0);
    for (Rank i = 0; i < traffic.num_ranks(); ++i) {
      const auto first = static_cast<std::size_t>(begin[static_cast<std::size_t>(i)]);
      auto& slowest = pace[group[static_cast<std::size_t>(i)]];
      for (std::size_t k = 0; k < traffic.targets(i).size(); ++k) slowest = std::max(slowest, load.in_round[first + k]);
    }
    const auto more = static_cast<double>(repeat - exact);
    for (std::size_t r = 0; r < ready.size(); ++r) ready[r] += more * pace[group[r]];
  }
}

void PhasedTime::pipeline(const CommMatrix& traffic, std::int64_t repeat, std::span<const Rank> order,
                          std::span<const PE> mapping, std::vector<double>& ready) const {
  const auto load = this->load(traffic, mapping);
  const auto begin = traffic.row_begin();
  // The fill: each rank's last arrival along chains of messages alone,
  // from where each chain's first sender was ready.
  std::vector<double> arrival(ready);
  for (const Rank i : order) {
    const auto cols = traffic.targets(i);
    const auto first = static_cast<std::size_t>(begin[static_cast<std::size_t>(i)]);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      auto& at = arrival[static_cast<std::size_t>(cols[k])];
      at = std::max(at, arrival[static_cast<std::size_t>(i)] + load.alone[first + k]);
    }
  }
  const double rest = static_cast<double>(repeat - 1) * load.busiest;
  const auto takes_part = taking_part(traffic);
  for (std::size_t r = 0; r < ready.size(); ++r) {
    if (takes_part[r]) ready[r] = arrival[r] + rest;
  }
}

}  // namespace tmap::detail
