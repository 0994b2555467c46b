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

/// What one round of a phase loads: each message's time alone, its
/// latency and the resources it crosses (in the phase's row order), and
/// each resource's time for the round's bytes.
struct PhasedTime::PhaseLoad {
  std::vector<double> alone;
  std::vector<double> latency;
  std::vector<std::size_t> route_end;
  std::vector<LinkId> routes;
  std::vector<double> busy;

  /// Message e: the later of its time alone and its latency plus its
  /// busiest resource's time.
  [[nodiscard]] double message_time(std::size_t e) const {
    double worst = 0.0;
    for (std::size_t k = e == 0 ? 0 : route_end[e - 1]; k < route_end[e]; ++k) {
      worst = std::max(worst, busy[static_cast<std::size_t>(routes[k])]);
    }
    return std::max(alone[e], latency[e] + worst);
  }
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
  const auto messages = traffic.columns().size();
  load.alone.reserve(messages);
  load.latency.reserve(messages);
  load.route_end.reserve(messages);
  for_each_message(traffic, mapping, model_,
                   [&](std::size_t, std::span<const LinkId> route, double latency, double narrowest, Volume volume) {
                     for (const auto r : route) bytes[static_cast<std::size_t>(r)] += volume;
                     load.latency.push_back(latency);
                     load.alone.push_back(route.empty() ? 0.0 : latency + static_cast<double>(volume) / narrowest);
                     load.routes.insert(load.routes.end(), route.begin(), route.end());
                     load.route_end.push_back(load.routes.size());
                   });
  load.busy.resize(bytes.size());
  for (std::size_t r = 0; r < bytes.size(); ++r) {
    load.busy[r] = static_cast<double>(bytes[r]) / model_.bandwidth(static_cast<LinkId>(r));
  }
  return load;
}

void PhasedTime::exchange(const CommMatrix& traffic, std::int64_t repeat, std::span<const PE> mapping,
                          std::vector<double>& ready) const {
  const auto load = this->load(traffic, mapping);
  const auto begin = traffic.row_begin();
  // The first rounds exactly; after them each rank has settled into the
  // pace of the slowest cycle it waits on, which the rest of the rounds
  // keep (so the time stays one pass per round at most, whatever REPEAT).
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
        const double end = std::max(i_ready, ready[j]) + load.message_time(first + k);
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
      for (std::size_t k = 0; k < traffic.targets(i).size(); ++k)
        slowest = std::max(slowest, load.message_time(first + k));
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
  const double period = load.busy.empty() ? 0.0 : *std::ranges::max_element(load.busy);
  const double rest = static_cast<double>(repeat - 1) * period;
  const auto takes_part = taking_part(traffic);
  for (std::size_t r = 0; r < ready.size(); ++r) {
    if (takes_part[r]) ready[r] = arrival[r] + rest;
  }
}

}  // namespace tmap::detail
