#include "sim/simulate.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <simgrid/s4u.hpp>
#include <unordered_map>

#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::sim {

namespace sg4 = simgrid::s4u;

std::vector<SimResult> simulate(const CommMatrix& comm, const Topology& topology, const std::vector<Mapping>& mappings,
                                const SimOptions& options) {
  const auto routing = topology.routing_model();
  if (!routing) {
    throw UnsupportedError(
        "simulation: " + topology.kind() +
        " targets give distances only, no links to simulate traffic on (use a Tianhe-3 spec, a mesh, "
        "torus, hypercube or tree target)");
  }
  static std::atomic<bool> used{false};
  if (used.exchange(true)) throw UnsupportedError("simulation: SimGrid simulates one batch per process");

  xbt_log_control_set("root.thresh:critical");  // SimGrid prints nothing
  int argc = 1;
  char name[] = "tmap-sim";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  // One actor drives the round: system threads instead of SimGrid's stack
  // switching (which sanitizers cannot follow) cost nothing here.
  engine.set_config("contexts/factory:thread");
  // CM02: time = latency + bytes / bandwidth on an idle route, bandwidth
  // shared max-min between the flows of a link; no TCP correction factors.
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  auto* zone = sg4::create_full_zone("machine");

  // A host per PE any mapping uses; a link per machine link any route uses.
  std::unordered_map<PE, sg4::Host*> host_of;
  for (const auto& m : mappings) {
    for (const auto pe : m) {
      if (!host_of.contains(pe)) host_of[pe] = zone->create_host("pe" + std::to_string(pe), 1e9);
    }
  }
  std::unordered_map<LinkId, sg4::Link*> link_of;
  std::unordered_map<NodeId, sg4::Link*> node_link;
  // The hops every route counts before and after its links (Tianhe-3: the
  // source side's switch; a cluster: the edges up from each end's PE to its
  // node): latency-only links per PE, bandwidth unbounded.
  std::unordered_map<PE, sg4::Link*> base_link;
  std::unordered_map<PE, sg4::Link*> end_link;
  const auto end_of = [&](PE pe, bool source) {
    auto& l = (source ? base_link : end_link)[pe];
    if (l == nullptr) {
      const auto hops = source ? routing->source_hops(pe) : routing->destination_hops(pe);
      l = zone->create_link((source ? "base" : "end") + std::to_string(pe), 1e18)
              ->set_latency(options.latency * static_cast<double>(hops));
    }
    return l;
  };
  const auto link = [&](LinkId id) {
    auto& l = link_of[id];
    if (l == nullptr) {
      const auto& kind = routing->link_kinds()[static_cast<std::size_t>(routing->link_kind(id))];
      const auto it = options.bandwidth_of_kind.find(kind);
      // Latency per hop the routing model counts on the link (a Tianhe-3
      // node's injection link counts none, a chip-to-chip link two); the
      // bandwidth the model gives the link relative to one cable (a
      // dragonfly's link of k parallel cables: k times), as tm-sim's.
      l = zone->create_link("l" + std::to_string(id), it != options.bandwidth_of_kind.end()
                                                          ? it->second
                                                          : options.bandwidth * routing->bandwidth(id))
              ->set_latency(options.latency * static_cast<double>(routing->link_hops(id)));
    }
    return l;
  };
  // Routes for every ordered pair some mapping sends on, each direction as
  // tmap routes it (dimension-ordered routes differ between directions).
  std::set<std::pair<PE, PE>> routed;
  std::vector<LinkId> path;
  for (const auto& m : mappings) {
    for (Rank i = 0; i < comm.num_ranks(); ++i) {
      for (const Rank j : comm.targets(i)) {
        const auto a = m[static_cast<std::size_t>(i)];
        const auto b = m[static_cast<std::size_t>(j)];
        if (a == b) continue;  // the same PE: no network
        const std::pair<PE, PE> key{a, b};
        if (!routed.insert(key).second) continue;
        std::vector<sg4::LinkInRoute> links;
        path.clear();
        routing->route(a, b, path);
        if (path.empty()) {
          // No machine link between them (two PEs of one Tianhe-3 node): the node's memory.
          auto& l = node_link[topology.node_of(a)];
          if (l == nullptr) {
            l = zone->create_link("node" + std::to_string(topology.node_of(a)), options.node_bandwidth)
                    ->set_latency(options.node_latency);
          }
          links.emplace_back(l);
        } else {
          if (routing->source_hops(a) > 0) links.emplace_back(end_of(a, true));
          for (const auto id : path) links.emplace_back(link(id));
          if (routing->destination_hops(b) > 0) links.emplace_back(end_of(b, false));
        }
        zone->add_route(host_of[a]->get_netpoint(), host_of[b]->get_netpoint(), nullptr, nullptr, links, false);
      }
    }
  }
  zone->seal();

  std::vector<SimResult> results(mappings.size());
  sg4::Actor::create("driver", host_of.begin()->second, [&] {
    for (std::size_t k = 0; k < mappings.size(); ++k) {
      const auto& m = mappings[k];
      const double start = sg4::Engine::get_clock();
      for (int round = 0; round < options.rounds; ++round) {
        std::vector<sg4::CommPtr> comms;
        for (Rank i = 0; i < comm.num_ranks(); ++i) {
          const auto targets = comm.targets(i);
          const auto volumes = comm.volumes(i);
          for (std::size_t e = 0; e < targets.size(); ++e) {
            const auto a = m[static_cast<std::size_t>(i)];
            const auto b = m[static_cast<std::size_t>(targets[e])];
            if (a == b) continue;
            comms.push_back(sg4::Comm::sendto_async(host_of[a], host_of[b], static_cast<std::uint64_t>(volumes[e])));
          }
        }
        results[k].messages = static_cast<std::int64_t>(comms.size());
        sg4::Comm::wait_all(comms);
      }
      results[k].seconds = sg4::Engine::get_clock() - start;
    }
  });
  engine.run();
  return results;
}

}  // namespace tmap::sim
