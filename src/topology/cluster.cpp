#include "topology/cluster.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <utility>

#include "routing/dragonfly.hpp"
#include "routing/fat_tree.hpp"
#include "routing/torus_network.hpp"
#include "tmap/error.hpp"
#include "topology/deco.hpp"
#if TMAP_HAVE_HWLOC
#include "topology/hwloc_tree.hpp"
#endif
#include "util/text.hpp"

namespace tmap::topo {

namespace {

/// Nodes whose every pair of PEs is checked for a uniform distance: a
/// node of more PEs is taken as not uniform (a tree of that size has levels).
constexpr PE kMostCheckedPerNode = 512;

}  // namespace

ClusterTopology::ClusterTopology(std::shared_ptr<const routing::Network> network, std::unique_ptr<Topology> node,
                                 std::string node_text, std::vector<std::string> hosts)
    : network_(std::move(network)), node_(std::move(node)), node_text_(std::move(node_text)), hosts_(std::move(hosts)) {
  per_node_ = node_ ? node_->size() : 1;
  if (per_node_ < 1) throw InputError("the node has no PE");
  if (network_->num_nodes() > kMaxPEs / per_node_) {
    throw InputError(fmt::format("the cluster has {} nodes of {} PEs: more than tmap's {} PEs", network_->num_nodes(),
                                 per_node_, kMaxPEs));
  }
  size_ = network_->num_nodes() * per_node_;
  if (!hosts_.empty() && static_cast<NodeId>(hosts_.size()) != network_->num_nodes()) {
    throw InputError(
        fmt::format("host-names: {} names for the {} nodes of the machine", hosts_.size(), network_->num_nodes()));
  }
  Distance deepest = 0;
  bool same_depth = true;
  for (PE p = 0; p < per_node_; ++p) {
    const auto d = depth(p);
    same_depth = same_depth && (p == 0 || d == deepest);
    deepest = std::max(deepest, d);
  }
  node_depth_ = same_depth ? deepest : 0;
  max_distance_ = std::max(node_ ? node_->max_distance() : Distance{0},
                           network_->num_nodes() > 1 ? 2 * deepest + network_->max_hops() : Distance{0});
  if (per_node_ == 1) {
    uniform_ = Distance{0};
  } else if (per_node_ <= kMostCheckedPerNode) {
    const auto first = node_->distance(0, 1);
    bool all = true;
    for (PE a = 0; a < per_node_ && all; ++a) {
      for (PE b = a + 1; b < per_node_ && all; ++b) all = node_->distance(a, b) == first;
    }
    if (all) uniform_ = first;
  }
}

// hwloc's paths start at the node's root (the Machine object): the edges
// from a PU up to it are the path's length less one.
Distance ClusterTopology::depth(PE local) const {
  if (!node_) return 0;
  std::vector<std::int64_t> path;
  return node_->tree_path(local, path) && !path.empty() ? static_cast<Distance>(path.size()) - 1 : 0;
}

Distance ClusterTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto na = a / per_node_;
  const auto nb = b / per_node_;
  const auto la = a % per_node_;
  const auto lb = b % per_node_;
  if (na == nb) return node_->distance(la, lb);
  return depth(la) + depth(lb) + network_->hops(na, nb);
}

std::string ClusterTopology::host_name(NodeId node) const {
  if (!hosts_.empty()) return hosts_[static_cast<std::size_t>(node)];
  return "cn" + std::to_string(node);
}

std::int64_t ClusterTopology::slot_in_node(PE pe) const {
  return node_ ? node_->slot_in_node(pe % per_node_) : 0;
}

std::int64_t ClusterTopology::pu_in_node(PE pe) const {
  return node_ ? node_->pu_in_node(pe % per_node_) : 0;
}

bool ClusterTopology::tree_path(PE pe, std::vector<std::int64_t>& path) const {
  const auto node = pe / per_node_;
  if (!network_->tree_path(node, path)) return false;
  if (node_) {
    std::vector<std::int64_t> inside;
    if (!node_->tree_path(pe % per_node_, inside) || inside.empty()) return false;
    path.insert(path.end(), inside.begin() + 1, inside.end());  // the node's root is the network's leaf here
  }
  return true;
}

std::unique_ptr<RoutingModel> ClusterTopology::routing_model() const {
  return std::make_unique<routing::NetworkRouting>(network_, per_node_, 2 * node_depth_);
}

std::string ClusterTopology::description() const {
  return network_->spec() + (node_ ? " of nodes '" + node_text_ + "'" : std::string()) +
         (hosts_.empty() ? std::string() : " named " + hosts_.front() + ".." + hosts_.back());
}

std::string ClusterTopology::to_tgt() const {
  std::vector<std::int64_t> order(static_cast<std::size_t>(size_));
  for (PE p = 0; p < size_; ++p) order[static_cast<std::size_t>(p)] = p;
  return format_deco0(order, std::vector<std::int64_t>(order.size(), 1),
                      [&](std::int64_t a, std::int64_t b) { return distance(a, b); });
}

}  // namespace tmap::topo

