// tmap's networks against SimGrid's own cluster zones, independent
// implementations of the same networks: SimGrid loads a platform with
// <cluster topology="FAT_TREE" (or "DRAGONFLY") topo_parameters="..."/>,
// and for every ordered pair of nodes the two routes must agree. Each
// route's latency is hops x the cable latency on both sides (so a
// ping-pong takes the same time under tm-sim). Fat trees: cable for cable,
// the ends of each of tmap's cables being SimGrid's, and one bijection
// between SimGrid's links and tmap's mapping every route onto the other
// position by position (a differing D-mod-k choice breaks it). Dragonflies:
// the class of every step (local, green, black, blue) in order, except where
// SimGrid 3.32 takes a green step inside a group as landing in chassis 0
// (source chassis != 0, another blade): there its length must be tmap's
// less the black hop it skips, plus the one it adds from chassis 0. Tori:
// cable for cable (SimGrid names a cable by its two nodes).
// Usage: network_oracle PLATFORM.xml 'fattree:...|dragonfly:...' LATENCY_S
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "routing/dragonfly.hpp"
#include "routing/fat_tree.hpp"
#include "routing/network.hpp"
#include "routing/torus_network.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology.hpp"

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  return 1;
}

/// "node-12" -> 12.
long suffix_number(const std::string& name) {
  const auto dash = name.find_last_of('-');
  return std::stol(name.substr(dash + 1));
}

}  // namespace

