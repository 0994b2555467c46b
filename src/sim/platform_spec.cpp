#include "sim/platform_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "tmap/error.hpp"
#include "tmap/routing.hpp"
#include "util/text.hpp"

namespace tmap::sim {

void parse_bandwidths(std::string_view spec, const RoutingModel& routing, SimOptions& options) {
  std::string_view rest = spec;
  std::string_view item;
  while (detail::next_token(rest, item, ",")) {
    const auto eq = item.find('=');
    const auto kind = std::string(item.substr(0, eq));
    const auto& kinds = routing.link_kinds();
    if (eq == std::string_view::npos || std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
      std::string known;
      for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k;
      throw ParameterError("sim-bw: '" + std::string(item) + "': expected KIND=GB/s with KIND one of " + known);
    }
    double value = 0.0;
    if (const auto problem = detail::real_number_problem(item.substr(eq + 1), 1e-9, 1e9, &value); !problem.empty()) {
      throw ParameterError("sim-bw: " + kind + ": " + problem);
    }
    options.bandwidth_of_kind[kind] = value * 1e9;
  }
}

std::string host_name(PE pe) {
  return "pe" + std::to_string(pe);
}

std::string to_text(const PlatformSpec& spec) {
  std::string text = "# tmap SMPI platform (tm-sim): the machine, its link model, the PEs used\n";
  text += "topology " + spec.topology + "\n";
  if (!spec.node.empty()) text += "node " + spec.node + "\n";
  for (const auto& [hosts, node] : spec.node_by_hosts) text += "node_for " + hosts + " " + node + "\n";
  if (!spec.pe.empty()) text += "pe " + spec.pe + "\n";
  text += fmt::format("latency {}\nbandwidth {}\n", spec.options.latency, spec.options.bandwidth);
  for (const auto& [kind, value] : spec.options.bandwidth_of_kind)
    text += fmt::format("bandwidth_of_kind {} {}\n", kind, value);
  text +=
      fmt::format("node_latency {}\nnode_bandwidth {}\npes", spec.options.node_latency, spec.options.node_bandwidth);
  for (const auto pe : spec.pes) text += fmt::format(" {}", pe);
  return text + "\n";
}

PlatformSpec parse_platform_spec(std::string_view text, const std::string& origin) {
  PlatformSpec spec;
  bool has_topology = false;
  bool has_pes = false;
  std::int64_t line_number = 0;
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const auto line = detail::strip_comment(rest.substr(0, end), '#');
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    ++line_number;
    const auto fail = [&](const std::string& problem) {
      throw InputError(fmt::format("{}:{}: {}", origin, line_number, problem));
    };
    std::string_view words = line;
    std::string_view key;
    if (!detail::next_token(words, key)) continue;
    const auto real = [&](std::string_view what, double lo, double hi) {
      std::string_view token;
      if (!detail::next_token(words, token)) fail(fmt::format("{}: expected a number", what));
      double value = 0;
      if (const auto problem = detail::real_number_problem(token, lo, hi, &value); !problem.empty()) {
        fail(fmt::format("{}: {}", what, problem));
      }
      return value;
    };
    if (key == "topology") {
      const auto first = words.find_first_not_of(" \t\r");
      if (first == std::string_view::npos) fail("topology: expected a machine spec");
      auto spec_text = words.substr(first);
      while (!spec_text.empty() && (spec_text.back() == '\r' || spec_text.back() == ' ')) spec_text.remove_suffix(1);
      spec.topology = std::string(spec_text);
      has_topology = true;
      continue;
    }
    if (key == "node") {  // a network's node description: the rest of the line
      const auto first = words.find_first_not_of(" \t\r");
      if (first == std::string_view::npos) fail("node: expected a node description");
      auto node_text = words.substr(first);
      while (!node_text.empty() && (node_text.back() == '\r' || node_text.back() == ' ')) node_text.remove_suffix(1);
      spec.node = std::string(node_text);
      continue;
    }
    if (key == "node_for") {  // hosts (no blank), then a node description: the rest of the line
      const auto first = words.find_first_not_of(" \t\r");
      const auto gap = first == std::string_view::npos ? first : words.find_first_of(" \t", first);
      const auto node_at = gap == std::string_view::npos ? gap : words.find_first_not_of(" \t\r", gap);
      if (node_at == std::string_view::npos) fail("node_for: expected hosts and a node description");
      auto node_text = words.substr(node_at);
      while (!node_text.empty() && (node_text.back() == '\r' || node_text.back() == ' ')) node_text.remove_suffix(1);
      spec.node_by_hosts.emplace_back(std::string(words.substr(first, gap - first)), std::string(node_text));
      continue;
    }
    if (key == "pe") {
      std::string_view pe;
      if (!detail::next_token(words, pe) || (pe != "cpu" && pe != "gpu")) fail("pe: expected cpu or gpu");
      spec.pe = std::string(pe);
    } else if (key == "latency") {
      spec.options.latency = real(key, 0, 1);
    } else if (key == "bandwidth") {
      spec.options.bandwidth = real(key, 1, 1e15);
    } else if (key == "node_latency") {
      spec.options.node_latency = real(key, 0, 1);
    } else if (key == "node_bandwidth") {
      spec.options.node_bandwidth = real(key, 1, 1e15);
    } else if (key == "bandwidth_of_kind") {
      std::string_view kind;
      if (!detail::next_token(words, kind)) fail("bandwidth_of_kind: expected a link kind and a number");
      spec.options.bandwidth_of_kind[std::string(kind)] = real(kind, 1, 1e15);
    } else if (key == "pes") {
      std::string_view token;
      while (detail::next_token(words, token)) {
        std::int64_t pe = 0;
        if (!detail::parse_int(token, pe) || pe < 0) fail("pes: " + detail::quote(token) + " is not a PE id");
        if (!spec.pes.empty() && pe <= spec.pes.back()) fail("pes: the ids must increase");
        spec.pes.push_back(pe);
      }
      has_pes = true;
      continue;
    } else {
      fail("unknown item " + detail::quote(key) +
           " (expected topology, node, node_for, pe, latency, bandwidth, bandwidth_of_kind, node_latency, "
           "node_bandwidth or pes)");
    }
    std::string_view extra;
    if (detail::next_token(words, extra)) fail("unexpected " + detail::quote(extra) + " after the value");
  }
  if (!has_topology) throw InputError(origin + ": no 'topology' line");
  if (!has_pes || spec.pes.empty()) throw InputError(origin + ": no 'pes' line with the PEs used");
  return spec;
}

}  // namespace tmap::sim
