#include "topology/cluster_load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "routing/dragonfly.hpp"
#include "routing/fat_tree.hpp"
#include "routing/switch_tree.hpp"
#include "routing/torus_network.hpp"
#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "topology/cluster.hpp"
#include "topology/gpu/gpu_node.hpp"
#if TMAP_HAVE_HWLOC
#include "topology/gpu/hwloc_gpus.hpp"
#include "topology/hwloc_tree.hpp"
#endif
#include "util/file.hpp"
#include "util/hostlist.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

/// "4,4" -> {4, 4}; InputError naming `spec` and the kind's `syntax` otherwise.
std::vector<std::int64_t> counts_of(std::string_view list, std::string_view spec, std::string_view syntax) {
  std::vector<std::int64_t> counts;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto end = std::min(list.find(',', start), list.size());
    std::int64_t value = 0;
    if (!detail::parse_int(list.substr(start, end - start), value) || value < 1 || value > (std::int64_t{1} << 20)) {
      throw InputError(fmt::format("-t '{}': '{}' is not a count between 1 and 2^20 (expected {})", spec,
                                   list.substr(start, end - start), syntax));
    }
    counts.push_back(value);
    start = end + 1;
  }
  return counts;
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
constexpr std::string_view kTorusSyntax =
    "torus:X,Y[,Z,...] (nodes along each dimension, separated by commas: SimGrid's TORUS parameters)";
constexpr std::string_view kDragonflySyntax =
    "dragonfly:G,gl;C,cl;R,rl;N (groups, chassis per group, routers per chassis, each with the cables a blue, "
    "black or green link stands for, and nodes per router: SimGrid's DRAGONFLY parameters)";

/// The network `make` builds, its refusal (a count out of range) naming -t's spec.
template <typename Make>
std::shared_ptr<const routing::Network> named(std::string_view spec, Make make) {
  try {
    return make();
  } catch (const InputError& e) {
    throw InputError(fmt::format("-t '{}': {}", spec, e.problem()));
  }
}

std::shared_ptr<const routing::Network> fattree_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 4) throw InputError(fmt::format("-t '{}': expected {}", spec, kFatTreeSyntax));
  const auto levels = counts_of(parts[0], spec, kFatTreeSyntax);
  auto down = counts_of(parts[1], spec, kFatTreeSyntax);
  auto up = counts_of(parts[2], spec, kFatTreeSyntax);
  auto ports = counts_of(parts[3], spec, kFatTreeSyntax);
  if (levels.size() != 1 || levels[0] != static_cast<std::int64_t>(down.size()) || down.size() != up.size() ||
      down.size() != ports.size()) {
    throw InputError(
        fmt::format("-t '{}': {} levels need {} counts in each of the three lists", spec, levels[0], levels[0]));
  }
  return named(spec, [&] {
    return std::make_shared<routing::FatTreeNetwork>(std::move(down), std::move(up), std::move(ports));
  });
}

std::shared_ptr<const routing::Network> dragonfly_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 4) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  std::vector<std::vector<std::int64_t>> counts;
  counts.reserve(parts.size());
  for (const auto part : parts) counts.push_back(counts_of(part, spec, kDragonflySyntax));
  for (std::size_t k = 0; k < 3; ++k) {
    if (counts[k].size() != 2) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  }
  if (counts[3].size() != 1) throw InputError(fmt::format("-t '{}': expected {}", spec, kDragonflySyntax));
  return named(spec, [&] {
    return std::make_shared<routing::DragonflyNetwork>(routing::DragonflyNetwork::Shape{
        counts[0][0], counts[0][1], counts[1][0], counts[1][1], counts[2][0], counts[2][1], counts[3][0]});
  });
}

std::shared_ptr<const routing::Network> torus_of(std::string_view spec) {
  const auto parts = parts_of(spec);
  if (parts.size() != 1) throw InputError(fmt::format("-t '{}': expected {}", spec, kTorusSyntax));
  auto dims = counts_of(parts[0], spec, kTorusSyntax);
  return named(spec, [&] { return std::make_shared<routing::TorusNetwork>(std::move(dims)); });
}

}  // namespace

std::unique_ptr<Topology> load_node(const std::string& node, const std::string& pe) {
  const bool gpus = pe == "gpu";
  if (is_gpu_spec(node)) {
    if (pe == "cpu") throw InputError("--pe cpu: '" + node + "' describes a node's GPUs, not its CPUs");
    return std::make_unique<GpuNodeTopology>(gpu_node_of_spec(node));
  }
  std::error_code ec;
  if (std::filesystem::exists(node, ec) && !std::filesystem::is_directory(node, ec)) {
    const auto text = detail::read_text_file(node);
    if (is_gpu_topology_text(text)) {
      if (pe == "cpu") throw InputError(node, "--pe cpu: the file describes the node's GPUs, not its CPUs");
      return std::make_unique<GpuNodeTopology>(read_gpu_topology_text(text, node));
    }
#if TMAP_HAVE_HWLOC
    if (gpus) return std::make_unique<GpuNodeTopology>(gpu_node_of_hwloc_xml(text, node));
#else
    if (gpus) {
      throw UnsupportedError("--node '" + node +
                             "': this tmap was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): an hwloc XML's GPUs "
                             "cannot be read; give the node's nvidia-smi topo -m or rocm-smi --showtopo output");
    }
#endif
  }
  if (gpus) {
    throw InputError("--pe gpu: '" + node +
                     "' names no GPU: give nvidia-smi topo -m or rocm-smi --showtopo output saved to a file, an hwloc "
                     "XML of the node that lists its GPUs, or 'gpu:N ...'");
  }
#if TMAP_HAVE_HWLOC
  if (std::filesystem::exists(node, ec)) return load_hwloc_xml(node);
  if (node == "this") return HwlocTreeTopology::this_system();
  // A file name that names no file (a synthetic description has no '/'
  // and no extension): the file is missing, not a bad description.
  if (node.find('/') != std::string::npos || node.ends_with(".xml")) {
    throw InputError(node, "cannot open the hwloc XML file (no such file)");
  }
  return std::make_unique<HwlocTreeTopology>(synthetic_with_pus(node), false);
#else
  throw UnsupportedError("--node '" + node +
                         "': this tmap was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): nodes cannot be "
                         "described; rebuild with hwloc");
#endif
}

