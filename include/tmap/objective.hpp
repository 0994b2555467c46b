// What a mapping is judged by. Hop-bytes (bytes x hops over rank pairs) is
// the default; on machines with routes a mapping can instead be judged by
// its busiest link (congestion: the link's bytes over its relative
// bandwidth, --link-bw) or by the predicted time of one round of the matrix
// (time). Both bottleneck objectives break ties by hop-bytes.
//
// The time model is a lower bound of the flow model tm-sim and --simulate
// run in SimGrid (every message of the matrix posted at once, each paying
// its route's latency, then max-min sharing of every link it crosses): a
// resource (a link, or a node's memory where no link joins two PEs) is busy
// at least from its first message's arrival until all its bytes passed, and
// a message takes at least its latency plus its bytes at its slowest link:
//   time = max( max over resources r of first_latency(r) + bytes(r) / bw(r),
//               max over messages m of latency(m) + bytes(m) / narrowest(m) ).
// It is SimGrid's time wherever one resource is the bottleneck of every
// message through it (tests/sim/simulate.sh). A traffic that carries its
// phases (CommMatrix::phases: a .phases file, tm-gen's application
// patterns) runs them in order, rank by rank (src/routing/phased_time.hpp):
// an exchange's rounds one after another where the same resource holds
// every rank back, overlapping where not, and a pipelined sweep's rounds
// after its fill at the pace of its busiest resource; one round of their
// sum would let all of them share the links at once. (The SMPI runs of
// Fig. 3 at 4,096 ranks: one round ranked scotch+'s SNAP mapping 25 %
// faster than greedy's and CG's scotch+ as fast as in-order, SimGrid ran
// them 3 % and 1.6 % slower; the phases order both as SimGrid does, and
// LU's treematch mapping first, as SimGrid.) Bandwidths: TimeModel's times
// a link's relative bandwidth (a dragonfly link of k cables, --link-bw).
// The SMPI runs of docs/measurements.md found the log time ratio of six
// proxy applications following the busiest link (correlation 0.99-1.00),
// hop-bytes far less.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/export.h"
#include "tmap/routing.hpp"
#include "tmap/types.hpp"

// Internal (src/routing/phased_time.hpp), declared outside the exported
// region so that it keeps the library's hidden visibility.
namespace tmap::detail {
class PhasedTime;
}  // namespace tmap::detail

TMAP_API_BEGIN

namespace tmap {

class CommMatrix;
class Topology;

enum class Objective { HopBytes, Congestion, Time };

/// The objectives by name ("hop-bytes", "congestion", "time"): --objective,
/// config files and the C API read this one table. ParameterError naming
/// the known ones otherwise.
[[nodiscard]] Objective objective_from_name(std::string_view name);
[[nodiscard]] std::string_view objective_name(Objective objective);
[[nodiscard]] std::vector<std::string> objective_names();

/// The figures of the one-round flow model: tm-sim's and --simulate's
/// defaults (100 Gb/s links, 0.5 us a hop, memory at 50 GB/s).
struct TimeModel {
  double bandwidth = 12.5e9;     ///< bytes/s of one cable
  double latency = 0.5e-6;       ///< s per hop of a route
  double node_bandwidth = 50e9;  ///< bytes/s of a node's memory (PEs no link joins)
  double node_latency = 0.2e-6;  ///< s
};

/// What a message loads under a bottleneck objective: resource ids are the
/// routing model's links, then (time only) one memory per node; each
/// resource has a kind (the link kinds, then "memory") and a bandwidth
/// (congestion: the link's relative bandwidth, so that bytes / bandwidth is
/// Deveci et al.'s volume congestion; time: bytes per second).
class BottleneckModel {
 public:
  /// `topology` and `routing` must outlive the model.
  BottleneckModel(const Topology& topology, const RoutingModel& routing, Objective objective,
                  const TimeModel& time = {});

