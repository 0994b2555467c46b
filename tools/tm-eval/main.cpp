// tm-eval: scores a given mapping, independently of how it was made.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "tmap/machine.hpp"

int main(int argc, char** argv) {
  using namespace tmap;
  using namespace tmap::cli;
  CLI::App app{
      "tm-eval: scores a mapping (perm, json, TopoMatch or Scotch .map) against a topology and a "
      "communication matrix: hop_bytes, avg_hops, max_com, bytes per distance and, where the topology has a "
      "routing model, Deveci et al.'s TH, WH, MMC, MC, AMC and AC.",
      "tm-eval"};
  app.set_version_flag("--version", std::string("tm-eval ") + tmap::version());
  InputOptions in;
  in.add_to(app);
  RoutingOptions links;
  links.add_to(app);
  std::string mapping_file;
  std::string format = "text";
  std::string output;
  app.add_option("-m,--mapping", mapping_file, "The mapping to score (sigma[rank] = PE)")->required();
  app.add_option("--format", format, "Output: text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--output", output, "Write the result to this file instead of stdout")->check(file_name());

  return run("tm-eval", app, argc, argv, [&]() -> int {
    auto inputs = in.files();
    inputs.push_back(mapping_file);
    protect_inputs(inputs);
    check_outputs({output, links.loads_file});
    if (!in.has_topology() || in.comm.path.empty()) throw InputError("both -t TOPOLOGY and -c COMM are needed");
    auto spec = in.job_spec();
    if (!links.bandwidths.empty()) spec.context.options.emplace_back("link-bw", links.bandwidths);
    Job job(std::move(spec), printed_notes());
    const auto* topology = &job.machine();
    const auto& comm = job.traffic();
    const auto* routing = job.routing();
    links.check(*topology, routing);
    // The mapping must respect -b/--alloc and -o (one rank per PE unless
    // -o says otherwise), as a mapping tm-map writes does.
    const auto& constraints = job.constraints();
    const auto mapping = read_mapping(mapping_file, *topology, constraints);
    check_mapping_file(mapping, mapping_file, comm.num_ranks(), in.comm.path, *topology, &constraints);
    std::map<PE, std::int64_t> per_pe;
    std::map<PE, Volume> load_of;
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      ++per_pe[mapping[r]];
      load_of[mapping[r]] += comm.rank_weight(static_cast<Rank>(r));
    }
    std::int64_t most = 0;
    for (const auto& [pe, count] : per_pe) most = std::max(most, count);
    // The loads, where ranks carry weights or --imbalance was given: the
    // heaviest PE against the average over the allowed PEs (and the limit).
    const bool report_loads = !comm.rank_weights().empty() || constraints.imbalance() >= 0.0;
    Volume heaviest = 0;
    for (const auto& [pe, load] : load_of) heaviest = std::max(heaviest, load);
    const double average = static_cast<double>(comm.total_rank_weight()) /
                           static_cast<double>(std::max<std::size_t>(1, constraints.allowed_pes().size()));
    const double imbalance = average > 0.0 ? static_cast<double>(heaviest) / average - 1.0 : 0.0;
    const Volume limit = constraints.load_limit();

    const auto m = evaluate(comm, *topology, mapping);
    std::optional<RouteMetrics> routes;
    if (routing) routes = evaluate_routes(comm, *routing, mapping);
    if (format == "json") {
      nlohmann::ordered_json j;
      j["n"] = comm.num_ranks();
      j["pes"] = topology->size();
      j["topology"] = topology->description();
      j["hop_bytes"] = m.hop_bytes;
      j["avg_hops"] = m.avg_hops;
      j["max_com"] = m.max_com;
      j["total_bytes"] = m.total_bytes;
      j["max_ranks_per_pe"] = most;
      if (report_loads) {
        j["loads"] = {{"max_load", heaviest}, {"average", average}, {"imbalance", imbalance}};
        if (limit > 0) {
          j["loads"]["limit"] = limit;
          j["loads"]["within_limit"] = heaviest <= limit;
        }
      }
      if (routes) {
        j["th"] = routes->th;
        j["wh"] = routes->wh;
        j["mmc"] = routes->mmc;
        j["mc"] = routes->mc;
        j["amc"] = routes->amc;
        j["ac"] = routes->ac;
        j["used_links"] = routes->used_links;
      }
      auto histogram = nlohmann::ordered_json::array();
      for (const auto& [d, bytes] : m.bytes_by_distance) histogram.push_back({{"distance", d}, {"bytes", bytes}});
      j["bytes_by_distance"] = std::move(histogram);
      links.write_loads(routing, routes);
      emit(j.dump(2) + "\n", output);
      return kExitOk;
    }
    std::string text = fmt::format("hop_bytes {}\navg_hops {:.6f}\nmax_com {}\ntotal_bytes {}\nmax_ranks_per_pe {}\n",
                                   m.hop_bytes, m.avg_hops, m.max_com, m.total_bytes, most);
    if (report_loads) {
      text += fmt::format("max_load {}\naverage_load {:.6f}\nimbalance {:.6f}\n", heaviest, average, imbalance);
      if (limit > 0) text += fmt::format("load_limit {}\nwithin_limit {}\n", limit, heaviest <= limit ? "yes" : "no");
    }
    for (const auto& [d, bytes] : m.bytes_by_distance) text += fmt::format("bytes_at_distance {} {}\n", d, bytes);
    if (routes) text += route_metrics_text(*routes);
    links.write_loads(routing, routes);
    emit(text, output);
    return kExitOk;
  });
}