bool is_cluster_spec(std::string_view spec) {
  return spec.starts_with("fattree:") || spec.starts_with("dragonfly:") || spec.starts_with("torus:");
}

namespace {

/// A network's node (nullptr: one PE), its errors named as --node's.
std::unique_ptr<Topology> network_node(const std::string& node, const std::string& pe) {
  if (node.empty()) return nullptr;
  try {
    return load_node(node, pe);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError("--node: " + e.problem());
  }
}

}  // namespace

std::unique_ptr<Topology> cluster_of(std::shared_ptr<const routing::Network> network, const NodeSpecs& nodes,
                                     std::vector<std::string> hosts, const std::string& names_origin) {
  detail::check_host_names(hosts, names_origin);
  std::vector<NodeModel> models;
  const auto add_model = [&models, &nodes](const std::string& node) {
    NodeModel model;
    model.tree = network_node(node, nodes.pe);
    model.text = node;
    models.push_back(std::move(model));
  };
  add_model(nodes.node);
  std::vector<std::int32_t> kind_of_node;
  if (!nodes.by_hosts.empty()) {
    const auto count = network->num_nodes();
    if (!hosts.empty() && static_cast<NodeId>(hosts.size()) != count) {
      throw InputError(fmt::format("host-names: {} names for the {} nodes of the machine", hosts.size(), count));
    }
    std::map<std::string, NodeId, std::less<>> node_named;
    for (NodeId k = 0; k < count; ++k) {
      node_named.emplace(hosts.empty() ? "cn" + std::to_string(k) : hosts[static_cast<std::size_t>(k)], k);
    }
    kind_of_node.assign(static_cast<std::size_t>(count), 0);
    std::vector<std::string> listed_in(static_cast<std::size_t>(count));
    for (const auto& [list, node] : nodes.by_hosts) {
      const auto where = "--node '" + list + "=" + node + "'";
      if (node.empty()) throw InputError(where + ": no node after '='");
      if (list.empty()) throw InputError(where + ": no hosts before '=' (HOSTS=SPEC, e.g. 'gpu[01-04]=core:2')");
      add_model(node);
      for (const auto& host : detail::expand_hostlist(list, where)) {
        const auto it = node_named.find(host);
        if (it == node_named.end()) {
          // The first and last in node order (not as text: node1 .. node32, not node1 .. node9).
          const auto name_of = [&hosts](NodeId k) {
            return hosts.empty() ? "cn" + std::to_string(k) : hosts[static_cast<std::size_t>(k)];
          };
          throw InputError(fmt::format("{}: host {} is not a node of this machine (its {} hosts are {} .. {})", where,
                                       host, count, name_of(0), name_of(count - 1)));
        }
        auto& first = listed_in[static_cast<std::size_t>(it->second)];
        if (!first.empty()) throw InputError(fmt::format("{}: host {} has a node already ({})", where, host, first));
        first = where;
        kind_of_node[static_cast<std::size_t>(it->second)] = static_cast<std::int32_t>(models.size() - 1);
      }
    }
  }
  return std::make_unique<ClusterTopology>(std::move(network), std::move(models), std::move(kind_of_node),
                                           std::move(hosts));
}

std::unique_ptr<Topology> load_cluster(std::string_view spec, const NodeSpecs& nodes, std::vector<std::string> hosts) {
  auto network = spec.starts_with("fattree:")     ? fattree_of(spec)
                 : spec.starts_with("dragonfly:") ? dragonfly_of(spec)
                                                  : torus_of(spec);
  return cluster_of(std::move(network), nodes, std::move(hosts), "host-names");
}

}  // namespace tmap::topo

namespace tmap {

NodeArgs parse_node_args(const std::vector<std::string>& args, const std::string& origin) {
  NodeArgs parsed;
  for (const auto& arg : args) {
    // "HOSTS=SPEC", unless the whole is a file (an lstopo XML may hold '=').
    const auto eq = arg.find('=');
    std::error_code ec;
    if (eq != std::string::npos && eq > 0 && !std::filesystem::exists(arg, ec) &&
        arg.substr(0, eq).find_first_of(" \t:") == std::string::npos) {
      parsed.by_hosts.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
      continue;
    }
    if (arg.empty() || arg.find_first_not_of(" \t") == std::string::npos) {
      throw ParameterError(origin +
                           ": empty; give what a node holds (e.g. 'package:2 core:12', an lstopo XML file, "
                           "or this)");
    }
    if (!parsed.node.empty()) {
      const auto spec = arg.substr(arg.find_first_not_of('='));
      throw ParameterError(origin + ": '" + parsed.node + "' and '" + arg +
                           "' are each for every node; give the others as HOSTS=SPEC ('gpu[01-04]=" + spec + "')");
    }
    parsed.node = arg;
  }
  return parsed;
}

}  // namespace tmap
