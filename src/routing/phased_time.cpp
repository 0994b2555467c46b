// The predicted time of a traffic in phases: each rank through the phases
// in order (see phased_time.hpp).
#include "routing/phased_time.hpp"

#include <algorithm>

namespace tmap::detail {

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
  std::vector<double> next;
  for (std::int64_t round = 0; round < repeat; ++round) {
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
  std::vector<bool> takes_part(ready.size(), false);
  for (Rank i = 0; i < traffic.num_ranks(); ++i) {
    for (const Rank j : traffic.targets(i)) {
      takes_part[static_cast<std::size_t>(i)] = true;
      takes_part[static_cast<std::size_t>(j)] = true;
    }
  }
  for (std::size_t r = 0; r < ready.size(); ++r) {
    if (takes_part[r]) ready[r] = arrival[r] + rest;
  }
}

}  // namespace tmap::detail