int main(int argc, char** argv) {
  simgrid::s4u::Engine engine(&argc, argv);
  if (argc != 4) return fail("usage: network_oracle PLATFORM.xml NETWORK_SPEC LATENCY_S");
  engine.load_platform(argv[1]);
  auto hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(),
            [](const auto* a, const auto* b) { return suffix_number(a->get_name()) < suffix_number(b->get_name()); });
  const auto machine = tmap::load_topology(argv[2]);
  const auto routing = machine->routing_model();
  const double latency = std::stod(argv[3]);
  if (static_cast<tmap::PE>(hosts.size()) != machine->size()) {
    return fail("SimGrid has " + std::to_string(hosts.size()) + " hosts, tmap " + std::to_string(machine->size()));
  }
  // SimGrid numbers nodes 0..N-1 and switches down from 2N-1, level by
  // level, position by position; its cables are "link_from_CHILD_PARENT_n".
  const auto* cluster = dynamic_cast<const tmap::routing::NetworkRouting*>(routing.get());
  if (cluster == nullptr) return fail("not a network's routing");
  const auto* fat = dynamic_cast<const tmap::routing::FatTreeNetwork*>(&cluster->network());
  const auto simgrid_id = [&](std::int64_t level, std::int64_t position) {
    if (level == 0) return position;
    std::int64_t before = 0;
    for (std::int64_t l = 1; l < level; ++l) before += fat->count(l);
    return 2 * fat->num_nodes() - 1 - before - position;
  };
  std::map<std::string, tmap::LinkId> tmap_of;
  std::map<tmap::LinkId, std::string> simgrid_of;
  std::size_t routes = 0;
  std::size_t cables = 0;
  std::size_t quirks = 0;
  for (std::size_t a = 0; a < hosts.size(); ++a) {
    for (std::size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      std::vector<simgrid::s4u::Link*> theirs;
      double their_latency = 0;
      hosts[a]->route_to(hosts[b], theirs, &their_latency);
      std::vector<tmap::LinkId> ours;
      routing->route(static_cast<tmap::PE>(a), static_cast<tmap::PE>(b), ours);
      const auto pair = std::to_string(a) + " -> " + std::to_string(b);
      const auto* fly = dynamic_cast<const tmap::routing::DragonflyNetwork*>(&cluster->network());
      const auto* torus = dynamic_cast<const tmap::routing::TorusNetwork*>(&cluster->network());
      bool quirk = false;
      if (fly != nullptr) {
        const auto from = fly->router_of(static_cast<std::int64_t>(a));
        const auto to = fly->router_of(static_cast<std::int64_t>(b));
        quirk = from.group == to.group && from.blade != to.blade && from.chassis != 0;
        if (quirk) {
          const auto expected = ours.size() - (from.chassis != to.chassis ? 1 : 0) + (to.chassis != 0 ? 1 : 0);
          if (theirs.size() != expected) {
            return fail(pair + ": SimGrid's chassis-0 shortcut predicts " + std::to_string(expected) +
                        " links, it took " + std::to_string(theirs.size()));
          }
          ++quirks;
          continue;
        }
      }
      if (theirs.size() != ours.size()) {
        return fail(pair + ": SimGrid's route has " + std::to_string(theirs.size()) + " links, tmap's " +
                    std::to_string(ours.size()));
      }
      if (std::abs(their_latency - latency * static_cast<double>(ours.size())) > 1e-12) {
        return fail(pair + ": SimGrid's latency " + std::to_string(their_latency));
      }
      for (std::size_t k = 0; k < ours.size() && torus != nullptr; ++k) {
        // SimGrid's torus names a cable by the node it leaves upwards and its successor.
        const auto dims = static_cast<tmap::LinkId>(routing->link_kinds().size());
        const auto from = ours[k] / dims;
        const auto name = routing->link_name(ours[k]);  // "node F - node T (dimJ)"
        const auto to = std::stol(name.substr(name.find(" - node ") + 8));
        const auto expected = "net_link_from_" + std::to_string(from) + "_to_" + std::to_string(to);
        if (theirs[k]->get_name() != expected) {
          return fail(pair + ": step " + std::to_string(k) + " is SimGrid's " + theirs[k]->get_name() +
                      " where tmap takes " + name);
        }
      }
      for (std::size_t k = 0; k < ours.size() && fly != nullptr; ++k) {
        // SimGrid's dragonfly names its links by class: "local_link...", "green_link...".
        const auto kind = routing->link_kinds()[static_cast<std::size_t>(routing->link_kind(ours[k]))];
        if (!theirs[k]->get_name().starts_with(kind + "_link")) {
          return fail(pair + ": step " + std::to_string(k) + " is SimGrid's " + theirs[k]->get_name() +
                      " where tmap takes " + routing->link_name(ours[k]));
        }
      }
      for (std::size_t k = 0; k < ours.size() && fat != nullptr; ++k) {
        // A split-duplex cable is two SimGrid links (_UP, _DOWN); tmap's cables carry both ways.
        auto name = theirs[k]->get_name();
        for (const std::string suffix : {"_UP", "_DOWN"}) {
          if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
        }
        const auto e = fat->ends(ours[k]);
        const auto expected = "link_from_" + std::to_string(simgrid_id(e.level, e.lower)) + "_" +
                              std::to_string(simgrid_id(e.level + 1, e.upper)) + "_";
        if (!name.starts_with(expected)) {
          return fail(pair + ": step " + std::to_string(k) + " takes SimGrid's " + name + " where tmap takes " +
                      routing->link_name(ours[k]) + " (" + expected + "*)");
        }
        const auto [at, fresh] = tmap_of.emplace(name, ours[k]);
        const auto [back, fresh_back] = simgrid_of.emplace(ours[k], name);
        if (at->second != ours[k] || back->second != name) {
          return fail(pair + ": step " + std::to_string(k) + " takes SimGrid's " + name + " (matched to tmap's " +
                      routing->link_name(at->second) + ") where tmap takes " + routing->link_name(ours[k]) +
                      " (matched to SimGrid's " + back->second + ")");
        }
        cables += fresh ? 1 : 0;
      }
      ++routes;
    }
  }
  if (fat != nullptr) {
    std::printf("%s: %zu routes equal to SimGrid's FAT_TREE zone, %zu cables matched one to one\n", argv[2], routes,
                cables);
  } else if (cluster->network().kind() == "torus") {
    std::printf("%s: %zu routes equal to SimGrid's TORUS zone, cable for cable\n", argv[2], routes);
  } else {
    std::printf(
        "%s: %zu routes of SimGrid's length, latency and link classes; %zu where SimGrid shortcuts through "
        "chassis 0, as predicted\n",
        argv[2], routes, quirks);
  }
  return 0;
}
