// tm-sim: how long a job runs with a mapping, simulated with SimGrid's SMPI.
// A proxy application (the communication skeleton of a code: its partners,
// message sizes and dependencies) runs under smpirun on the machine as tmap
// routes it, each rank on the PE the mapping gives; the simulated
// application time and communication time are reported beside hop-bytes
// and the busiest link (MC) when the traffic matrix is given, with the
// link model's assumptions printed.
//   tm-sim -t 'mesh2D 4 4' -m job.perm --app 'pingpong --bytes 1000000'
//   tm-sim -t 'torus3D 8 8 16' -c lu.coo -s inorder,ohtma,best --app 'wavefront --px 32'
//   tm-sim -t cluster.conf --node 'package:2 core:8' -c run/app -s inorder,auto --app replay
#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"
#include "interrupt.hpp"
#include "replay.hpp"
#include "sim/platform_spec.hpp"
#include "smpi_run.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"

namespace {

using namespace tmap;
using namespace tmap::cli;

struct Options {
  InputOptions in;
  std::string mapping_file;
  std::string strategies;
  std::string app;
  std::string bandwidths;
  double bandwidth_gbs = 12.5;
  double latency_us = 0.5;
  double node_bandwidth_gbs = 50.0;
  double node_latency_us = 0.2;
  double timeout_s = 1800;
  std::string keep;
  std::string format = "text";
  std::string output;
  std::uint64_t seed = 0;
  bool verbose = false;
};

struct Row {
  std::string mapping;  ///< the strategy, or the mapping file
  ProxyReport report;
  std::optional<std::int64_t> hop_bytes;
  std::optional<double> mc;
};

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string assumptions(const sim::SimOptions& o, bool gpus) {
  std::string kinds;
  for (const auto& [kind, value] : o.bandwidth_of_kind) kinds += fmt::format(", {} links {:g} GB/s", kind, value / 1e9);
  return fmt::format(
      "SMPI CM02 model (an idle route: its latency + bytes / bandwidth; links shared max-min), latency {:g} us per "
      "hop, links {:g} GB/s{}, ranks of one node through memory at {:g} GB/s and {:g} us{}; computation not "
      "simulated",
      o.latency * 1e6, o.bandwidth / 1e9, kinds, o.node_bandwidth / 1e9, o.node_latency * 1e6,
      gpus ? " (ranks on GPUs of one node: over the node's GPU links and PCIe)" : "");
}

/// The strategies of -s, in order; ParameterError when it names none.
std::vector<std::string> strategy_list(const std::string& list) {
  std::vector<std::string> names;
  std::string_view rest = list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    auto name = std::string(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (!name.empty()) names.push_back(std::move(name));
  }
  if (names.empty()) throw ParameterError("-s '" + list + "': no strategy named (e.g. -s inorder,auto)");
  return names;
}

/// The machine, and its file's content when it came from a file (-x, or -t
/// naming a file, a pipe included): read once here and copied into each
/// run's folder, where the platform module reads it.
struct Machine {
  /// The machine read from the text (a file without --node), else null:
  /// the job reads it as tm-map does.
  std::shared_ptr<const Topology> built;
  std::string text;
  std::string copy_name;
};

Machine machine_file(const InputOptions& in) {
  namespace fs = std::filesystem;
  Machine m;
  std::error_code ec;
  const bool from_file = !in.hwloc_xml.empty() || (!in.topology.starts_with("tianhe3:") &&
                                                   fs::exists(in.topology, ec) && !fs::is_directory(in.topology, ec));
  if (!from_file) return m;
  const auto& path = in.hwloc_xml.empty() ? in.topology : in.hwloc_xml;
  m.text = read_text(path);
  // A Slurm topology.conf with --node: the machine as tm-map reads it, the
  // file's text for the platform module (which gets --node too).
  if (in.node_args.empty()) m.built = parse_topology_file(m.text, path, !in.hwloc_xml.empty());
  // The copy is named for what it was read as (parse_topology_file's rules:
  // the content decides; a number first is a .dist).
  const auto first = m.text.find_first_not_of(" \t\r\n");
  const char lead = first == std::string::npos ? ' ' : m.text[first];
  m.copy_name = !in.hwloc_xml.empty() || lead == '<'             ? "machine.xml"
                : std::isdigit(static_cast<unsigned char>(lead)) ? "machine.dist"
                                                                 : "machine.tgt";
  return m;
}

/// --app's words, with the proxy's --matrix FILE taken out: tm-sim writes
/// that file itself, by the output rules (whole or not at all, never over
/// an input, a folder that exists), from what the proxy wrote in its run's
/// folder.
std::vector<std::string> app_words_of(const std::string& app, std::string& matrix_output) {
  auto words = words_of(app);
  for (std::size_t k = 1; k < words.size(); ++k) {
    if (words[k] != "--matrix") continue;
    if (k + 1 >= words.size()) throw ParameterError("--app: --matrix needs a file name");
    if (!matrix_output.empty()) throw ParameterError("--app: --matrix is given twice");
    matrix_output = words[k + 1];
    words.erase(words.begin() + static_cast<std::ptrdiff_t>(k), words.begin() + static_cast<std::ptrdiff_t>(k) + 2);
    --k;
  }
  return words;
}

/// The replay proxy's traffic: -c's bytes and, from Open MPI monitoring
/// output, the message counts recorded beside them.
std::string replay_file(const CommInput& input, const CommMatrix& bytes) {
  if (!input.is_monitoring()) return replay_traffic(bytes, nullptr);
  auto counting = input;
  counting.monitoring_count = "messages";
  const auto messages = counting.load();
  return replay_traffic(bytes, &messages);
}

/// A note when the proxy sent other traffic than -c holds (the mappings
/// were made for -c's): both totals, per iteration of the proxy.
std::optional<std::string> traffic_mismatch(const CommMatrix& comm, const std::vector<std::string>& app_words,
                                            std::int64_t sent) {
  std::int64_t iterations = 1;
  for (std::size_t k = 1; k + 1 < app_words.size(); ++k) {
    if (app_words[k] == "--iterations") iterations = std::max<std::int64_t>(1, std::atoll(app_words[k + 1].c_str()));
  }
  Volume held = 0;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto targets = comm.targets(i);
    const auto volumes = comm.volumes(i);
    for (std::size_t k = 0; k < targets.size(); ++k) held += targets[k] == i ? 0 : volumes[k];
  }
  const auto per_iteration = sent / iterations;
  if (per_iteration == held && sent % iterations == 0) return std::nullopt;
  return fmt::format(
      "the proxy {} sent {} bytes per iteration, -c's matrix holds {}: the mappings were made for other traffic than "
      "the simulated one (--app 'replay' runs -c's own traffic; --app '{} --matrix FILE' writes the proxy's)",
      app_words.front(), per_iteration, held, app_words.front());
}

