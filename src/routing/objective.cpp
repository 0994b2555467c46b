// Objectives: names, the bottleneck model and scores.
#include "tmap/objective.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "routing/phased_time.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/names.hpp"

namespace tmap {

namespace {

constexpr std::array<detail::Named<Objective>, 3> kObjectives{{
    {Objective::HopBytes, "hop-bytes"},
    {Objective::Congestion, "congestion"},
    {Objective::Time, "time"},
}};

}  // namespace

Objective objective_from_name(std::string_view name) {
  if (const auto objective = detail::find_by_name(kObjectives, name)) return *objective;
  throw ParameterError("unknown objective '" + std::string(name) + "' (known: " + detail::joined_names(kObjectives) +
                       ")");
}

std::string_view objective_name(Objective objective) {
  return detail::name_of(kObjectives, objective).value_or("hop-bytes");
}

std::vector<std::string> objective_names() {
  return detail::all_names(kObjectives);
}

BottleneckModel::BottleneckModel(const Topology& topology, const RoutingModel& routing, Objective objective,
                                 const TimeModel& time)
    : topology_(topology), routing_(routing), objective_(objective), time_(time), num_links_(routing.num_links()) {
  const bool seconds = objective == Objective::Time;
  for (std::size_t k = 0; k < routing.link_kinds().size(); ++k) {
    // A kind's relative bandwidth counts its parallel cables (a dragonfly's
    // blue link of k cables: k) and --link-bw.
    const double relative = routing.bandwidth_of_kind(static_cast<int>(k));
    kind_bandwidth_.push_back(seconds ? time.bandwidth * relative : relative);
  }
  if (!kind_bandwidth_.empty() && std::all_of(kind_bandwidth_.begin(), kind_bandwidth_.end(),
                                              [&](double b) { return b == kind_bandwidth_.front(); })) {
    uniform_bandwidth_ = kind_bandwidth_.front();
  }
  unit_hops_ = routing.every_link_one_hop();
  // Memory counts in time only: congestion is the network's.
  if (seconds) {
    memories_ = topology.num_nodes();
    kind_bandwidth_.push_back(time.node_bandwidth);
  }
}

double BottleneckModel::narrowest(std::span<const LinkId> resources) const {
  if (resources.empty()) return std::numeric_limits<double>::infinity();
  // A memory is a route of its own (resources() adds it only to an empty one).
  if (uniform_bandwidth_ > 0 && resources.front() < num_links_) return uniform_bandwidth_;
  double least = std::numeric_limits<double>::infinity();
  for (const auto r : resources) least = std::min(least, bandwidth(r));
  return least;
}

void BottleneckModel::resources(PE a, PE b, std::vector<LinkId>& out) const {
  if (a == b) return;
  const auto before = out.size();
  routing_.route(a, b, out);
  if (out.size() == before && memories_ > 0) out.push_back(num_links_ + topology_.node_of(a));
}

int BottleneckModel::kind(LinkId resource) const {
  if (resource >= num_links_) return num_kinds() - 1;
  return routing_.link_kind(resource);
}

double BottleneckModel::latency(PE a, PE b, std::span<const LinkId> resources) const {
  if (objective_ != Objective::Time || resources.empty()) return 0.0;
  if (resources.front() >= num_links_) return time_.node_latency;
  Distance hops = routing_.source_hops(a) + routing_.destination_hops(b);
  if (unit_hops_) {
    hops += static_cast<Distance>(resources.size());
  } else {
    for (const auto link : resources) hops += routing_.link_hops(link);
  }
  return time_.latency * static_cast<double>(hops);
}

ObjectiveMeter::ObjectiveMeter(const CommMatrix& comm, const Topology& topology, Objective objective,
                               std::string_view link_bandwidths, const TimeModel& time)
    : comm_(comm), topology_(topology), objective_(objective) {
  if (objective == Objective::HopBytes) return;
  routing_ = make_routing(topology);
  if (!routing_) {
    throw ParameterError(fmt::format(
        "objective {}: a {} machine has no routes (its links are unknown); use hop-bytes, or a machine with links "
        "(tianhe3, mesh, torus, hypercube, a tree, a network of nodes)",
        objective_name(objective), topology.kind()));
  }
  if (!link_bandwidths.empty()) routing_->set_bandwidths(link_bandwidths);
  bottleneck_ = std::make_unique<BottleneckModel>(topology, *routing_, objective, time);
  if (objective == Objective::Time && !comm.phases().empty()) {
    phased_ = std::make_unique<detail::PhasedTime>(comm, *bottleneck_);
  }
}

ObjectiveMeter::~ObjectiveMeter() = default;

ObjectiveScore ObjectiveMeter::operator()(std::span<const PE> mapping) const {
  ObjectiveScore score;
  score.hop_bytes = evaluate(comm_, topology_, mapping).hop_bytes;
  if (!bottleneck_) {
    score.value = static_cast<double>(score.hop_bytes);
    return score;
  }
  // Time of a phased traffic: each rank through the phases in order
  // (routing/phased_time.hpp). Congestion is the links' bytes over the
  // whole job, phased or not.
  if (phased_) {
    score.value = (*phased_)(mapping);
    return score;
  }
  score.value = one_round(comm_, mapping);
  return score;
}

double ObjectiveMeter::one_round(const CommMatrix& traffic, std::span<const PE> mapping) const {
  // Bytes per resource (a resource carries at most the total volume, which
  // evaluate() has checked fits) and, for time, when its first message
  // arrives (the least latency of the routes through it): side by side, one
  // cache line a hop on machines of millions of links.
  struct Load {
    Volume bytes = 0;
    double first = std::numeric_limits<double>::infinity();
  };
  const auto resources = static_cast<std::size_t>(bottleneck_->num_resources());
  std::vector<Load> load(resources);
  double slowest_message = 0.0;
  detail::for_each_message(traffic, mapping, *bottleneck_,
                           [&](std::span<const LinkId> route, double latency, double narrowest, Volume volume) {
                             if (route.empty()) return;
                             for (const auto r : route) {
                               auto& l = load[static_cast<std::size_t>(r)];
                               l.bytes += volume;
                               l.first = std::min(l.first, latency);
                             }
                             // The message alone: its latency, then its bytes at its slowest link.
                             slowest_message =
                                 std::max(slowest_message, latency + static_cast<double>(volume) / narrowest);
                           });
  // Each resource: busy from its first message's arrival until all its bytes passed.
  double busiest = 0.0;
  for (std::size_t r = 0; r < resources; ++r) {
    if (load[r].bytes > 0) {
      busiest = std::max(
          busiest, load[r].first + static_cast<double>(load[r].bytes) / bottleneck_->bandwidth(static_cast<LinkId>(r)));
    }
  }
  // Congestion: the busiest link's bytes over its bandwidth (latencies are
  // 0). Time: the later of the two bounds.
  return bottleneck_->latency_counts() ? std::max(busiest, slowest_message) : busiest;
}

std::string describe_score(Objective objective, const ObjectiveScore& score) {
  switch (objective) {
    case Objective::Congestion:
      return fmt::format("busiest link {:g}", score.value);
    case Objective::Time:
      return fmt::format("predicted time {:.6g} s", score.value);
    case Objective::HopBytes:
      break;
  }
  return fmt::format("hop-bytes {}", score.hop_bytes);
}

}  // namespace tmap
