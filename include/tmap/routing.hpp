// Static routing and the link metrics of Deveci et al. (IPDPS 2015,
// section II): TH, WH, MMC, MC, AMC and AC.
//
// A routing model knows the machine's links and the one path a message
// takes between two PEs (dimension-ordered on meshes, tori and hypercubes,
// up-down on trees, the chip network on Tianhe-3). Links are undirected
// cables: traffic in both directions shares a link's bandwidth, as the
// paper's topology graph G_m has it. Models exist for the built-in kinds;
// distance-only targets (deco, .dist) have none and get no link metrics.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class CommMatrix;
class Topology;

using LinkId = std::int64_t;

/// A link's two ends, the lower one first: a compute node by its index
/// (node >= 0), anything else (a switch, a router) by its name.
struct LinkEnd {
  std::int64_t node = -1;
  std::string name;
};
struct LinkEnds {
  LinkEnd lower;
  LinkEnd upper;
};

class RoutingModel {
 public:
  virtual ~RoutingModel() = default;

  /// Link ids are 0..num_links()-1 (some ids may never carry a route).
  [[nodiscard]] virtual LinkId num_links() const = 0;
  /// Appends the links a message from PE a to PE b crosses, in order. Nothing
  /// when a == b, nor on Tianhe-3 for two PEs of one node (that traffic never
  /// enters the network); on trees the lower levels are links like any other.
  virtual void route(PE a, PE b, std::vector<LinkId>& links) const = 0;
  /// Hops a route counts: base_hops() plus link_hops() of each link, so that
  /// a route's hops equal the topology's distance wherever the distance is a
  /// hop count (meshes, tori, hypercubes, complete graphs, Tianhe-3). On
  /// trees a hop is one tree edge, whatever the tleaf costs say.
  [[nodiscard]] virtual Distance link_hops(LinkId /*link*/) const { return 1; }
  [[nodiscard]] virtual Distance base_hops() const { return 0; }
  /// base_hops() split between a route's two ends: the source's share (the
  /// whole of it by default) and the destination's (none by default).
  /// Machines whose PEs sit at different depths (nodes of several kinds)
  /// say PE by PE: a route from a to b counts source_hops(a) +
  /// destination_hops(b) before its links.
  [[nodiscard]] virtual Distance source_hops(PE /*pe*/) const { return base_hops(); }
  [[nodiscard]] virtual Distance destination_hops(PE /*pe*/) const { return 0; }
  /// Readable name of a link for --link-loads ("(0,1,2)-(1,1,2)", "chip 3 - chip 5").
  [[nodiscard]] virtual std::string link_name(LinkId link) const = 0;

  /// The link's two ends where the machine is a network of nodes (both
  /// empty elsewhere: Tianhe-3, meshes and trees name their links only).
  [[nodiscard]] virtual LinkEnds link_ends(LinkId /*link*/) const { return {}; }

  /// Bandwidth classes ("dim0", "level2", "side", "row", ...), each link in one.
  [[nodiscard]] const std::vector<std::string>& link_kinds() const noexcept { return kinds_; }
  [[nodiscard]] virtual int link_kind(LinkId link) const = 0;
  [[nodiscard]] double bandwidth(LinkId link) const { return bandwidth_of_kind(link_kind(link)); }
  [[nodiscard]] double bandwidth_of_kind(int kind) const { return bandwidth_[static_cast<std::size_t>(kind)]; }
  /// Sets bandwidths from "kind=value[,kind=value...]" (values > 0; kinds not
  /// named keep 1). InputError naming the unknown kind or bad value.
  void set_bandwidths(std::string_view spec);
  /// Hops of the route from a to b (0 on one node).
  [[nodiscard]] Distance route_hops(PE a, PE b) const;
  /// Whether every link counts one hop (meshes, tori, trees): then a
  /// route's hops are its length plus its ends', with no call per link.
  [[nodiscard]] bool every_link_one_hop() const;

 protected:
  explicit RoutingModel(std::vector<std::string> kinds) : kinds_(std::move(kinds)), bandwidth_(kinds_.size(), 1.0) {}

 private:
  std::vector<std::string> kinds_;
  std::vector<double> bandwidth_;
};

/// "kind=value[,kind=value...]" read as (kind, value) pairs, whatever the
/// machine: InputError for an item without KIND= or a value that is not a
/// positive number (a configuration checks its link-bw with it).
[[nodiscard]] std::vector<std::pair<std::string, double>> parse_link_bandwidths(std::string_view spec);

/// The routing model of a topology, or nullptr when its kind has none (deco,
/// distance matrices, weighted complete graphs, complete graphs above 8192
/// PEs whose N^2/2 links are not worth tracking).
[[nodiscard]] std::unique_ptr<RoutingModel> make_routing(const Topology& topology);

/// What one link carries.
struct LinkLoad {
  LinkId link = 0;
  std::int64_t messages = 0;  ///< Congestion(e): messages routed through it
  Volume bytes = 0;
  double congestion = 0.0;  ///< VC(e) = bytes / bandwidth
};

/// Deveci et al.'s metrics. A message is one stored matrix entry A[i][j] > 0
/// between ranks on different nodes, routed from sigma(i) to sigma(j).
struct RouteMetrics {
  std::int64_t th = 0;   ///< total hops: sum of route hops over messages
  std::int64_t wh = 0;   ///< weighted hops: sum of bytes x route hops
  std::int64_t mmc = 0;  ///< maximum message congestion
  double mc = 0.0;       ///< maximum volume congestion (bytes / bandwidth)
  double amc = 0.0;      ///< sum of message congestion / links used
  double ac = 0.0;       ///< sum of volume congestion / links used
  std::int64_t used_links = 0;
  /// Every used link, by increasing id.
  std::vector<LinkLoad> loads;
};

/// Routes every message of `mapping`. InputError when WH exceeds 2^63-1.
[[nodiscard]] RouteMetrics evaluate_routes(const CommMatrix& comm, const RoutingModel& routing,
                                           std::span<const PE> mapping);

/// The loads as CSV: link,name,kind,bandwidth,messages,bytes,congestion.
[[nodiscard]] std::string link_loads_csv(const RoutingModel& routing, const RouteMetrics& metrics);

}  // namespace tmap

TMAP_API_END
