// A GPU node from an hwloc XML (lstopo --of xml on the node, with hwloc's
// GPU plugins): the GPUs are OS devices (nvml*, cuda*, rsmi*, ze*,
// opencl*) under their PCI devices, the NICs OpenFabrics or Slingshot
// devices; two devices' link class is where their PCI paths meet (one
// PCIe switch: PIX; several bridges: PXB; a host bridge: PHB; a CPU
// object of one NUMA node: NODE; else SYS), and GPUs are linked where
// hwloc's NVLinkBandwidth or XGMIBandwidth matrix has bandwidth between
// them, or from each to an NVSwitch. Read with libxml2 like every hwloc
// XML tmap takes (topology/hwloc_input.hpp): libhwloc 2.9 is not given I/O
// objects it could crash on.
#include "topology/gpu/hwloc_gpus.hpp"

#include <fmt/format.h>
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "topology/gpu/gpu_node.hpp"
#include "topology/hwloc_input.hpp"
#include "topology/xml_nodes.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

constexpr std::size_t kMostObjects = std::size_t{1} << 20;
constexpr int kMostDepth = 256;
constexpr std::int64_t kMostDistanceObjects = 4096;

std::string text_of(xmlNodePtr node) {
  xmlChar* content = xmlNodeGetContent(node);
  if (content == nullptr) return {};
  std::string text(reinterpret_cast<const char*>(content));
  xmlFree(content);
  return text;
}

struct Object {
  std::string type, name, subtype, bridge_type, gp_index, cpuset, nodeset;
  std::int64_t parent = -1;
  long line = 0;
};

/// The XML's objects in document order, each with its parent's index.
std::vector<Object> objects_of(xmlNodePtr root, const std::string& origin) {
  std::vector<Object> objects;
  struct Step {
    xmlNodePtr node;
    std::int64_t parent;
    int depth;
  };
  std::vector<Step> stack;
  for (xmlNodePtr child = root->last; child != nullptr; child = child->prev) {
    if (xml_named(child, "object")) stack.push_back({child, -1, 0});
  }
  while (!stack.empty()) {
    const auto [node, parent, depth] = stack.back();
    stack.pop_back();
    if (objects.size() >= kMostObjects || depth > kMostDepth) {
      throw InputError(origin, xmlGetLineNo(node), "more objects or levels than a node has");
    }
    Object object;
    object.type = xml_attribute(node, "type");
    object.name = xml_attribute(node, "name");
    object.subtype = xml_attribute(node, "subtype");
    object.bridge_type = xml_attribute(node, "bridge_type");
    object.gp_index = xml_attribute(node, "gp_index");
    object.cpuset = xml_attribute(node, "cpuset");
    object.nodeset = xml_attribute(node, "nodeset");
    object.parent = parent;
    object.line = xmlGetLineNo(node);
    objects.push_back(std::move(object));
    const auto self = static_cast<std::int64_t>(objects.size()) - 1;
    for (xmlNodePtr child = node->last; child != nullptr; child = child->prev) {
      if (xml_named(child, "object")) stack.push_back({child, self, depth + 1});
    }
  }
  return objects;
}

bool is_io(const Object& o) {
  return o.type == "Bridge" || o.type == "PCIDev" || o.type == "OSDev" || o.type == "Misc";
}

/// GPU backends, preferred first: one of them names every GPU.
constexpr std::array<std::string_view, 5> kGpuBackends{"nvml", "cuda", "rsmi", "ze", "opencl"};

