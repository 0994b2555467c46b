// tm-map: maps the ranks of a job onto a machine (contract section 4).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "cli.hpp"
#include "progress.hpp"
#include "run.hpp"
#include "simulation.hpp"
#include "tmap/generators.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"

namespace {

using namespace tmap;
using namespace tmap::cli;

/// Why the ranks do not fit, and what would make them: the -o K that fits
/// them, the scheduler's shortfall, or a matrix numbered from 1 (rank 0
/// silent, one rank too many).
/// Why the ranks do not fit, and what to do: where a network's nodes are
/// one PE each because --node was left out, describe the node; otherwise
/// more nodes first (a production job wants a CPU per rank), sharing CPUs
/// (-o) last.
std::string not_fitting(const CommMatrix& comm, const Constraints& c, const std::string& shortfall,
                        const Topology& topology, bool node_given) {
  const auto n = comm.num_ranks();
  const auto pes = static_cast<std::int64_t>(c.allowed_pes().size());
  auto text = fmt::format("{} ranks do not fit: {} allowed PEs x {} rank(s) each = {} slots", n, pes, c.capacity(),
                          c.num_slots());
  if (!shortfall.empty()) text += ": " + shortfall;
  bool rank0_silent = comm.targets(0).empty();
  for (Rank i = 1; i < n && rank0_silent; ++i) {
    const auto t = comm.targets(i);
    rank0_silent = t.empty() || t.front() != 0;
  }
  const auto kind = topology.kind();
  const bool network = kind == "fattree" || kind == "dragonfly" || kind == "torus" || kind == "slurm-tree";
  if (rank0_silent && n - 1 <= c.num_slots()) {
    text += "; rank 0 sends and receives nothing: is the matrix numbered from 1? (tmap numbers ranks from 0)";
  } else if (network && !node_given && topology.size() == topology.num_nodes()) {
    text += fmt::format(
        "; without --node each of the {} nodes is one PE: say what a node holds, e.g. --node 'package:2 core:12' "
        "(hwloc's synthetic description), --node node.xml (lstopo --of xml) or --node this",
        topology.num_nodes());
  } else if (pes > 0) {
    const auto per_node = topology.size() / std::max<NodeId>(1, topology.num_nodes());
    text += fmt::format(
        "; give the job more PEs ({} ranks need {} PEs: a larger allocation, or more nodes of {} PE(s)), or, to share "
        "CPUs between ranks, -o {}",
        n, n, per_node, (n + pes - 1) / pes);
  }
  return text;
}

/// The help of a Context option, from its row (one text for tm-map and the C API).
std::string option_help(std::string_view key) {
  for (const auto* option : context_options()) {
    if (option->key == key) return std::string(option->help);
  }
  return {};
}

std::string preset_help() {
  std::string text = "Start from a preset (flags and --config go on top):";
  for (const auto name : preset_names()) text += fmt::format("\n  {:<8} {}", name, preset_summary(name));
  return text;
}

std::string strategy_help() {
  std::string text = "Mapping strategy (default " + std::string(default_strategy()) + "):";
  for (const auto& s : strategy_table()) text += fmt::format("\n  {:<12} {}", s.name, s.summary);
  return text;
}

/// The embedded example: an 8x8 5-point stencil (1000 bytes to each
/// neighbour) onto two Tianhe-3 chips of 8 nodes with 4 cores each.
constexpr const char* kExampleTopology = "tianhe3:1x2,nodes=8,cores=4";

void print_summary(const RunResult& r, const Constraints& constraints, const CommMatrix& comm) {
  const Rank n = comm.num_ranks();
  const auto& m = r.report.metrics;
  fmt::print(stderr, "tm-map: {} ranks on {} ({} allowed PEs x {}), strategy {}\n", n, r.report.topology,
             constraints.allowed_pes().size(), constraints.capacity(), r.report.strategy);
  fmt::print(stderr, "tm-map: hop_bytes {}  avg_hops {:.4f}  max_com {}  total_bytes {}  time {:.4f} s\n", m.hop_bytes,
             m.avg_hops, m.max_com, m.total_bytes, r.report.time_s);
  if (r.report.routes) {
    const auto& x = *r.report.routes;
    fmt::print(stderr, "tm-map: links: TH {}  WH {}  MMC {}  MC {:.6g}  AMC {:.6g}  AC {:.6g}  ({} links used)\n", x.th,
               x.wh, x.mmc, x.mc, x.amc, x.ac, x.used_links);
  }
  if (r.report.predicted_time_s) {
    const auto phases = comm.phases().size();
    fmt::print(stderr, "tm-map: predicted time {:.6g} s ({})\n", *r.report.predicted_time_s,
               phases == 0   ? std::string("one round of the matrix, the flow model's bound")
               : phases == 1 ? std::string("its one phase, rank by rank")
                             : fmt::format("its {} phases in order, rank by rank", phases));
  }
  if (r.report.objective_refine) {
    const auto& o = *r.report.objective_refine;
    fmt::print(stderr, "tm-map: objective {}: {} -> {} in {:.4f} s ({} swaps)\n", objective_name(r.report.objective),
               describe_score(r.report.objective, o.before), describe_score(r.report.objective, o.after), o.seconds,
               o.swaps);
  }
  if (r.report.sim_time_s) {
    fmt::print(stderr, "tm-map: simulated communication time {:.6g} s (SimGrid, all messages at once)\n",
               *r.report.sim_time_s);
  }
  if (r.report.refine) {
    fmt::print(stderr, "tm-map: refined by {}: hop_bytes {} -> {} in {:.4f} s ({} swaps)\n", r.report.refine->method,
               r.report.refine->before, r.report.refine->after, r.report.refine->seconds, r.report.refine->swaps);
  }
  std::string histogram;
  for (const auto& [d, bytes] : m.bytes_by_distance) histogram += fmt::format(" {}:{}", d, bytes);
  fmt::print(stderr, "tm-map: bytes by distance (distance:bytes):{}\n", histogram);
}

/// Ranks on two hyper-threads of one core get the same core in a rankfile
/// (Open MPI binds both to the whole core): say so, and how to bind each to
/// its own hardware thread.
void note_shared_cores(const RunResult& r, const Topology& topology) {
  std::map<std::pair<NodeId, std::int64_t>, std::pair<Rank, PE>> first;
  for (std::size_t rank = 0; rank < r.mapping.size(); ++rank) {
    const PE pe = r.mapping[rank];
    const auto key = std::make_pair(topology.node_of(pe), slot_in_node(topology, pe));
    const auto [it, fresh] = first.emplace(key, std::make_pair(static_cast<Rank>(rank), pe));
    if (!fresh && it->second.second != pe) {
      fmt::print(stderr,
                 "tm-map: note: ranks {} and {} run on two hardware threads of core {}: the rankfile binds both to "
                 "the core; --rankfile-slots pu with mpirun --use-hwthread-cpus binds each to its own thread\n",
                 it->second.first, rank, key.second);
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tm-map: topology-aware process mapping. Places the ranks of a parallel job on the PEs of a "
      "machine so that ranks that talk a lot sit close together (objective: hop-bytes).",
      "tm-map"};
  app.set_version_flag("--version", std::string("tm-map ") + tmap::version());
  InputOptions in;
  in.add_to(app);
  RoutingOptions links;
  links.add_to(app);
  SimulationOptions simulation;
  simulation.add_to(app);
  std::string strategy(default_strategy());
  std::string format = "perm";
  std::string output;
  std::string compare;
  std::uint64_t seed = 0;
  int threads = 1;
  int verbose = 0;
  int quiet = 0;
  bool example = false;
  auto* strategy_option = app.add_option("-s,--strategy", strategy, strategy_help());
  app.add_option("--format", format,
                 "Output: perm (one PE per line), json, topomatch, scotch (.map), rankfile (Open MPI), hostfile "
                 "(one host per line, for SLURM_HOSTFILE), machinefile (MPICH host:count runs; Hydra starts a proxy "
                 "per line), hydra (a Hydra -configfile: one proxy per host; needs --program)")
      ->check(CLI::IsMember(mapping_format_names()));
  std::string program;
  app.add_option("--program", program, "--format hydra: the program and its arguments, e.g. './app -x 4'");
  app.add_option("--output", output, "Write the output to this file (whole or not at all) instead of stdout")
      ->check(file_name());
  std::string rankfile_slots = "core";
  app.add_option("--rankfile-slots", rankfile_slots,
                 "What a rankfile's slot= names: core (logical core, Open MPI's default) or pu (hardware thread, "
                 "for mpirun --use-hwthread-cpus)")
      ->check(CLI::IsMember({"core", "pu"}));
  app.add_option("--compare", compare,
                 "Run these strategies (a,b,c or all; NAME:REFINE, e.g. scotch:tabu, picks a refinement for one) "
                 "and print a comparison table");
  std::string initial;
  auto* initial_option =
      app.add_option("--initial", initial,
                     "Start from this mapping (perm, json, TopoMatch or Scotch .map, e.g. another mapper's) instead of "
                     "a strategy's, and improve it: --refine (default multilevel here), then the objective's "
                     "refinement; never worse than the file's");
  std::vector<std::string> compare_files;
  app.add_option("--compare-file", compare_files,
                 "Add an external mapping to --compare as NAME=FILE (perm, json, TopoMatch or Scotch .map, e.g. "
                 "from scotch_gmap), scored by the same evaluator; repeatable");
  app.add_option("--seed", seed, "Seed of every random choice (default 0)")->transform(unsigned_number());
  std::string preset_name = "default";
  app.add_option("-P,--preset", preset_name, preset_help())->check(CLI::IsMember(preset_names()));
  std::string config_file;
  app.add_option("--config", config_file,
                 "Read the configuration (strategy and every option) from this file: --dump-config's output or a "
                 "tm-map JSON result (its \"config\"); flags given beside it win");
  bool dump_config = false;
  app.add_flag("--dump-config", dump_config,
               "Write the configuration this command line gives (JSON, every option) to stdout or --output and "
               "exit without mapping; --config reads it back");
  app.add_option("-p,--threads", threads, "Threads (results do not depend on it; at most the machine's are used)")
      ->transform(whole_number(1, kMaxThreads));
  // Each strategy's options, registered from its row of the table.
  std::deque<std::pair<const StrategyOption*, std::optional<std::string>>> strategy_options;
  for (const auto& row : strategy_table()) {
    for (const auto& option : row.options) {
      auto& slot = strategy_options.emplace_back(&option, std::nullopt);
      app.add_option("--" + std::string(option.key), slot.second, std::string(option.help))->type_name("VALUE");
    }
  }
  std::string refine = "none";
  app.add_option(
         "--refine", refine,
         "Polish the strategy's mapping: none, swap (exact-gain swaps and moves to a local optimum), "
         "tabu (robust tabu search; --refine-iters) or multilevel (V-cycles moving blocks of ranks at every "
         "level of the machine, then swap; up to 256 slots a tabu search of --refine-iters moves before the swap)")
      ->check(CLI::IsMember(refine_kind_names()));
  std::string objective = "auto";
  auto objectives = objective_names();
  objectives.emplace_back("auto");
  app.add_option("--objective", objective,
                 "What to minimise: hop-bytes, congestion (the busiest link's bytes over its --link-bw "
                 "bandwidth) or time (one round's predicted time: the flow model's bound, busiest link or node memory "
                 "after its first message's latency); hop-bytes breaks ties. The latter two need a machine with "
                 "routes; auto and best choose by it and a refinement for it follows the strategy. auto (default): "
                 "hop-bytes, but the auto strategy chooses its candidate by predicted time where the machine has "
                 "routes (never above in-order's hop-bytes)")
      ->check(CLI::IsMember(objectives));
  std::int64_t refine_iters = -1;
  app.add_option("--refine-iters", refine_iters, option_help("refine-iters"))->transform(whole_number(0, 1000000000));
  double time_limit = 0.0;
  app.add_option("--time-limit", time_limit,
                 "Stop the tabu search after this many seconds (results then depend on the machine's speed)")
      ->check(real_number(0.0, 1e9));
  app.add_flag("-v,--verbose", verbose, "More messages on stderr (repeatable; -q -v cancel out)");
  app.add_flag("-q,--quiet", quiet, "No summary or progress on stderr");
  initial_option->excludes(strategy_option);
  app.add_flag("--example", example,
               std::string("Map the embedded example (8x8 stencil on ") + kExampleTopology + ") instead of -t/-c");

  return run("tm-map", app, argc, argv, [&]() -> int {
    // -v and -q count against each other: -q -v is the normal level.
    const int level = std::max(0, 1 + verbose - quiet);
    const bool silent = level == 0;
    // Ctrl-C stops at the next step with the best so far (exit 3), from here
    // on: an interruption while reading exits 130 with a message.
    stop_on_interrupt();
    // The configuration: a preset, a file on top, then the flags given.
    Context context = preset(preset_name);
    if (!config_file.empty()) context = load_config(read_text(config_file), config_file, context);
    const auto given = [&app](const char* flag) { return app.count(flag) > 0; };
    if (given("--strategy")) context.strategy = std::string(find_strategy(strategy).name);
    if (given("--seed")) context.seed = seed;
    if (given("--threads")) context.threads = threads;
    if (given("--link-bw")) context.link_bandwidths = links.bandwidths;
    if (given("--refine")) context.refine.kind = refine_kind_from_name(refine);
    if (given("--initial")) refine_given_mapping_by_default(context, given("--refine"));
    if (given("--objective")) set_option(context, "objective", objective);
    if (given("--refine-iters")) context.refine.iterations = refine_iters;
    if (given("--time-limit")) context.refine.time_limit_s = time_limit;
    for (const auto& [option, value] : strategy_options) {
      if (!value) continue;
      try {
        option->apply(context, *value);
      } catch (const ParameterError& e) {  // "KEY: ..." is our --KEY
        throw ParameterError("--" + std::string(e.what()));
      }
    }
    links.bandwidths = context.link_bandwidths;  // the metrics see what the strategies see
    if (!given("--link-bw") && !config_file.empty()) links.bandwidths_origin = config_file + ": link-bw";
    if (dump_config) {
      check_outputs({output});
      emit(save_config(context), output);
      return kExitOk;
    }
    auto inputs = in.files();
    if (!config_file.empty()) inputs.push_back(config_file);
    if (!context.grid2d.bandwidths_origin.empty()) inputs.push_back(context.grid2d.bandwidths_origin);
    for (const auto& spec : compare_files) inputs.push_back(spec.substr(spec.find('=') + 1));
    if (!initial.empty()) inputs.push_back(initial);
    protect_inputs(inputs);
    check_outputs({output, links.loads_file});
    std::unique_ptr<Topology> topology;
    CommMatrix comm;
    if (example) {
      if (in.has_topology() || !in.comm.path.empty())
        throw InputError("--example cannot be combined with -t, -x or -c");
      topology = load_topology(kExampleTopology);
      comm = gen::stencil({8, 8}, 5, 1000);
    } else {
      if (!in.has_topology() || in.comm.path.empty()) {
        throw InputError("both -t TOPOLOGY and -c COMM are needed (or --example); see tm-map --help");
      }
      topology = in.load_topology();
      comm = in.load_comm();
    }
    const auto allocation = in.load_allocation(*topology);
    const auto constraints = in.load_constraints(*topology, allocation);
    const Problem problem{comm, *topology, constraints};
    const auto routing = links.load(*topology);
    if (interrupted()) {
      fmt::print(stderr, "tm-map: interrupted before mapping: nothing written\n");
      return kExitInterrupted;
    }
    // Progress on stderr; Ctrl-C stops at the next step with the best so far.
    ProgressPrinter printer(level, isatty(STDERR_FILENO) != 0);
    Run job(context);  // the configuration and this run's hooks
    auto& hooks = job.hooks;
    hooks.verbosity = level;
    hooks.progress = [&printer](const Progress& event) { return printer(event); };
    hooks.control = std::make_shared<RunControl>();
    hooks.log = [&printer](std::string_view message) {
      printer.finish();
      fmt::print(stderr, "tm-map: {}\n", message);
    };
    const auto out_format = mapping_format_from_name(format);
    if (out_format == MappingFormat::Hydra && program.empty()) {
      throw ParameterError(
          "--format hydra writes a Hydra -configfile and needs the program: give --program 'CMD ARGS'");
    }
    if (comm.num_ranks() > constraints.num_slots()) {
      throw InputError(not_fitting(comm, constraints, in.rank_slots(*topology, allocation).shortfall, *topology,
                                   !in.node_args.empty()));
    }
    check_problem(problem);

    if (!given("--compare") && !compare_files.empty()) throw InputError("--compare-file needs --compare");
    if (given("--compare") && given("--initial")) {
      throw InputError("--initial improves one mapping; to score a file beside the strategies use --compare-file");
    }
    if (given("--compare")) {
      if (out_format != MappingFormat::Perm && out_format != MappingFormat::Json) {  // perm = the default
        throw InputError("--compare prints a table (default) or JSON (--format json)");
      }
      if (!links.loads_file.empty()) throw InputError("--link-loads writes one mapping's loads; not with --compare");
      // External mappings first: a bad file fails before any strategy runs.
      std::vector<RunResult> external;
      external.reserve(compare_files.size());
      for (const auto& spec : compare_files) {
        external.push_back(external_result(spec, problem, routing.get(), context.link_bandwidths));
      }
      const auto names = comparison_strategies(compare);
      auto comparison = tmap::compare(
          problem, job, names, std::move(external), routing.get(), [&](std::size_t k, const RunResult& row) {
            printer.finish();
            // Progress only on runs long enough to want it (as the progress
            // printer: nothing under 2 s at the normal level).
            const double so_far =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - job.hooks.control->start).count();
            if (level >= 2 || (!silent && so_far >= 2.0)) {
              fmt::print(stderr, "tm-map: [{}/{}] {} done in {:.3f} s{}\n", k + 1, names.size(), names[k],
                         row.report.time_s, row.report.partial ? " (stopped: partial)" : "");
            }
          });
      if (comparison.stopped) {
        fmt::print(stderr, "tm-map: stopped (Ctrl-C): the table holds the strategies run so far\n");
      }
      std::vector<RunResult*> simulated;
      simulated.reserve(comparison.results.size());
      for (auto& r : comparison.results) simulated.push_back(&r);
      simulation.run(problem, simulated);
      emit(out_format == MappingFormat::Json ? comparison_json(comparison) : comparison_text(comparison), output);
      const auto& results = comparison.results;
      bool partial = false;
      for (const auto& r : results) partial = partial || r.report.partial;
      return partial || interrupted() ? kExitPartial : kExitOk;
    }

    auto result = initial.empty() ? run_and_report(job.strategy, problem, job, routing.get())
                                  : initial_result(initial, problem, job, routing.get());
    printer.finish();
    if (result.report.partial) {
      fmt::print(stderr,
                 "tm-map: stopped (Ctrl-C) after {:.1f} s: writing the best mapping found so far (partial, exit code "
                 "3)\n",
                 result.report.time_s);
    }
    result.report.host_of = in.host_names(*topology, allocation);
    if (program.find_first_of("\r\n") != std::string::npos) throw InputError("--program: one line, please");
    result.report.program = program;
    if (const auto slots = in.rank_slots(*topology, allocation); !slots.cpus_of.empty()) {
      // The CPUs the scheduler gave, a group per rank; in srun's order on
      // each node where that costs nothing (so a hostfile launch binds
      // every rank where the rankfile says).
      keep_slurm_order(result.mapping, *topology, slots);
      result.report.slot_of = [slots](PE pe) { return slots.slot_text(pe); };
    } else if (rankfile_slots == "pu") {
      result.report.slot_of = [&topology](PE pe) { return std::to_string(pu_in_node(*topology, pe)); };
    } else {
      result.report.slot_of = [&topology](PE pe) { return std::to_string(slot_in_node(*topology, pe)); };
      if (out_format == MappingFormat::Rankfile && !silent) note_shared_cores(result, *topology);
    }
    if (scotch_terminals_are_nodes(*topology)) {
      result.report.scotch_terminal_of = [&topology](PE pe) { return node_label(*topology, topology->node_of(pe)); };
    }
    const bool launcher = out_format == MappingFormat::Rankfile || out_format == MappingFormat::Hostfile ||
                          out_format == MappingFormat::Machinefile || out_format == MappingFormat::Hydra;
    if ((launcher || allocation) && !silent) in.note_node_choice(*topology);
    if (launcher && constraints.capacity() > 1 &&
        comm.num_ranks() > static_cast<Rank>(constraints.allowed_pes().size())) {
      // MPI ranks busy-poll while they wait: K of them on one CPU take turns
      // at the scheduler's pace (LAMMPS, 12 ranks 6 a core: 125.9 s for 0.79 s).
      note(
          fmt::format("-o {} puts up to {} ranks on one CPU: MPI ranks spin while they wait, so ranks sharing a CPU "
                      "slow each other down many times over; launch with --mca mpi_yield_when_idle 1 (Open MPI) or "
                      "give each rank a CPU of its own",
                      constraints.capacity(), constraints.capacity()));
    }
    if (!silent) {
      if (const auto moved = launcher_order_note(out_format, result.mapping, comm, *topology, constraints);
          !moved.empty()) {
        note(moved);
      }
    }
    simulation.run(problem, {&result});
    // The link loads first: if either write fails, standard output stays empty.
    const auto text = format_mapping(out_format, result.mapping, result.report);
    links.write_loads(routing.get(), result.report.routes);
    emit(text, output);
    if (!silent) print_summary(result, constraints, comm);
    return result.report.partial ? kExitPartial : kExitOk;
  });
}
