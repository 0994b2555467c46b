// A machine described for its user (tmap/describe.hpp).
#include "tmap/describe.hpp"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "io/report_tree.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

namespace tmap {

namespace {

/// An end as a reader knows it: a node by its host name.
std::string end_name(const Topology& topology, const LinkEnd& end) {
  return end.node >= 0 ? host_name(topology, end.node) : end.name;
}

std::string place_of(const Topology& topology, PE pe) {
  return fmt::format("{} slot {}", host_name(topology, topology.node_of(pe)), slot_in_node(topology, pe));
}

}  // namespace

MachineDescription describe_machine(const Topology& topology) {
  MachineDescription d;
  d.machine = topology.description();
  d.kind = topology.kind();
  d.pes = topology.size();
  d.nodes = topology.num_nodes();
  std::map<PE, NodeId> sizes;
  {
    std::vector<PE> per_node(static_cast<std::size_t>(d.nodes), 0);
    for (PE p = 0; p < d.pes; ++p) ++per_node[static_cast<std::size_t>(topology.node_of(p))];
    for (const auto count : per_node) ++sizes[count];
  }
  d.node_sizes.assign(sizes.begin(), sizes.end());
  d.hosts.reserve(static_cast<std::size_t>(d.nodes));
  for (NodeId k = 0; k < d.nodes; ++k) d.hosts.push_back(host_name(topology, k));

  const auto routing = make_routing(topology);
  if (routing) {
    const auto& kinds = routing->link_kinds();
    d.cables.resize(kinds.size());
    std::vector<std::set<std::string>> lower(kinds.size());
    std::vector<std::set<std::string>> upper(kinds.size());
    std::set<std::string> switches;
    std::map<std::tuple<std::string, std::string, int>, std::size_t> cable_of;
    for (LinkId l = 0; l < routing->num_links(); ++l) {
      const auto kind = static_cast<std::size_t>(routing->link_kind(l));
      auto& c = d.cables[kind];
      c.kind = kinds[kind];
      ++c.cables;
      const auto ends = routing->link_ends(l);
      if (ends.lower.node < 0 && ends.lower.name.empty()) continue;  // not a network of nodes
      const auto low = end_name(topology, ends.lower);
      const auto high = end_name(topology, ends.upper);
      lower[kind].insert(low);
      upper[kind].insert(high);
      c.lower_are_nodes = ends.lower.node >= 0;
      c.upper_are_nodes = ends.upper.node >= 0;
      if (ends.lower.node < 0) switches.insert(low);
      if (ends.upper.node < 0) switches.insert(high);
      const auto key = std::make_tuple(low, high, static_cast<int>(kind));
      if (const auto it = cable_of.find(key); it != cable_of.end()) {
        ++d.graph[it->second].count;
      } else {
        cable_of.emplace(key, d.graph.size());
        d.graph.push_back({ends, static_cast<int>(kind), 1});
      }
    }
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      d.cables[k].kind = kinds[k];
      d.cables[k].lower_ends = static_cast<std::int64_t>(lower[k].size());
      d.cables[k].upper_ends = static_cast<std::int64_t>(upper[k].size());
    }
    d.switches = static_cast<std::int64_t>(switches.size());
  }

  // One example per distance from the first PE, the nearest PE at it.
  std::map<Distance, MachineDescription::Example> by_distance;
  for (PE p = 1; p < d.pes; ++p) {
    const auto distance = topology.distance(0, p);
    auto [it, fresh] = by_distance.try_emplace(distance);
    if (fresh) {
      it->second.distance = distance;
      it->second.b = p;
      it->second.place = place_of(topology, p);
    }
    ++it->second.pes_at_distance;
  }
  std::vector<LinkId> links;
  for (auto& [distance, example] : by_distance) {
    if (routing) {
      links.clear();
      routing->route(example.a, example.b, links);
      for (const auto l : links) example.route.push_back(routing->link_name(l));
    }
    d.examples.push_back(std::move(example));
  }
  return d;
}