int run_tool(const Options& o) {
  auto inputs = o.in.files();
  if (!o.mapping_file.empty()) inputs.push_back(o.mapping_file);
  protect_inputs(inputs);
  std::string matrix_output;
  const auto app_words = app_words_of(o.app, matrix_output);
  check_outputs({o.output, matrix_output});
  if (!o.in.has_topology()) throw InputError("-t TOPOLOGY is needed");
  if (o.mapping_file.empty() && o.in.comm.path.empty()) {
    throw InputError("give the mapping (-m FILE) or the traffic to map (-c MATRIX with -s STRATEGY)");
  }
  if (!o.strategies.empty() && o.in.comm.path.empty()) throw InputError("-s needs the traffic to map (-c MATRIX)");
  if (app_words.empty()) throw ParameterError("--app: expected a proxy name and its arguments");
  const auto& names = proxy_names();
  if (std::find(names.begin(), names.end(), app_words.front()) == names.end()) {
    throw ParameterError(
        fmt::format("--app: '{}' is not a proxy application (known: {})", app_words.front(), fmt::join(names, ", ")));
  }

  const bool replay = app_words.front() == "replay";
  if (replay && o.in.comm.path.empty()) {
    throw InputError("--app replay runs the traffic of -c: give -c (a matrix, or Open MPI monitoring output)");
  }
  const auto strategies = o.strategies.empty() ? std::vector<std::string>{} : strategy_list(o.strategies);
  const auto machine = machine_file(o.in);
  auto spec = o.in.job_spec();
  spec.machine.built = machine.built;
  spec.context.options.emplace_back("seed", std::to_string(o.seed));
  Job job(std::move(spec), printed_notes());
  const auto* topology = &job.machine();
  const auto routing = topology->routing_model();
  if (!routing) {
    throw UnsupportedError(topology->kind() +
                           " targets give distances only, no links to simulate on (use a Tianhe-3 spec, a mesh, "
                           "torus, hypercube or tree target)");
  }
  sim::PlatformSpec platform;
  platform.topology = o.in.topology;
  {
    // The platform module reads the node where smpirun runs: a file by its absolute path.
    std::error_code ec;
    const auto absolute = [&ec](const std::string& node) {
      return std::filesystem::exists(node, ec) ? std::filesystem::absolute(node).string() : node;
    };
    platform.node = absolute(o.in.default_node());
    // Nodes of other kinds. The module loads the network without
    // --host-names (a topology.conf names its hosts itself, a network's are
    // cn<index> there): --host-names' names are resolved here.
    std::map<std::string, NodeId> node_named;
    for (NodeId k = 0; k < topology->num_nodes(); ++k) node_named.emplace(host_name(*topology, k), k);
    for (const auto& [list, node] : o.in.nodes_by_hosts()) {
      std::string hosts = list;
      if (!o.in.host_name_list.empty()) {
        hosts.clear();
        for (const auto& host : expand_hostlist(list, "--node '" + list + "=" + node + "'")) {
          hosts += (hosts.empty() ? "cn" : ",cn") + std::to_string(node_named.at(host));
        }
      }
      platform.node_by_hosts.emplace_back(hosts, absolute(node));
    }
  }
  platform.pe = o.in.pe;
  platform.options.bandwidth = o.bandwidth_gbs * 1e9;
  platform.options.latency = o.latency_us * 1e-6;
  platform.options.node_bandwidth = o.node_bandwidth_gbs * 1e9;
  platform.options.node_latency = o.node_latency_us * 1e-6;
  if (!o.bandwidths.empty()) sim::parse_bandwidths(o.bandwidths, *routing, platform.options);

  const auto& constraints = job.constraints();
  std::optional<CommMatrix> comm;
  if (!o.in.comm.path.empty()) comm = job.traffic();
  std::vector<std::pair<std::string, Mapping>> mappings;
  if (!o.mapping_file.empty()) {
    auto mapping = read_mapping(o.mapping_file, *topology, constraints);
    check_mapping_file(mapping, o.mapping_file, comm ? comm->num_ranks() : static_cast<Rank>(mapping.size()),
                       o.in.comm.path, *topology, &constraints);
    mappings.emplace_back(o.mapping_file, std::move(mapping));
  }
  if (comm) {
    const auto list = strategies.empty() && o.mapping_file.empty() ? std::vector<std::string>{"auto"} : strategies;
    for (const auto& name : list) {
      check_interrupted();
      mappings.emplace_back(name, job.run({}, name).mapping);
    }
  }

  ProxyRun run;
  run.program = proxy_path(app_words.front());
  run.args.assign(app_words.begin() + 1, app_words.end());
  run.platform_module = platform_module_path();
  run.timeout_s = o.timeout_s;
  run.keep = o.keep;
  run.machine_text = machine.text;
  run.machine_name = machine.copy_name;
  run.want_matrix = !matrix_output.empty();
  if (replay) run.files.emplace_back("replay.txt", replay_file(o.in.comm, *comm));
  std::vector<Row> rows;
  for (const auto& [name, mapping] : mappings) {
    Row row;
    row.mapping = name;
    platform.pes.assign(mapping.begin(), mapping.end());
    std::sort(platform.pes.begin(), platform.pes.end());
    platform.pes.erase(std::unique(platform.pes.begin(), platform.pes.end()), platform.pes.end());
    if (o.verbose) {
      run.on_progress = [label = name](double simulated_s, double wall_s) {  // (clang: no binding captures)
        fmt::print(stderr, "tm-sim: {}: {:.6g} s of the application simulated after {:.0f} s\n", label, simulated_s,
                   wall_s);
      };
    }
    row.report = run_proxy(run, platform, mapping);
    run.want_matrix = false;  // the traffic is the proxy's, the same on every mapping
    if (comm) {
      row.hop_bytes = evaluate(*comm, *topology, mapping).hop_bytes;
      row.mc = evaluate_routes(*comm, *routing, mapping).mc;
    }
    rows.push_back(std::move(row));
  }

  check_interrupted();
  std::vector<std::string> notes;
  if (comm && !replay && !rows.front().report.stopped) {
    if (auto note = traffic_mismatch(*comm, app_words, rows.front().report.bytes)) notes.push_back(std::move(*note));
  }
  // A run the time limit stopped keeps how far it got, a lower bound of its
  // time: the result is partial (exit 3), as tm-map's after a signal.
  bool partial = false;
  for (const auto& r : rows) {
    if (!r.report.stopped) continue;
    partial = true;
    notes.push_back(
        fmt::format("{}: stopped at the time limit (--timeout {:g} s): the application time is at least "
                    "{:.6e} s (rank 0's clock when stopped), its comm_time_s, "
                    "messages and bytes unknown",
                    r.mapping, o.timeout_s, r.report.time_s));
  }
  const int exit_code = partial ? kExitPartial : kExitOk;
  if (!matrix_output.empty()) {
    if (rows.front().report.stopped) {  // half a job's traffic is not its traffic: nothing written
      notes.push_back(fmt::format("--matrix {}: not written: the run it comes from was stopped", matrix_output));
    } else {
      emit(rows.front().report.matrix, matrix_output);
    }
  }
  const auto ranks = mappings.front().second.size();
  // Against the first row; no ratio when the first run took no time (one
  // rank, or no message): 0/0 says nothing.
  const auto vs_first = [&](const Row& r) -> std::optional<double> {
    const auto& first = rows.front().report;
    if (first.time_s > 0 && !first.stopped) return r.report.time_s / first.time_s;
    return std::nullopt;  // over a lower bound, a ratio bounds nothing
  };
  const auto unknown_if_stopped = [](const Row& r, auto value) {
    return r.report.stopped ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(value);
  };
  if (o.format == "json") {
    nlohmann::ordered_json j;
    j["app"] = o.app;
    j["topology"] = topology->description();
    j["ranks"] = ranks;
    j["assumptions"] = assumptions(platform.options, device_slot(*topology, 0).has_value());
    j["latency_s_per_hop"] = platform.options.latency;
    j["bandwidth_bytes_per_s"] = platform.options.bandwidth;
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      nlohmann::ordered_json x;
      x["mapping"] = r.mapping;
      x["app_time_s"] = r.report.time_s;
      if (r.report.stopped) x["stopped"] = true;  // app_time_s is a lower bound
      x["comm_time_s"] = unknown_if_stopped(r, r.report.comm_s);
      x["messages"] = unknown_if_stopped(r, r.report.messages);
      x["bytes"] = unknown_if_stopped(r, r.report.bytes);
      x["time_vs_first"] = vs_first(r) ? nlohmann::ordered_json(*vs_first(r)) : nlohmann::ordered_json(nullptr);
      if (r.hop_bytes) x["hop_bytes"] = *r.hop_bytes;
      if (r.mc) x["mc"] = *r.mc;
      x["maxmin_precision"] = r.report.maxmin_precision;
      list.push_back(std::move(x));
    }
    j["runs"] = std::move(list);
    if (!notes.empty()) j["notes"] = notes;
    emit(j.dump(2) + "\n", o.output);
    return exit_code;
  }
  std::string text = fmt::format("# {} on {}, {} ranks\n# {}\n", o.app, topology->description(), ranks,
                                 assumptions(platform.options, device_slot(*topology, 0).has_value()));
  text += fmt::format("{:<16} {:>14} {:>10} {:>14} {:>10} {:>14} {:>16} {:>12}\n", "mapping", "app_time_s", "vs_first",
                      "comm_time_s", "messages", "bytes", "hop_bytes", "mc");
  for (const auto& r : rows) {
    const bool stopped = r.report.stopped;  // ">=": a lower bound; "-": unknown
    const auto ratio = vs_first(r);
    text +=
        fmt::format("{:<16} {:>14} {:>10} {:>14} {:>10} {:>14} {:>16} {:>12}\n", r.mapping,
                    fmt::format("{}{:.6e}", stopped ? ">=" : "", r.report.time_s),
                    ratio ? fmt::format("{}{:.4f}", stopped ? ">=" : "", *ratio) : "-",
                    stopped ? "-" : fmt::format("{:.6e}", r.report.comm_s),
                    stopped ? "-" : std::to_string(r.report.messages), stopped ? "-" : std::to_string(r.report.bytes),
                    r.hop_bytes ? std::to_string(*r.hop_bytes) : "-", r.mc ? fmt::format("{:.4g}", *r.mc) : "-");
  }
  for (const auto& r : rows) {
    if (r.report.maxmin_precision != kSimGridMaxminPrecision) {
      text += fmt::format(
          "# {}: SimGrid's solver gave up on rounding (or crashed) at its precision; run again at maxmin precision "
          "{:g} (links full within that fraction of their bandwidth)\n",
          r.mapping, r.report.maxmin_precision);
    }
  }
  for (const auto& note : notes) text += "# note: " + note + "\n";
  emit(text, o.output);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "tm-sim: the application time of mappings, simulated with SimGrid's SMPI: a proxy application runs under "
      "smpirun on the machine as tmap routes it, its ranks where each mapping puts them; reported beside "
      "hop-bytes and the busiest link (MC) when the traffic is given.",
      "tm-sim"};
  app.set_version_flag("--version", std::string("tm-sim ") + tmap::version());
  o.in.add_to(app);
  app.add_option("-m,--mapping", o.mapping_file, "A mapping to run (sigma[rank] = PE), as tm-eval reads it")
      ->check(file_name());
  app.add_option("-s,--strategy", o.strategies, "Strategies to map -c's traffic with, comma-separated (default auto)");
  app.add_option("--app", o.app, "The proxy application and its arguments, e.g. 'pingpong --bytes 1000000'")
      ->required();
  app.add_option("--sim-bw", o.bandwidths, "Bandwidth per link kind in GB/s, e.g. 'row=25,col=25'");
  app.add_option("--sim-link-bw", o.bandwidth_gbs, "Bandwidth of the other links, GB/s (default 12.5)")
      ->transform(real_number(1e-6, 1e6));
  app.add_option("--sim-latency", o.latency_us, "Latency per link hop, microseconds (default 0.5)")
      ->transform(real_number(0.0, 1e6));
  app.add_option("--sim-node-bw", o.node_bandwidth_gbs, "Bandwidth between two ranks of one node, GB/s (default 50)")
      ->transform(real_number(1e-6, 1e6));
  app.add_option("--sim-node-latency", o.node_latency_us,
                 "Latency between two ranks of one node, microseconds (default 0.2)")
      ->transform(real_number(0.0, 1e6));
  app.add_option("--timeout", o.timeout_s,
                 "Most seconds one simulation may take (default 1800); a run it stops reports how far its clock "
                 "got, a lower bound of its time (exit 3)")
      ->transform(real_number(1, 1e6));
  app.add_flag("-v,--verbose", o.verbose,
               "Say on stderr how far each simulation has got as it runs (after 1, 3, 7, ... s; then every minute)");
  app.add_option("--keep", o.keep,
                 "Keep the platform spec, host file and smpirun's output in this new or empty folder");
  app.add_option("--seed", o.seed, "Seed of the strategies");
  app.add_option("--format", o.format, "Output: text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--output", o.output, "Write the result to this file (whole or not at all)")->check(file_name());
  return run("tm-sim", app, argc, argv, [&] {
    stop_on_interrupt();  // checked between and during runs
    try {
      return run_tool(o);
    } catch (const Interrupted&) {
      fmt::print(stderr, "tm-sim: interrupted: smpirun stopped, nothing written\n");
      return kExitInterrupted;
    }
  });
}
