// tmap's fat tree against SimGrid's own FAT_TREE cluster zone, an
// independent implementation of the same network: SimGrid loads a
// platform with <cluster topology="FAT_TREE" topo_parameters="..."/>, and
// for every ordered pair of nodes its route must be tmap's, cable for
// cable. Cables have other names on each side, so the check is that one
// bijection between SimGrid's links and tmap's maps every route onto the
// other position by position (a differing D-mod-k choice breaks it), and
// that each route's latency is hops x the cable latency, as tm-sim gives.
// Usage: fat_tree_oracle PLATFORM.xml 'fattree:L;d..;u..;p..' LATENCY_S
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "routing/fat_tree.hpp"
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
  if (argc != 4) return fail("usage: fat_tree_oracle PLATFORM.xml FATTREE_SPEC LATENCY_S");
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
  const auto* fat = cluster ? dynamic_cast<const tmap::routing::FatTreeNetwork*>(&cluster->network()) : nullptr;
  if (fat == nullptr) return fail("not a fat tree's routing");
  const auto& net = *fat;
  const auto simgrid_id = [&](std::int64_t level, std::int64_t position) {
    if (level == 0) return position;
    std::int64_t before = 0;
    for (std::int64_t l = 1; l < level; ++l) before += net.count(l);
    return 2 * net.num_nodes() - 1 - before - position;
  };
  std::map<std::string, tmap::LinkId> tmap_of;
  std::map<tmap::LinkId, std::string> simgrid_of;
  std::size_t routes = 0;
  std::size_t cables = 0;
  for (std::size_t a = 0; a < hosts.size(); ++a) {
    for (std::size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      std::vector<simgrid::s4u::Link*> theirs;
      double their_latency = 0;
      hosts[a]->route_to(hosts[b], theirs, &their_latency);
      std::vector<tmap::LinkId> ours;
      routing->route(static_cast<tmap::PE>(a), static_cast<tmap::PE>(b), ours);
      const auto pair = std::to_string(a) + " -> " + std::to_string(b);
      if (theirs.size() != ours.size()) {
        return fail(pair + ": SimGrid's route has " + std::to_string(theirs.size()) + " links, tmap's " +
                    std::to_string(ours.size()));
      }
      if (std::abs(their_latency - latency * static_cast<double>(ours.size())) > 1e-12) {
        return fail(pair + ": SimGrid's latency " + std::to_string(their_latency));
      }
      for (std::size_t k = 0; k < ours.size(); ++k) {
        // A split-duplex cable is two SimGrid links (_UP, _DOWN); tmap's cables carry both ways.
        auto name = theirs[k]->get_name();
        for (const std::string suffix : {"_UP", "_DOWN"}) {
          if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
        }
        const auto e = net.ends(ours[k]);
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
  std::printf("fat tree %s: %zu routes equal to SimGrid's FAT_TREE zone, %zu cables matched one to one\n", argv[2],
              routes, cables);
  return 0;
}