int backend_of(const Object& o) {
  if (o.type != "OSDev") return -1;
  for (std::size_t k = 0; k < kGpuBackends.size(); ++k) {
    const auto prefix = kGpuBackends[k];
    if (o.name.size() > prefix.size() && o.name.starts_with(prefix) &&
        (o.name[prefix.size()] >= '0' && o.name[prefix.size()] <= '9')) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

bool is_nic(const Object& o) {
  if (o.type != "OSDev") return false;
  if (o.subtype == "OpenFabrics" || o.subtype == "Slingshot") return true;
  for (const std::string_view prefix : {"mlx", "hfi", "cxi", "bnxt_re", "irdma", "efa", "qedr"}) {
    if (o.name.starts_with(prefix)) return true;
  }
  return false;
}

class Reader {
 public:
  Reader(std::vector<Object> objects, std::string origin) : objects_(std::move(objects)), origin_(std::move(origin)) {}

  /// The object a device hangs from in the PCI tree: an OS device's PCI device.
  [[nodiscard]] std::int64_t attach(std::int64_t o) const {
    const auto parent = objects_[static_cast<std::size_t>(o)].parent;
    return objects_[static_cast<std::size_t>(o)].type == "OSDev" && parent >= 0 ? parent : o;
  }

  [[nodiscard]] std::vector<std::int64_t> chain(std::int64_t o) const {
    std::vector<std::int64_t> up;
    for (; o >= 0; o = objects_[static_cast<std::size_t>(o)].parent) up.push_back(o);
    return {up.rbegin(), up.rend()};
  }

  /// The first CPU-side object above `o`.
  [[nodiscard]] std::int64_t cpu_side(std::int64_t o) const {
    while (o >= 0 && is_io(objects_[static_cast<std::size_t>(o)])) o = objects_[static_cast<std::size_t>(o)].parent;
    return o;
  }

  [[nodiscard]] GpuLink link(std::int64_t a, std::int64_t b) const {
    a = attach(a);
    b = attach(b);
    if (a == b) return GpuLink::Pix;  // two functions of one device (a card's two dies)
    const auto ca = chain(a);
    const auto cb = chain(b);
    std::size_t common = 0;
    while (common < ca.size() && common < cb.size() && ca[common] == cb[common]) ++common;
    if (common == 0) return GpuLink::Sys;  // two roots: refused elsewhere
    const auto& meet = objects_[static_cast<std::size_t>(ca[common - 1])];
    if (meet.type == "Bridge") {
      if (meet.bridge_type.starts_with("0-")) return GpuLink::Phb;
      const auto bridges_below = [&](const std::vector<std::int64_t>& c) {
        return std::count_if(c.begin() + static_cast<std::ptrdiff_t>(common), c.end() - 1,
                             [&](std::int64_t o) { return objects_[static_cast<std::size_t>(o)].type == "Bridge"; });
      };
      return bridges_below(ca) <= 1 && bridges_below(cb) <= 1 ? GpuLink::Pix : GpuLink::Pxb;
    }
    const auto& sa = objects_[static_cast<std::size_t>(cpu_side(a))];
    const auto& sb = objects_[static_cast<std::size_t>(cpu_side(b))];
    return !sa.nodeset.empty() && sa.nodeset == sb.nodeset ? GpuLink::Node : GpuLink::Sys;
  }

  [[nodiscard]] std::vector<std::int32_t> cpus_near(std::int64_t o) const {
    const auto side = cpu_side(o);
    if (side < 0) return {};
    const auto& object = objects_[static_cast<std::size_t>(side)];
    auto cpus = cpus_of_bitmap(object.cpuset);
    if (!cpus) throw InputError(origin_, object.line, fmt::format("bad cpuset '{}'", object.cpuset.substr(0, 40)));
    return *cpus;
  }

  [[nodiscard]] const std::vector<Object>& objects() const noexcept { return objects_; }

 private:
  std::vector<Object> objects_;
  std::string origin_;
};

/// The PCI devices hwloc's GPU-link matrices join: pairs of GPUs (by their
/// PCI device) with bandwidth between them, and the GPUs with bandwidth to
/// an NVSwitch.
struct GpuLinks {
  /// The bandwidth (MB/s) between two GPUs' PCI devices, and from a GPU's
  /// to all NVSwitches.
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint64_t> pairs;
  std::map<std::int64_t, std::uint64_t> on_switch;
  /// MB/s of one link: 25,000 an NVLink, 50,000 an xGMI link.
  std::uint64_t per_link = 25000;
};

GpuLinks gpu_links(xmlNodePtr root, const Reader& reader, const std::string& origin) {
  std::map<std::string, std::int64_t, std::less<>> by_gp;
  const auto& objects = reader.objects();
  for (std::size_t k = 0; k < objects.size(); ++k) {
    if (!objects[k].gp_index.empty()) by_gp.emplace(objects[k].type + ":" + objects[k].gp_index, k);
  }
  GpuLinks links;
  for (xmlNodePtr d = root->children; d != nullptr; d = d->next) {
    const bool hetero = xml_named(d, "distances2hetero");
    if (!hetero && !xml_named(d, "distances2")) continue;
    const auto name = xml_attribute(d, "name");
    if (name != "NVLinkBandwidth" && name != "XGMIBandwidth") continue;
    const auto type = xml_attribute(d, "type");
    std::int64_t count = 0;
    if (!detail::parse_int(xml_attribute(d, "nbobjs"), count) || count < 1 || count > kMostDistanceObjects) {
      throw InputError(origin, xmlGetLineNo(d),
                       fmt::format("{}: nbobjs is not a count from 1 to {}", name, kMostDistanceObjects));
    }
    if (!hetero && xml_attribute(d, "indexing") != "gp") continue;  // os indexes name no I/O object
    std::vector<std::int64_t> members;
    std::vector<std::uint64_t> values;
    for (xmlNodePtr part = d->children; part != nullptr; part = part->next) {
      if (!xml_named(part, "indexes") && !xml_named(part, "u64values")) continue;
      const auto text = text_of(part);
      std::string_view rest = text;
      std::string_view token;
      while (detail::next_token(rest, token, " \t\r\n")) {
        if (xml_named(part, "indexes")) {
          const auto key = hetero ? std::string(token) : type + ":" + std::string(token);
          const auto it = by_gp.find(key);
          if (it == by_gp.end()) {
            throw InputError(origin, xmlGetLineNo(part),
                             fmt::format("{} names '{}', no object of the file", name, key));
          }
          members.push_back(reader.attach(it->second));
        } else {
          std::int64_t value = 0;
          if (!detail::parse_int(token, value) || value < 0) {
            throw InputError(origin, xmlGetLineNo(part), fmt::format("{}: '{}' is not a bandwidth", name, token));
          }
          values.push_back(static_cast<std::uint64_t>(value));
        }
        if (static_cast<std::int64_t>(values.size()) > count * count) break;
      }
    }
    if (static_cast<std::int64_t>(members.size()) != count ||
        static_cast<std::int64_t>(values.size()) != count * count) {
      throw InputError(origin, xmlGetLineNo(d),
                       fmt::format("{}: {} objects and {} values for nbobjs={} ({} values)", name, members.size(),
                                   values.size(), count, count * count));
    }
    if (name == "XGMIBandwidth") links.per_link = 50000;
    const auto is_switch = [&](std::int64_t o) { return objects[static_cast<std::size_t>(o)].subtype == "NVSwitch"; };
    for (std::int64_t a = 0; a < count; ++a) {
      for (std::int64_t b = 0; b < count; ++b) {
        const auto value = values[static_cast<std::size_t>(a * count + b)];
        if (a == b || value == 0) continue;
        const auto oa = members[static_cast<std::size_t>(a)];
        const auto ob = members[static_cast<std::size_t>(b)];
        if (is_switch(ob)) {
          links.on_switch[oa] += value;
        } else if (!is_switch(oa)) {
          auto& bandwidth = links.pairs[{std::min(oa, ob), std::max(oa, ob)}];
          bandwidth = std::max(bandwidth, value);
        }
      }
    }
  }
  return links;
}

/// The host the XML was taken on (the root object's HostName), else
/// "localhost", as for an hwloc machine of CPUs.
std::string host_of(xmlNodePtr root) {
  for (xmlNodePtr machine = root->children; machine != nullptr; machine = machine->next) {
    if (!xml_named(machine, "object")) continue;
    for (xmlNodePtr info = machine->children; info != nullptr; info = info->next) {
      if (!xml_named(info, "info") || xml_attribute(info, "name") != "HostName") continue;
      auto host = xml_attribute(info, "value");
      if (!host.empty() && host.size() <= 255 && host.find_first_of(" \t\n=") == std::string::npos) return host;
    }
    break;
  }
  for (xmlNodePtr info = root->children; info != nullptr; info = info->next) {
    if (xml_named(info, "info") && xml_attribute(info, "name") == "HostName") {
      auto host = xml_attribute(info, "value");
      if (!host.empty() && host.size() <= 255 && host.find_first_of(" \t\n=") == std::string::npos) return host;
    }
  }
  return "localhost";
}

}  // namespace

GpuNodeModel gpu_node_of_hwloc_xml(std::string_view xml, const std::string& origin) {
  const auto document = parse_topology_xml(xml, origin);
  xmlNodePtr root = xmlDocGetRootElement(static_cast<xmlDocPtr>(document.get()));
  const Reader reader(objects_of(root, origin), origin);
  const auto& objects = reader.objects();
  int backend = static_cast<int>(kGpuBackends.size());
  for (const auto& o : objects) {
    const auto b = backend_of(o);
    if (b >= 0) backend = std::min(backend, b);
  }
  if (backend == static_cast<int>(kGpuBackends.size())) {
    throw InputError(origin,
                     "--pe gpu: the hwloc XML names no GPU (no OS device nvml*, cuda*, rsmi*, ze* or opencl*: save it "
                     "with lstopo --of xml on the node, where hwloc's GPU plugins find the GPUs)");
  }
  GpuNodeModel node;
  node.source = "hwloc XML " + origin;
  node.host = host_of(root);
  std::vector<std::int64_t> gpus;
  std::vector<std::int64_t> nics;
  for (std::size_t k = 0; k < objects.size(); ++k) {
    if (backend_of(objects[k]) == backend) gpus.push_back(static_cast<std::int64_t>(k));
    if (is_nic(objects[k])) nics.push_back(static_cast<std::int64_t>(k));
  }
  // The device order of the backend's own numbers (nvml0, nvml1, ...).
  const auto number = [&](std::int64_t o) {
    const auto& name = objects[static_cast<std::size_t>(o)].name;
    std::int64_t value = 0;
    (void)detail::parse_int(std::string_view(name).substr(kGpuBackends[static_cast<std::size_t>(backend)].size()),
                            value);
    return value;
  };
  if (kGpuBackends[static_cast<std::size_t>(backend)] != "opencl") {
    std::stable_sort(gpus.begin(), gpus.end(), [&](std::int64_t a, std::int64_t b) { return number(a) < number(b); });
  }
  const auto backend_name = kGpuBackends[static_cast<std::size_t>(backend)];
  node.vendor = backend_name == "rsmi" ? GpuVendor::Amd : backend_name == "ze" ? GpuVendor::Intel : GpuVendor::Nvidia;
  for (const auto g : gpus) node.gpus.push_back(objects[static_cast<std::size_t>(g)].name);
  for (const auto k : nics) node.nics.push_back(objects[static_cast<std::size_t>(k)].name);
  const auto links = gpu_links(root, reader, origin);
  const auto n = gpus.size();
  // A link's width: its bandwidth in links (at least 1).
  const auto width_of = [&](std::uint64_t bandwidth) {
    return static_cast<std::int32_t>(
        std::clamp<std::uint64_t>((bandwidth + links.per_link / 2) / links.per_link, 1, 1024));
  };
  node.switched = !links.on_switch.empty();
  for (std::size_t a = 0; a < n; ++a) {
    const auto pa = reader.attach(gpus[a]);
    for (std::size_t b = 0; b < n; ++b) {
      const auto pb = reader.attach(gpus[b]);
      const auto pair = links.pairs.find({std::min(pa, pb), std::max(pa, pb)});
      if (a == b) {
        node.links.push_back(GpuLink::Self);
        node.widths.push_back(0);
      } else if (links.on_switch.contains(pa) && links.on_switch.contains(pb)) {
        node.links.push_back(GpuLink::Gpu);
        node.widths.push_back(width_of(links.on_switch.at(pa)));
      } else if (pair != links.pairs.end()) {
        node.links.push_back(GpuLink::Gpu);
        node.widths.push_back(width_of(pair->second));
      } else {
        node.links.push_back(reader.link(gpus[a], gpus[b]));
        node.widths.push_back(0);
      }
    }
    for (const auto k : nics) node.nic_links.push_back(reader.link(gpus[a], k));
    node.cpus.push_back(reader.cpus_near(gpus[a]));
  }
  node.check();
  return node;
}

}  // namespace tmap::topo
