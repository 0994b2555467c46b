// make_routing, bandwidths and the link metrics.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "routing/models.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "util/int128.hpp"

namespace tmap {

namespace routing {

SubRouting::SubRouting(std::unique_ptr<RoutingModel> base, std::vector<PE> terminals)
    : RoutingModel(base->link_kinds()), base_(std::move(base)), terminals_(std::move(terminals)) {}

}  // namespace routing

std::vector<std::pair<std::string, double>> parse_link_bandwidths(std::string_view spec) {
  std::vector<std::pair<std::string, double>> items;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto end = std::min(spec.find(',', start), spec.size());
    const auto item = spec.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      throw InputError(fmt::format("link bandwidth '{}': expected KIND=VALUE (e.g. row=2)", item));
    }
    const std::string value(item.substr(eq + 1));
    char* stop = nullptr;
    const double bw = std::strtod(value.c_str(), &stop);
    if (value.empty() || stop != value.c_str() + value.size() || !std::isfinite(bw) || bw <= 0.0) {
      throw InputError(fmt::format("link bandwidth '{}': the value must be a positive number", item));
    }
    items.emplace_back(std::string(item.substr(0, eq)), bw);
  }
  return items;
}

void RoutingModel::set_bandwidths(std::string_view spec) {
  for (const auto& [kind, bw] : parse_link_bandwidths(spec)) {
    const auto it = std::find(kinds_.begin(), kinds_.end(), kind);
    if (it == kinds_.end()) {
      std::string known;
      for (const auto& k : kinds_) known += (known.empty() ? "" : ", ") + k;
      throw InputError(fmt::format("link bandwidth '{}={:g}': this machine's link kinds are {}", kind, bw, known));
    }
    bandwidth_[static_cast<std::size_t>(it - kinds_.begin())] = bw;
  }
}

Distance RoutingModel::route_hops(PE a, PE b) const {
  std::vector<LinkId> links;
  route(a, b, links);
  if (links.empty()) return 0;
  Distance hops = source_hops(a) + destination_hops(b);
  for (const auto l : links) hops += link_hops(l);
  return hops;
}

bool RoutingModel::every_link_one_hop() const {
  for (LinkId l = 0; l < num_links(); ++l) {
    if (link_hops(l) != 1) return false;
  }
  return true;
}

std::unique_ptr<RoutingModel> make_routing(const Topology& topology) {
  return topology.routing_model();
}

RouteMetrics evaluate_routes(const CommMatrix& comm, const RoutingModel& routing, std::span<const PE> mapping) {
  if (static_cast<Rank>(mapping.size()) != comm.num_ranks()) {
    throw InputError(fmt::format("the mapping has {} entries but the communication matrix has {} ranks", mapping.size(),
                                 comm.num_ranks()));
  }
  // Per link, side by side (one cache line a hop on machines of millions of
  // links): messages, and bytes. A link carries each message at most once,
  // so its bytes are at most the weighted hops, which are checked to fit
  // int64 below: unsigned 64-bit sums (wrapping is defined) are exact
  // wherever the result is reported.
  struct Tally {
    std::int64_t messages = 0;
    std::uint64_t bytes = 0;
  };
  std::vector<Tally> tally(static_cast<std::size_t>(routing.num_links()));
  detail::Int128 wh = 0;
  detail::Int128 th = 0;
  const bool unit_hops = routing.every_link_one_hop();
  std::vector<LinkId> links;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto cols = comm.targets(i);
    const auto vols = comm.volumes(i);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      links.clear();
      routing.route(mapping[i], mapping[cols[k]], links);
      if (links.empty()) continue;
      Distance hops = routing.source_hops(mapping[i]) + routing.destination_hops(mapping[cols[k]]);
      if (unit_hops) hops += static_cast<Distance>(links.size());
      for (const auto l : links) {
        if (!unit_hops) hops += routing.link_hops(l);
        auto& t = tally[static_cast<std::size_t>(l)];
        ++t.messages;
        t.bytes += static_cast<std::uint64_t>(vols[k]);
      }
      th += hops;
      wh += static_cast<detail::Int128>(vols[k]) * hops;
    }
  }
  constexpr auto kMax = static_cast<detail::Int128>(std::numeric_limits<std::int64_t>::max());
  if (wh > kMax) throw InputError("weighted hops of this mapping exceed 2^63-1 and cannot be reported exactly");
  RouteMetrics m;
  m.th = static_cast<std::int64_t>(th);
  m.wh = static_cast<std::int64_t>(wh);
  double total_messages = 0.0;
  double total_congestion = 0.0;
  for (std::size_t l = 0; l < tally.size(); ++l) {
    if (tally[l].messages == 0) continue;
    LinkLoad load;
    load.link = static_cast<LinkId>(l);
    load.messages = tally[l].messages;
    load.bytes = static_cast<Volume>(tally[l].bytes);
    load.congestion = static_cast<double>(load.bytes) / routing.bandwidth(load.link);
    m.mmc = std::max(m.mmc, load.messages);
    m.mc = std::max(m.mc, load.congestion);
    total_messages += static_cast<double>(load.messages);
    total_congestion += load.congestion;
    m.loads.push_back(load);
  }
  m.used_links = static_cast<std::int64_t>(m.loads.size());
  if (m.used_links > 0) {
    m.amc = total_messages / static_cast<double>(m.used_links);
    m.ac = total_congestion / static_cast<double>(m.used_links);
  }
  return m;
}

namespace {

/// A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote
/// or a line break (Tianhe-3's link names do: "cn0-chip(0,0).L").
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

std::string link_loads_csv(const RoutingModel& routing, const RouteMetrics& metrics) {
  std::string out = "link,name,kind,bandwidth,messages,bytes,congestion\n";
  for (const auto& load : metrics.loads) {
    out += fmt::format("{},{},{},{},{},{},{}\n", load.link, csv_field(routing.link_name(load.link)),
                       routing.link_kinds()[static_cast<std::size_t>(routing.link_kind(load.link))],
                       routing.bandwidth(load.link), load.messages, load.bytes, load.congestion);
  }
  return out;
}

}  // namespace tmap
