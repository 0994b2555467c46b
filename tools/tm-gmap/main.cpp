// tm-gmap: Scotch's `gmap` command line on tmap, so that a script calling
// scotch_gmap can call tm-gmap: positional [graph [target [mapping [log]]]]
// ("-" or nothing = standard streams), options as gmap spells them (-b0.05,
// -Cd, -cbq, -vmt, -se), a Scotch source graph and target in, a Scotch
// mapping file out. tmap's strategy is chosen with --strategy (default
// scotch, through libscotch).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include "cli.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "tmap/report.hpp"
#include "tmap/scotch_export.hpp"

namespace {

using namespace tmap;
using namespace tmap::cli;

/// A positional file, or standard input for "-" and a missing one.
std::string read_input(const std::string& path, const char* what) {
  if (path.empty() || path == "-") {
    if (isatty(STDIN_FILENO) != 0)
      throw InputError(std::string(what) + ": give a file, or pipe one into standard input");
    return read_file("/dev/stdin");
  }
  return read_file(path);
}

/// Keeps only the letters gmap knows for an option; InputError otherwise.
void check_letters(const char* option, const std::string& value, std::string_view known) {
  for (const char c : value) {
    if (known.find(c) == std::string_view::npos) {
      throw InputError(fmt::format("{}: '{}' is not one of {} (as scotch_gmap)", option, c, known));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tm-gmap: Scotch's gmap command on tmap. Usage as gmap: tm-gmap [graph.grf [target.tgt [output.map "
      "[output.log]]]] [options]; '-' or a missing name is a standard stream. Writes a Scotch mapping file "
      "(count, then 'vertex terminal' lines).",
      "tm-gmap"};
  app.set_version_flag("-V,--version", std::string("tm-gmap ") + tmap::version() + " (gmap's command line on tmap)");
  std::vector<std::string> files;
  std::optional<double> imbalance;
  std::string context_flags;
  std::string strategy_flags;
  std::string fixed;
  std::string scotch_strategy;
  std::optional<std::string> clustering;
  std::string remap;
  std::string unity;
  std::string verbose;
  std::string strategy = "scotch";
  std::uint64_t seed = 0;
  app.add_option("files", files, "[graph [target [mapping [log]]]]")->expected(0, 4);
  app.add_option("-b", imbalance, "Load imbalance tolerance (default 0.01, as gmap)")->transform(real_number(0.0, 1.0));
  app.add_option("-C", context_flags,
                 "Execution context: d deterministic, f fixed seed, r variable seed, u undeterministic");
  app.add_option("-c", strategy_flags,
                 "Default strategy: b balance, q quality, r recursive bipartitioning, s speed, t safety");
  app.add_option("-f", fixed, "Fixed vertices file (not supported)");
  app.add_option("-m", scotch_strategy, "Scotch mapping strategy string (libscotch's own parser; not with -b or -c)");
  app.add_option("-q", clustering, "Graph clustering (not supported)")->expected(0, 1);
  app.add_option("-r", remap, "Remapping: -ro<file>, -rr<val>, -rv<file> (not supported)");
  app.add_option("-s", unity, "Force unity weights on e (edges) or v (vertices)");
  app.add_option("-v", verbose, "Verbose: m mapping information, s strategy, t timing (to the log)");
  app.add_option("--strategy", strategy, "tmap's strategy (default scotch)");
  app.add_option("--seed", seed, "Seed of every random choice")->transform(unsigned_number());

  return run("tm-gmap", app, argc, argv, [&]() -> int {
    files.resize(4);
    const auto& graph_file = files[0];
    const auto& target_file = files[1];
    const auto& map_file = files[2] == "-" ? std::string() : files[2];
    const auto& log_file = files[3] == "-" ? std::string() : files[3];
    if (graph_file == "-" && target_file == "-") throw InputError("graph and target cannot both be standard input");
    check_letters("-C", context_flags, "dfru");
    check_letters("-c", strategy_flags, "bqrst");
    check_letters("-s", unity, "ev");
    check_letters("-v", verbose, "mst");
    if (!fixed.empty()) throw InputError("-f: fixed vertices are not supported by tm-gmap");
    if (clustering) throw InputError("-q: graph clustering is not supported by tm-gmap");
    if (!remap.empty()) throw InputError("-r" + remap.substr(0, 1) + ": remapping is not supported by tm-gmap");
    if (context_flags.find('r') != std::string::npos || context_flags.find('u') != std::string::npos) {
      throw InputError("-C" + context_flags + ": tmap is deterministic (use --seed for another random stream)");
    }
    check_outputs({map_file, log_file});
    protect_inputs({graph_file, target_file});
    const auto start = std::chrono::steady_clock::now();
    auto comm = parse_comm(read_input(graph_file, "graph"), CommFormat::ScotchGraph,
                           graph_file.empty() || graph_file == "-" ? "standard input" : graph_file);
    if (unity.find('e') != std::string::npos) {
      // Every edge of load 1 (each stored once, as the reader keeps graphs).
      std::vector<CommEntry> entries;
      for (Rank i = 0; i < comm.num_ranks(); ++i) {
        for (const Rank j : comm.targets(i)) entries.push_back({i, j, 1});
      }
      comm = CommMatrix::from_entries(comm.num_ranks(), std::move(entries));
    }
    const auto target_text = target_file.empty() || target_file == "-" ? read_input("", "target") : std::string();
    // gmap's strategy: -m as given; else -c's letters and -b's ratio (gmap
    // builds its default, flags 0 at 1 %, when neither is given).
    if (!scotch_strategy.empty() && (imbalance || !strategy_flags.empty())) {
      throw InputError("-m: options -b / -c and -m are exclusive (as scotch_gmap)");
    }
    // The job gmap's words describe: the target (every PE once) and the
    // configuration (the seed, gmap's strategy).
    JobSpec spec;
    spec.machine.topology = target_text.empty() ? target_file : target_text;
    auto& options = spec.context.options;
    options.emplace_back("seed", std::to_string(seed));
    options.emplace_back("scotch-imbalance", fmt::format("{}", imbalance.value_or(0.01)));
    if (!strategy_flags.empty()) options.emplace_back("scotch-flags", strategy_flags);
    if (!scotch_strategy.empty()) options.emplace_back("scotch-strategy", scotch_strategy);
    Job job_of_flags(std::move(spec));
    const auto* topology = &job_of_flags.machine();
    const auto& constraints = job_of_flags.constraints();
    const auto& context = job_of_flags.context();
    const auto read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto map_start = std::chrono::steady_clock::now();
    const Problem problem{comm, *topology, constraints};
    ScotchGmapLog gmap_log;
    gmap_log.want_view = verbose.find('m') != std::string::npos;
    // What makes the .map differ from gmap's (ranks moved off an overfull
    // PE, loads divided to fit) is said on stderr, as tm-map says it.
    Run job(context);
    job.hooks.verbosity = 1;
    job.hooks.log = [](std::string_view message) { note(std::string(message)); };
    const auto sigma =
        strategy == "scotch" ? map_scotch_gmap(problem, job, gmap_log) : map_with(strategy, problem, job);
    const auto map_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - map_start).count();
    MappingReport report;
    if (scotch_terminals_are_nodes(*topology)) {
      report.scotch_terminal_of = [topology](PE pe) { return node_label(*topology, topology->node_of(pe)); };
    }
    // The log as gmap writes it: S (strategy), T (timing), M (mapping).
    // Plain Scotch's lines come from libscotch itself; other strategies'
    // M lines are tmap's count of the same figures.
    std::string log;
    if (verbose.find('s') != std::string::npos) {
      log += gmap_log.strategy.empty() ? fmt::format("S\tStrat=tmap {}\n", strategy)
                                       : "S\tStrat=" + gmap_log.strategy + "\n";
    }
    if (verbose.find('t') != std::string::npos) {
      log += fmt::format("T\tMapping\t\t{:g}\nT\tI/O\t\t{:g}\nT\tTotal\t\t{:g}\n", map_seconds, read_seconds,
                         map_seconds + read_seconds);
    }
    if (verbose.find('m') != std::string::npos) {
      if (!gmap_log.mapping_view.empty()) {
        log += gmap_log.mapping_view;
        if (comm.num_ranks() < static_cast<Rank>(constraints.allowed_pes().size())) {
          note(fmt::format(
              "libscotch's M lines count a rank left on a domain of several PEs as close to its partners (here "
              "{} ranks on {} PEs: Scotch spreads them and stops splitting), so its CommExpan is below the mapping's "
              "true cost: tm-eval -m on this .map gives that",
              comm.num_ranks(), constraints.allowed_pes().size()));
        }
      } else {
        if (strategy == "scotch" && !gmap_log.strategy.empty()) {
          note(
              "libscotch's mapping view crashes on deco targets whose terminal labels have gaps (scotch_gmap -vm "
              "too): these M lines are tmap's");
        }
        const auto metrics = evaluate(comm, *topology, sigma);
        log += fmt::format("M\tProcessors {}/{}\nM\tCommExpan={:.6f}\t({})\n", comm.num_ranks(), topology->size(),
                           metrics.total_bytes > 0
                               ? static_cast<double>(metrics.hop_bytes) / static_cast<double>(metrics.total_bytes)
                               : 0.0,
                           metrics.hop_bytes);
      }
    }
    const auto text = format_mapping(MappingFormat::Scotch, sigma, report);
    // As gmap: the log goes to its own file, else to standard output.
    if (log_file == map_file) {
      emit(text + log, map_file);
    } else {
      if (!log_file.empty() || !log.empty()) emit(log, log_file);
      emit(text, map_file);
    }
    return kExitOk;
  });
}
