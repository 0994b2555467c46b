// Mapping output formats (perm, json, TopoMatch, Scotch .map, launcher
// files) and the JSON report (contract section 4).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "io/report_tree.hpp"
#include "io/topomatch_prefix.hpp"
#include "tmap/error.hpp"
#include "tmap/launch.hpp"
#include "tmap/report.hpp"
#include "tmap/version.hpp"
#include "util/names.hpp"

namespace tmap {

namespace {

constexpr std::array<detail::Named<MappingFormat>, 10> kFormats{{
    {MappingFormat::Perm, "perm"},
    {MappingFormat::Json, "json"},
    {MappingFormat::TopoMatch, "topomatch"},
    {MappingFormat::Scotch, "scotch"},
    {MappingFormat::Rankfile, "rankfile"},
    {MappingFormat::Hostfile, "hostfile"},
    {MappingFormat::Machinefile, "machinefile"},
    {MappingFormat::Hydra, "hydra"},
    {MappingFormat::RankOrder, "rank-order"},
    {MappingFormat::Binding, "binding"},
}};

}  // namespace

nlohmann::ordered_json mapping_tree(std::span<const PE> mapping, const MappingReport& r) {
  nlohmann::ordered_json j;
  j["strategy"] = r.strategy;
  j["n"] = mapping.size();
  j["pes"] = r.num_pes;
  j["hop_bytes"] = r.metrics.hop_bytes;
  j["avg_hops"] = r.metrics.avg_hops;
  j["max_com"] = r.metrics.max_com;
  j["total_bytes"] = r.metrics.total_bytes;
  if (r.routes) {
    // Deveci et al.'s link metrics (see tmap/routing.hpp).
    j["th"] = r.routes->th;
    j["wh"] = r.routes->wh;
    j["mmc"] = r.routes->mmc;
    j["mc"] = r.routes->mc;
    j["amc"] = r.routes->amc;
    j["ac"] = r.routes->ac;
    j["used_links"] = r.routes->used_links;
  }
  if (r.refine) {
    j["construction_hop_bytes"] = r.refine->before;
    j["refine"] = r.refine->method;
    j["refine_time_s"] = r.refine->seconds;
  }
  j["time_s"] = r.time_s;
  j["version"] = version();
  j["seed"] = r.seed;
  j["threads"] = r.threads;
  if (!r.config.empty()) {
    auto options = nlohmann::ordered_json::object();
    for (const auto& [key, value] : r.config) options[key] = value;
    j["config"] = {{"tmap_config", 1}, {"options", std::move(options)}};
  }
  if (r.partial) j["partial"] = true;  // stopped early: the best mapping found by then
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (!r.fell_back_to.empty()) j["fell_back_to"] = r.fell_back_to;
  if (r.sim_time_s) j["sim_time_s"] = *r.sim_time_s;
  if (r.predicted_time_s) j["predicted_time_s"] = *r.predicted_time_s;
  if (r.objective_refine) {
    const auto& o = *r.objective_refine;
    j["objective"] = {{"name", objective_name(r.objective)},
                      {"before", o.before.value},
                      {"after", o.after.value},
                      {"hop_bytes_before", o.before.hop_bytes},
                      {"hop_bytes_after", o.after.hop_bytes},
                      {"swaps", o.swaps},
                      {"seconds", o.seconds}};
  }
  j["topology"] = r.topology;
  auto histogram = nlohmann::ordered_json::array();
  for (const auto& [d, bytes] : r.metrics.bytes_by_distance) {
    histogram.push_back({{"distance", d}, {"bytes", bytes}});
  }
  j["bytes_by_distance"] = std::move(histogram);
  if (!r.node_traffic.empty()) {
    auto nodes = nlohmann::ordered_json::array();
    for (const auto& [node, bytes] : r.node_traffic) nodes.push_back({node, bytes});
    j["node_traffic"] = std::move(nodes);
  }
  if (r.loads) {
    const auto& l = *r.loads;
    j["loads"] = {{"limit", l.limit}, {"max_load", l.max_load}, {"average", l.average}, {"imbalance", l.imbalance}};
    if (l.asked >= 0.0) j["loads"]["asked"] = l.asked;
  }
  j["mapping"] = std::vector<PE>(mapping.begin(), mapping.end());
  return j;
}

MappingFormat mapping_format_from_name(std::string_view name) {
  if (const auto format = detail::find_by_name(kFormats, name)) return *format;
  throw InputError("unknown mapping format '" + std::string(name) + "' (known: " + detail::joined_names(kFormats) +
                   ")");
}

std::vector<std::string> mapping_format_names() {
  return detail::all_names(kFormats);
}

std::string_view mapping_format_name(MappingFormat format) {
  if (const auto name = detail::name_of(kFormats, format)) return *name;
  throw InternalError("unnamed mapping format");
}

std::string mapping_json(std::span<const PE> mapping, const MappingReport& report) {
  return mapping_tree(mapping, report).dump();
}

void write_mapping_report(std::span<const PE> mapping, const MappingReport& report, ReportWriter& out) {
  write_tree(mapping_tree(mapping, report), out);
}

std::string format_mapping(MappingFormat format, std::span<const PE> mapping, const MappingReport& report) {
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  switch (format) {
    case MappingFormat::Perm:
      for (const PE p : mapping) fmt::format_to(it, "{}\n", p);
      break;
    case MappingFormat::Json:
      return mapping_tree(mapping, report).dump(2) + "\n";
    case MappingFormat::TopoMatch:
      fmt::format_to(it, "{} {}\n", detail::kTopoMatchPrefix, fmt::join(mapping, ","));
      break;
    case MappingFormat::Scotch:
      // Scotch's terminals: nodes for targets of weighted terminals.
      fmt::format_to(it, "{}\n", mapping.size());
      for (std::size_t r = 0; r < mapping.size(); ++r) {
        fmt::format_to(it, "{}\t{}\n", r,
                       report.scotch_terminal_of ? report.scotch_terminal_of(mapping[r]) : mapping[r]);
      }
      break;
    case MappingFormat::Rankfile:
    case MappingFormat::Hostfile:
    case MappingFormat::Machinefile:
    case MappingFormat::Hydra:
    case MappingFormat::RankOrder:
    case MappingFormat::Binding:
      return format_launch_file(format, mapping, report.host_of, report.slot_of, report.program, report.slot_kind);
  }
  return fmt::to_string(out);
}

}  // namespace tmap
