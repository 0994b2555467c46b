// A GPU node's links for the routes (gpu_node.hpp's fabric_of says what
// they are and why).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "topology/gpu/gpu_node.hpp"

namespace tmap::topo {

namespace {

/// Relative to a network cable of 100 Gb/s (12.5 GB/s).
constexpr double kNvlinkPerLink = 2.0;  // 25 GB/s each way
constexpr double kXgmiPerLink = 4.0;    // 50 GB/s each way
constexpr double kPcie = 2.0;           // PCIe 4.0 x16, ~25 GB/s
constexpr double kHost = 4.0;           // a host bridge, a NUMA or socket link, ~50 GB/s
constexpr double kNic = 1.0;            // the NIC drives one cable

/// Hops of the host's link a route of class `link` crosses between two
/// PCIe links: PXB 1, PHB 2, NODE 3, SYS 4 (PCIe 1 each side: the class).
constexpr Distance host_hops(GpuLink link) {
  return link_distance(link) - 2;
}

class FabricBuilder {
 public:
  LinkId add(const std::string& kind, double bandwidth, Distance hops, std::string name) {
    auto it = kind_of_.find(kind);
    if (it == kind_of_.end()) {
      it = kind_of_.emplace(kind, static_cast<int>(fabric.kinds.size())).first;
      fabric.kinds.push_back(kind);
      fabric.kind_bandwidths.push_back(bandwidth);
    }
    fabric.link_kind.push_back(it->second);
    fabric.link_hops.push_back(hops);
    fabric.link_names.push_back(std::move(name));
    return static_cast<LinkId>(fabric.link_kind.size()) - 1;
  }
  /// The node's one link of a host class (created when first crossed).
  LinkId host(GpuLink link) {
    static constexpr std::array<const char*, 4> kNames{"pcie-switch", "host-bridge", "numa", "smp"};
    const auto k = static_cast<std::size_t>(link) - static_cast<std::size_t>(GpuLink::Pxb);
    if (host_[k] < 0) host_[k] = add(kNames[k], link == GpuLink::Pxb ? kPcie : kHost, host_hops(link), kNames[k]);
    return host_[k];
  }
  routing::NodeFabric fabric;

 private:
  std::map<std::string, int> kind_of_;
  std::array<LinkId, 4> host_{-1, -1, -1, -1};
};

/// The GPU link kind of a width: "nvlink12", "xgmi4", "nvswitch12".
std::string gpu_link_kind(const GpuNodeModel& model, std::int32_t width) {
  const char* family = model.switched ? "nvswitch" : model.vendor == GpuVendor::Amd ? "xgmi" : "nvlink";
  return fmt::format("{}{}", family, width);
}

double gpu_link_bandwidth(const GpuNodeModel& model, std::int32_t width) {
  return width * (model.vendor == GpuVendor::Amd ? kXgmiPerLink : kNvlinkPerLink);
}

}  // namespace

routing::NodeFabric fabric_of(const GpuNodeModel& model) {
  const auto n = model.gpus.size();
  const auto m = model.nics.size();
  FabricBuilder b;
  auto& f = b.fabric;
  f.pes = static_cast<PE>(n);
  // GPU links: a port each way per GPU where switched, else one per pair.
  std::vector<LinkId> egress(n, -1);
  std::vector<LinkId> ingress(n, -1);
  std::map<std::pair<std::size_t, std::size_t>, LinkId> pair_link;
  for (std::size_t a = 0; a < n; ++a) {
    std::int32_t port = 0;
    for (std::size_t c = 0; c < n; ++c) port = std::max(port, model.widths[a * n + c]);
    if (model.switched && port > 0) {
      const auto kind = gpu_link_kind(model, port);
      egress[a] = b.add(kind, gpu_link_bandwidth(model, port), 1, model.gpus[a] + " out");
      ingress[a] = b.add(kind, gpu_link_bandwidth(model, port), 0, model.gpus[a] + " in");
    }
    for (std::size_t c = a + 1; c < n && !model.switched; ++c) {
      const auto width = model.widths[a * n + c];
      if (width == 0) continue;
      pair_link[{a, c}] =
          b.add(gpu_link_kind(model, width), gpu_link_bandwidth(model, width), 1, model.gpus[a] + "-" + model.gpus[c]);
    }
  }
  std::vector<LinkId> pcie(n);
  for (std::size_t g = 0; g < n; ++g) pcie[g] = b.add("pcie", kPcie, 1, model.gpus[g] + " pcie");
  f.inside.assign(n * n, {});
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t c = 0; c < n; ++c) {
      auto& links = f.inside[a * n + c];
      const auto link = model.link(a, c);
      if (link == GpuLink::Self) continue;
      if (link == GpuLink::Gpu) {
        links = model.switched ? std::vector<LinkId>{egress[a], ingress[c]}
                               : std::vector<LinkId>{pair_link.at({std::min(a, c), std::max(a, c)})};
      } else if (link == GpuLink::Pix) {
        links = {pcie[a], pcie[c]};
      } else {
        links = {pcie[a], b.host(link), pcie[c]};
      }
    }
  }
  // The way out: the nearest NIC, GPUs with the same nearest NICs in turn.
  std::vector<LinkId> nic(m);
  for (std::size_t k = 0; k < m; ++k) nic[k] = b.add("nic", kNic, 2, model.nics[k]);
  const auto port = m == 0 ? b.add("nic", kNic, 2, "network port") : LinkId{-1};
  std::map<std::vector<std::size_t>, std::size_t> turns;
  f.out.assign(n, {});
  for (std::size_t g = 0; g < n; ++g) {
    auto& way = f.out[g];
    if (m == 0) {
      way = {pcie[g], b.host(GpuLink::Phb), port};
      continue;
    }
    const auto* row = &model.nic_links[g * m];
    const auto nearest = *std::min_element(row, row + m);
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < m; ++k) {
      if (row[k] == nearest) candidates.push_back(k);
    }
    const auto k = candidates[turns[candidates]++ % candidates.size()];
    way = {pcie[g]};
    if (nearest > GpuLink::Pix) way.push_back(b.host(nearest));
    way.push_back(nic[k]);
  }
  return std::move(b.fabric);
}

std::unique_ptr<RoutingModel> GpuNodeTopology::routing_model() const {
  std::vector<routing::NodeFabric> fabrics{fabric_of(model_)};
  return std::make_unique<routing::FabricRouting>(nullptr, std::vector<std::int64_t>{0, size()}, std::move(fabrics),
                                                  std::vector<std::int32_t>{0},
                                                  std::vector<Distance>(static_cast<std::size_t>(size()), 0));
}

}  // namespace tmap::topo