  [[nodiscard]] std::int64_t num_resources() const noexcept { return num_links_ + memories_; }
  /// Appends the resources a message from a to b loads (none when a == b).
  void resources(PE a, PE b, std::vector<LinkId>& out) const;
  [[nodiscard]] int num_kinds() const noexcept { return static_cast<int>(kind_bandwidth_.size()); }
  [[nodiscard]] int kind(LinkId resource) const;
  [[nodiscard]] double bandwidth_of_kind(int kind) const { return kind_bandwidth_[static_cast<std::size_t>(kind)]; }
  [[nodiscard]] double bandwidth(LinkId resource) const { return bandwidth_of_kind(kind(resource)); }
  /// The least bandwidth of the resources of one message (what resources()
  /// gave; infinite when none).
  [[nodiscard]] double narrowest(std::span<const LinkId> resources) const;
  /// Time: the latency of the route from a to b that loads `resources`
  /// (what resources(a, b) gave; 0 when none); other objectives: 0.
  [[nodiscard]] double latency(PE a, PE b, std::span<const LinkId> resources) const;
  /// Whether latencies count (time) or not (congestion).
  [[nodiscard]] bool latency_counts() const noexcept { return objective_ == Objective::Time; }
  [[nodiscard]] const RoutingModel& routing() const noexcept { return routing_; }

 private:
  const Topology& topology_;
  const RoutingModel& routing_;
  Objective objective_;
  TimeModel time_;
  LinkId num_links_ = 0;
  std::int64_t memories_ = 0;
  std::vector<double> kind_bandwidth_;
  // Checked once, so that a message's latency and narrowest link need no
  // call per link where the machine is uniform (a mesh, a torus).
  bool unit_hops_ = false;        ///< every link counts one hop
  double uniform_bandwidth_ = 0;  ///< every link's bandwidth, where they share one (else 0)
};

/// A mapping's value under an objective: `value` is hop-bytes, the busiest
/// link's congestion or the predicted seconds; ties go by hop-bytes.
struct ObjectiveScore {
  double value = 0.0;
  std::int64_t hop_bytes = 0;

  friend bool operator<(const ObjectiveScore& a, const ObjectiveScore& b) {
    return a.value < b.value || (a.value == b.value && a.hop_bytes < b.hop_bytes);
  }
  friend bool operator==(const ObjectiveScore&, const ObjectiveScore&) = default;
};

/// Scores mappings of one matrix on one machine under an objective (the
/// routing model built once).
class ObjectiveMeter {
 public:
  /// ParameterError when a bottleneck objective meets a machine without
  /// routes (deco, distance matrices), naming the machine's kind;
  /// InputError for a link kind of `link_bandwidths` the machine lacks.
  ObjectiveMeter(const CommMatrix& comm, const Topology& topology, Objective objective,
                 std::string_view link_bandwidths = {}, const TimeModel& time = {});
  ~ObjectiveMeter();
  ObjectiveMeter(const ObjectiveMeter&) = delete;
  ObjectiveMeter& operator=(const ObjectiveMeter&) = delete;

  [[nodiscard]] Objective objective() const noexcept { return objective_; }
  /// Time of a phased traffic: each rank through its phases in order.
  [[nodiscard]] ObjectiveScore operator()(std::span<const PE> mapping) const;
  /// The model of a bottleneck objective; nullptr for hop-bytes.
  [[nodiscard]] const BottleneckModel* bottleneck() const noexcept { return bottleneck_.get(); }

 private:
  /// One round of `traffic`: the busiest resource (time: or the slowest message).
  [[nodiscard]] double one_round(const CommMatrix& traffic, std::span<const PE> mapping) const;

  const CommMatrix& comm_;
  const Topology& topology_;
  Objective objective_;
  std::unique_ptr<RoutingModel> routing_;
  std::unique_ptr<BottleneckModel> bottleneck_;
  /// Time of a traffic in phases.
  std::unique_ptr<detail::PhasedTime> phased_;
};

/// "busiest link 16000" / "predicted time 1.234e-05 s" / "hop-bytes 144000":
/// the score as the tools print it.
[[nodiscard]] std::string describe_score(Objective objective, const ObjectiveScore& score);

}  // namespace tmap

TMAP_API_END