std::string description_text(const MachineDescription& d) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "machine: {}\n", d.machine);
  fmt::format_to(it, "PEs: {} on {} node{}:", d.pes, d.nodes, d.nodes == 1 ? "" : "s");
  for (std::size_t k = 0; k < d.node_sizes.size(); ++k) {
    const auto& [pes, nodes] = d.node_sizes[k];
    fmt::format_to(it, "{} {} node{} of {} PE{}", k == 0 ? "" : ",", nodes, nodes == 1 ? "" : "s", pes,
                   pes == 1 ? "" : "s");
  }
  fmt::format_to(it, "\n");
  if (!d.hosts.empty()) {
    fmt::format_to(it, "hosts: {}{}\n", d.hosts.front(),
                   d.hosts.size() > 2   ? fmt::format(", {}, ..., {}", d.hosts[1], d.hosts.back())
                   : d.hosts.size() > 1 ? ", " + d.hosts.back()
                                        : std::string());
  }
  if (!d.cables.empty()) {
    // A network's cables have ends; links inside nodes (a GPU node's) have none.
    const auto inside = [&d](const MachineDescription::CableKind& c) {
      return !d.graph.empty() && c.lower_ends == 0 && c.upper_ends == 0;
    };
    std::int64_t total = 0;
    std::int64_t in_nodes = 0;
    for (const auto& c : d.cables) (inside(c) ? in_nodes : total) += c.cables;
    if (d.graph.empty()) {  // links without named ends (Tianhe-3, meshes, trees): counted by kind
      fmt::format_to(it, "links: {}\n", total);
    } else {
      fmt::format_to(it, "network: {} switch{} or router{}, {} cable{}\n", d.switches, d.switches == 1 ? "" : "es",
                     d.switches == 1 ? "" : "s", total, total == 1 ? "" : "s");
    }
    for (const auto& c : d.cables) {
      if (inside(c)) continue;
      if (c.lower_ends == 0 && c.upper_ends == 0) {
        fmt::format_to(it, "  {}: {}\n", c.kind, c.cables);
        continue;
      }
      const auto what = [](bool nodes, std::int64_t n) {
        return fmt::format("{} {}", n, nodes ? (n == 1 ? "node" : "nodes") : (n == 1 ? "switch" : "switches"));
      };
      fmt::format_to(it, "  {}: {} cables from {} to {}\n", c.kind, c.cables, what(c.lower_are_nodes, c.lower_ends),
                     what(c.upper_are_nodes, c.upper_ends));
    }
    if (in_nodes > 0) {
      fmt::format_to(it, "links inside nodes: {}\n", in_nodes);
      for (const auto& c : d.cables) {
        if (inside(c)) fmt::format_to(it, "  {}: {}\n", c.kind, c.cables);
      }
    }
  }
  fmt::format_to(it, "distances from PE 0 ({} slot 0), one example each:\n", d.hosts.empty() ? "" : d.hosts.front());
  for (const auto& e : d.examples) {
    fmt::format_to(it, "  {:>4}: PE {} on {} ({} PEs this far){}", e.distance, e.b, e.place, e.pes_at_distance,
                   e.route.empty() ? " inside the node\n" : ", route:");
    if (!e.route.empty()) fmt::format_to(it, " {}\n", fmt::join(e.route, ", "));
  }
  return fmt::to_string(out);
}

namespace {

nlohmann::ordered_json description_tree(const MachineDescription& d) {
  nlohmann::ordered_json j;
  j["machine"] = d.machine;
  j["kind"] = d.kind;
  j["pes"] = d.pes;
  j["nodes"] = d.nodes;
  auto sizes = nlohmann::ordered_json::array();
  for (const auto& [pes, nodes] : d.node_sizes) sizes.push_back({{"pes", pes}, {"nodes", nodes}});
  j["node_sizes"] = std::move(sizes);
  j["hosts"] = d.hosts;
  j["switches"] = d.switches;
  auto cables = nlohmann::ordered_json::array();
  for (const auto& c : d.cables) {
    cables.push_back({{"kind", c.kind},
                      {"cables", c.cables},
                      {"lower_ends", c.lower_ends},
                      {"upper_ends", c.upper_ends},
                      {"lower_are_nodes", c.lower_are_nodes},
                      {"upper_are_nodes", c.upper_are_nodes}});
  }
  j["cables"] = std::move(cables);
  auto examples = nlohmann::ordered_json::array();
  for (const auto& e : d.examples) {
    examples.push_back({{"distance", e.distance},
                        {"a", e.a},
                        {"b", e.b},
                        {"pes_at_distance", e.pes_at_distance},
                        {"place", e.place},
                        {"route", e.route}});
  }
  j["examples"] = std::move(examples);
  auto graph = nlohmann::ordered_json::array();
  const auto end = [&d](const LinkEnd& e) {
    return e.node >= 0 ? nlohmann::ordered_json{{"node", e.node}, {"name", d.hosts[static_cast<std::size_t>(e.node)]}}
                       : nlohmann::ordered_json{{"switch", e.name}};
  };
  for (const auto& c : d.graph) {
    graph.push_back({{"lower", end(c.ends.lower)},
                     {"upper", end(c.ends.upper)},
                     {"kind", d.cables[static_cast<std::size_t>(c.kind)].kind},
                     {"count", c.count}});
  }
  j["graph"] = std::move(graph);
  return j;
}

}  // namespace

std::string description_json(const MachineDescription& description) {
  return description_tree(description).dump(2) + "\n";
}

void write_description(const MachineDescription& description, ReportWriter& out) {
  write_tree(description_tree(description), out);
}

}  // namespace tmap
