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
  // Memory counts in time only: congestion is the network's.
  if (seconds) {
    memories_ = topology.num_nodes();
    kind_bandwidth_.push_back(time.node_bandwidth);
  }
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
  for (const auto link : resources) hops += routing_.link_hops(link);
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
  // arrives (the least latency of the routes through it).
  const auto resources = static_cast<std::size_t>(bottleneck_->num_resources());
  std::vector<Volume> bytes(resources, 0);
  std::vector<double> first(resources, std::numeric_limits<double>::infinity());
  double slowest_message = 0.0;
  detail::for_each_message(
      traffic, mapping, *bottleneck_,
      [&](std::span<const LinkId> route, double latency, double narrowest, Volume volume) {
        if (route.empty()) return;
        for (const auto r : route) {
          bytes[static_cast<std::size_t>(r)] += volume;
          first[static_cast<std::size_t>(r)] = std::min(first[static_cast<std::size_t>(r)], latency);
        }
        // The message alone: its latency, then its bytes at its slowest link.
        slowest_message = std::max(slowest_message, latency + static_cast<double>(volume) / narrowest);
      });
  // Each resource: busy from its first message's arrival until all its bytes passed.
  double busiest = 0.0;
  for (std::size_t r = 0; r < resources; ++r) {
    if (bytes[r] > 0) {
      busiest =
          std::max(busiest, first[r] + static_cast<double>(bytes[r]) / bottleneck_->bandwidth(static_cast<LinkId>(r)));
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
