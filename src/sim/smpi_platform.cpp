// The platform SMPI runs a mapped job on: loaded by SimGrid (smpirun
// -platform libtmap-smpi-platform.so), it reads the PlatformSpec named by
// TMAP_SMPI_PLATFORM and builds one netzone whose routes are tmap's own
// routing model (the same links, hops and link kinds as the one-round model
// in simulate.cpp and the link metrics): a host per PE used ("pe<ID>"), a
// SimGrid link per machine link with latency = hops x latency and the
// bandwidth of its kind, the base hops of a route (a Tianhe-3 side's switch)
// as a latency-only link per source, and a node's memory for two ranks
// that share a node or a PE. Routes are computed when SimGrid asks for them
// (any pair: collectives talk to anyone), not tabulated.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/platform_spec.hpp"
#include "tmap/machine.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

namespace {

namespace sg4 = simgrid::s4u;
namespace routing = simgrid::kernel::routing;

class MachineZone final : public routing::NetZoneImpl {
 public:
  MachineZone(tmap::sim::PlatformSpec spec, std::unique_ptr<tmap::Topology> topology)
      : routing::NetZoneImpl("machine"),
        spec_(std::move(spec)),
        topology_(std::move(topology)),
        routing_(topology_->routing_model()) {
    if (!routing_) {
      throw std::runtime_error(topology_->kind() + " targets give distances only, no links to simulate on");
    }
    auto* zone = get_iface();
    for (const auto pe : spec_.pes) {
      if (pe >= topology_->size()) throw std::runtime_error("PE " + std::to_string(pe) + " is not on the machine");
      auto* host = zone->create_host(tmap::sim::host_name(pe), 1e9);
      pe_of_point_[host->get_netpoint()->id()] = pe;
    }
    const auto& o = spec_.options;
    links_.resize(static_cast<std::size_t>(routing_->num_links()), nullptr);
    for (tmap::LinkId id = 0; id < routing_->num_links(); ++id) {
      const auto& kind = routing_->link_kinds()[static_cast<std::size_t>(routing_->link_kind(id))];
      const auto it = o.bandwidth_of_kind.find(kind);
      links_[static_cast<std::size_t>(id)] =
          // A kind's link standing for k cables (a dragonfly's) has k times the bandwidth.
          zone->create_link("l" + std::to_string(id),
                            it != o.bandwidth_of_kind.end() ? it->second : o.bandwidth * routing_->bandwidth(id))
              ->set_latency(o.latency * static_cast<double>(routing_->link_hops(id)))
              ->seal();
    }
    for (const auto pe : spec_.pes) {
      // The hops a route counts at its ends before and after its links.
      if (const auto hops = routing_->destination_hops(pe); hops > 0) {
        end_[pe] = zone->create_link("end" + std::to_string(pe), 1e18)
                       ->set_latency(o.latency * static_cast<double>(hops))
                       ->seal();
      }
      if (const auto hops = routing_->source_hops(pe); hops > 0) {
        base_[pe] = zone->create_link("base" + std::to_string(pe), 1e18)
                        ->set_latency(o.latency * static_cast<double>(hops))
                        ->seal();
      }
      const auto node = topology_->node_of(pe);
      if (!memory_.contains(node)) {
        memory_[node] =
            zone->create_link("node" + std::to_string(node), o.node_bandwidth)->set_latency(o.node_latency)->seal();
      }
    }
  }

  void get_local_route(const routing::NetPoint* src, const routing::NetPoint* dst, routing::Route* into,
                       double* latency) override {
    // SimGrid asks for every message: each pair's route is built once.
    const auto key = (static_cast<std::uint64_t>(src->id()) << 32) | static_cast<std::uint64_t>(dst->id());
    auto [it, fresh] = routes_.try_emplace(key);
    auto& route = it->second;
    if (fresh) build_route(pe_of_point_.at(src->id()), pe_of_point_.at(dst->id()), route);
    into->link_list_.insert(into->link_list_.end(), route.links.begin(), route.links.end());
    if (latency != nullptr) *latency += route.latency;
  }

  void get_graph(const s_xbt_graph_t* /*graph*/, std::map<std::string, xbt_node_t, std::less<>>* /*nodes*/,
                 std::map<std::string, xbt_edge_t, std::less<>>* /*edges*/) override {}

 private:
  struct CachedRoute {
    std::vector<simgrid::kernel::resource::StandardLinkImpl*> links;
    double latency = 0;
  };

  void build_route(tmap::PE a, tmap::PE b, CachedRoute& route) {
    const auto add = [&](const sg4::Link* link) {
      route.links.push_back(link->get_impl());
      route.latency += link->get_latency();
    };
    path_.clear();
    if (a != b) routing_->route(a, b, path_);
    if (path_.empty()) {  // one PE, or two PEs of one node: the node's memory
      add(memory_.at(topology_->node_of(a)));
      return;
    }
    if (const auto it = base_.find(a); it != base_.end()) add(it->second);
    for (const auto id : path_) add(links_[static_cast<std::size_t>(id)]);
    if (const auto it = end_.find(b); it != end_.end()) add(it->second);
  }

  tmap::sim::PlatformSpec spec_;
  std::unique_ptr<tmap::Topology> topology_;
  std::unique_ptr<tmap::RoutingModel> routing_;
  std::unordered_map<unsigned long, tmap::PE> pe_of_point_;
  std::vector<sg4::Link*> links_;
  std::unordered_map<tmap::PE, sg4::Link*> base_;
  std::unordered_map<tmap::PE, sg4::Link*> end_;
  std::unordered_map<tmap::NodeId, sg4::Link*> memory_;
  std::vector<tmap::LinkId> path_;
  std::unordered_map<std::uint64_t, CachedRoute> routes_;
};

}  // namespace

/// SimGrid's entry point for a platform given as a shared object. A bad
/// spec stops the simulation with its message (tm-sim checks it first).
extern "C" __attribute__((visibility("default"))) void load_platform(const sg4::Engine& /*engine*/) {
  const char* path = std::getenv("TMAP_SMPI_PLATFORM");
  try {
    if (path == nullptr) throw std::runtime_error("TMAP_SMPI_PLATFORM is not set (tm-sim sets it)");
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string(path) + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    auto spec = tmap::sim::parse_platform_spec(text.str(), path);
    auto topology = tmap::load_machine({spec.topology, spec.node, {}, {}, spec.node_by_hosts, spec.pe});
    // SimGrid owns its netzones: the first one created is the root.
    auto* zone = new MachineZone(std::move(spec), std::move(topology));  // NOLINT(cppcoreguidelines-owning-memory)
    zone->get_iface()->seal();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tmap SMPI platform: %s\n", e.what());
    std::exit(2);
  }
}