namespace tmap::topo {

namespace {

/// "4,4" -> {4, 4}; InputError naming `spec` otherwise.
std::vector<std::int64_t> counts_of(std::string_view list, std::string_view spec) {
  std::vector<std::int64_t> counts;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto end = std::min(list.find(',', start), list.size());
    std::int64_t value = 0;
    if (!detail::parse_int(list.substr(start, end - start), value) || value < 1 || value > (std::int64_t{1} << 20)) {
      throw InputError(
          fmt::format("-t '{}': '{}' is not a count between 1 and 2^20 (expected "
                      "fattree:L;d1,..,dL;u1,..,uL;p1,..,pL, SimGrid's FAT_TREE parameters)",
                      spec, list.substr(start, end - start)));
    }
    counts.push_back(value);
    start = end + 1;
  }
  return counts;
}

/// One node: an lstopo XML file, else an hwloc synthetic description.
std::unique_ptr<Topology> load_node(const std::string& node) {
#if TMAP_HAVE_HWLOC
  std::error_code ec;
  if (std::filesystem::exists(node, ec)) return load_hwloc_xml(node);
  // hwloc wants PUs last ("package:2 core:8 pu:1"); a description that stops
  // at cores means one PU each, as a user counting cores writes it.
  const auto last = node.find_last_of(" \t");
  auto tail = node.substr(last == std::string::npos ? 0 : last + 1);
  for (auto& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!tail.starts_with("pu")) return std::make_unique<HwlocTreeTopology>(node + " pu:1", false);
  return std::make_unique<HwlocTreeTopology>(node, false);
#else
  throw UnsupportedError("--node '" + node +
                         "': this tmap was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): nodes cannot be "
                         "described; rebuild with hwloc");
#endif
}

}  // namespace

namespace {

/// The ';'-separated parts of what follows "kind:".
std::vector<std::string_view> parts_of(std::string_view spec) {
  auto rest = spec.substr(spec.find(':') + 1);
  std::vector<std::string_view> parts;
  for (std::size_t start = 0; start <= rest.size();) {
    const auto end = std::min(rest.find(';', start), rest.size());
    parts.push_back(rest.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

constexpr std::string_view kFatTreeSyntax =
    "fattree:L;d1,..,dL;u1,..,uL;p1,..,pL (levels; children per switch, parents per element and parallel cables "
    "per level, bottom up: SimGrid's FAT_TREE parameters)";
constexpr std::string_view kDragonflySyntax =
    "dragonfly:G,gl;C,cl;R,rl;N (groups, chassis per group, routers per chassis, each with the cables a blue, "
    "black or green link stands for, and nodes per router: SimGrid's DRAGONFLY parameters)";

std::shared_ptr<const routing::Network> fattree_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 4) throw InputError(fmt::format("-t '{}': expected {}", spec, kFatTreeSyntax));
  const auto levels = counts_of(parts[0], spec);
  auto down = counts_of(parts[1], spec);
  auto up = counts_of(parts[2], spec);
  auto ports = counts_of(parts[3], spec);
  if (levels.size() != 1 || levels[0] != static_cast<std::int64_t>(down.size()) || down.size() != up.size() ||
      down.size() != ports.size()) {
    throw InputError(
        fmt::format("-t '{}': {} levels need {} counts in each of the three lists", spec, levels[0], levels[0]));
  }
  return std::make_shared<routing::FatTreeNetwork>(std::move(down), std::move(up), std::move(ports));
}

std::shared_ptr<const routing::Network> dragonfly_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 4) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  std::vector<std::vector<std::int64_t>> counts;
  for (const auto part : parts) counts.push_back(counts_of(part, spec));
  for (std::size_t k = 0; k < 3; ++k) {
    if (counts[k].size() != 2) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  }
  if (counts[3].size() != 1) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  return std::make_shared<routing::DragonflyNetwork>(routing::DragonflyNetwork::Shape{
      counts[0][0], counts[0][1], counts[1][0], counts[1][1], counts[2][0], counts[2][1], counts[3][0]});
}

std::shared_ptr<const routing::Network> torus_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 1) {
    throw InputError(
        fmt::format("-t '{}': expected torus:X,Y[,Z,...] (nodes along each dimension: SimGrid's TORUS "
                    "parameters)",
                    spec));
  }
  return std::make_shared<routing::TorusNetwork>(counts_of(parts[0], spec));
}

}  // namespace

bool is_cluster_spec(std::string_view spec) {
  return spec.starts_with("fattree:") || spec.starts_with("dragonfly:") || spec.starts_with("torus:");
}

std::unique_ptr<Topology> load_cluster(std::string_view spec, const std::string& node, std::vector<std::string> hosts) {
  std::unique_ptr<Topology> machine_node;
  if (!node.empty()) {
    try {
      machine_node = load_node(node);
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError("--node: " + e.problem());
    }
  }
  try {
    auto network = spec.starts_with("fattree:")     ? fattree_of(spec)
                   : spec.starts_with("dragonfly:") ? dragonfly_of(spec)
                                                    : torus_of(spec);
    return std::make_unique<ClusterTopology>(std::move(network), std::move(machine_node), node, std::move(hosts));
  } catch (const InputError& e) {
    if (!e.file().empty() || e.problem().starts_with("-t '")) throw;
    throw InputError(fmt::format("-t '{}': {}", spec, e.problem()));
  }
}

}  // namespace tmap::topo
