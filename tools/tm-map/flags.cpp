// tm-map's flags, and the job they describe.
#include "flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "tmap/generators.hpp"

namespace tmap::cli {

namespace {

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

}  // namespace

void MapFlags::add_to(CLI::App& app) {
  in.add_to(app);
  links.add_to(app);
  simulation.add_to(app);
  strategy = std::string(default_strategy());
  auto* strategy_option = app.add_option("-s,--strategy", strategy, strategy_help());
  app.add_option(
         "--format", format,
         "Output: perm (one PE per line), json, topomatch, scotch (.map), rankfile (Open MPI), hostfile "
         "(one host per line, for SLURM_HOSTFILE), machinefile (MPICH host:count runs; Hydra starts a proxy "
         "per line), hydra (a Hydra -configfile: one proxy per host; needs --program), rank-order (Cray MPICH's "
         "MPICH_RANK_ORDER)")
      ->check(CLI::IsMember(mapping_format_names()));
  app.add_option("--program", program, "--format hydra: the program and its arguments, e.g. './app -x 4'");
  app.add_option("--output", output, "Write the output to this file (whole or not at all) instead of stdout")
      ->check(file_name());
  app.add_option("--rankfile-slots", rankfile_slots,
                 "What a rankfile's slot= names: core (logical core, Open MPI's default) or pu (hardware thread, "
                 "for mpirun --use-hwthread-cpus)")
      ->check(CLI::IsMember({"core", "pu"}));
  app.add_option("--compare", compare,
                 "Run these strategies (a,b,c or all; NAME:REFINE, e.g. scotch:tabu, picks a refinement for one) "
                 "and print a comparison table");
  auto* initial_option =
      app.add_option("--initial", initial,
                     "Start from this mapping (perm, json, TopoMatch or Scotch .map, e.g. another mapper's) instead of "
                     "a strategy's, and improve it: --refine (default multilevel here), then the objective's "
                     "refinement; never worse than the file's");
  app.add_option("--compare-file", compare_files,
                 "Add an external mapping to --compare as NAME=FILE (perm, json, TopoMatch or Scotch .map, e.g. "
                 "from scotch_gmap), scored by the same evaluator; repeatable");
  app.add_option("--seed", seed, "Seed of every random choice (default 0)")->transform(unsigned_number());
  app.add_option("-P,--preset", preset_name, preset_help())->check(CLI::IsMember(preset_names()));
  app.add_option("--config", config_file,
                 "Read the configuration (strategy and every option) from this file: --dump-config's output or a "
                 "tm-map JSON result (its \"config\"); flags given beside it win");
  app.add_flag("--dump-config", dump_config,
               "Write the configuration this command line gives (JSON, every option) to stdout or --output and "
               "exit without mapping; --config reads it back");
  app.add_option("-p,--threads", threads,
                 "Threads (default: the machine's cores, as scotch_gmap; a --config file's own when one is given; "
                 "results do not depend on it)")
      ->transform(whole_number(1, kMaxThreads));
  for (const auto& row : strategy_table()) {
    for (const auto& option : row.options) {
      auto& slot = strategy_options.emplace_back(std::string(option.key), std::nullopt);
      app.add_option("--" + std::string(option.key), slot.second, std::string(option.help))->type_name("VALUE");
    }
  }
  app.add_option(
         "--refine", refine,
         "Polish the strategy's mapping: none, swap (exact-gain swaps and moves to a local optimum), "
         "tabu (robust tabu search; --refine-iters) or multilevel (V-cycles moving blocks of ranks at every "
         "level of the machine, then swap; up to 256 slots a tabu search of --refine-iters moves before the swap)")
      ->check(CLI::IsMember(refine_kind_names()));
  auto objectives = objective_names();
  objectives.emplace_back("auto");
  app.add_option("--objective", objective,
                 "What to minimise: hop-bytes, congestion (the busiest link's bytes over its --link-bw "
                 "bandwidth) or time (one round's predicted time: the flow model's bound, busiest link or node memory "
                 "after its first message's latency); hop-bytes breaks ties. The latter two need a machine with "
                 "routes; auto and best choose by it and a refinement for it follows the strategy. auto (default): "
                 "hop-bytes, but the auto strategy chooses its candidate by predicted time where the machine has "
                 "routes (never above in-order's time or hop-bytes; at or below Scotch's in both where that is as "
                 "fast)")
      ->check(CLI::IsMember(objectives));
  app.add_option("--refine-iters", refine_iters, option_help("refine-iters"))->transform(whole_number(0, 1000000000));
  app.add_option("--time-limit", time_limit,
                 "Stop the tabu search after this many seconds (results then depend on the machine's speed)")
      ->check(real_number(0.0, 1e9));
  app.add_flag("-v,--verbose", verbose, "More messages on stderr (repeatable; -q -v cancel out)");
  app.add_flag("-q,--quiet", quiet, "No summary or progress on stderr");
  initial_option->excludes(strategy_option);
  app.add_flag("--example", example,
               std::string("Map the embedded example (8x8 stencil on ") + kExampleTopology + ") instead of -t/-c");
}

JobSpec MapFlags::job_spec(const CLI::App& app) const {
  auto spec = in.job_spec();
  if (example) {
    spec.machine.topology = kExampleTopology;
    spec.traffic.matrix = gen::stencil({8, 8}, 5, 1000);
  }
  // The configuration: the preset, the file on top, then the flags given.
  auto& c = spec.context;
  c.preset = preset_name;
  c.config_file = config_file;
  const auto given = [&app](const char* flag) { return app.count(flag) > 0; };
  auto& options = c.options;
  if (given("--strategy")) options.emplace_back("strategy", strategy);
  if (given("--seed")) options.emplace_back("seed", std::to_string(seed));
  if (given("--threads")) {
    options.emplace_back("threads", std::to_string(threads));
  } else if (config_file.empty() && !dump_config) {
    // A standalone run uses the machine's cores by default (results do not
    // depend on them: -p 2 made the default at 4,096-16,384 ranks 1.3-1.6x
    // faster, a million ranks 1.3x). Not written into --dump-config's file:
    // a configuration the MPI layer reads inside every rank keeps its one.
    const auto cores = std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, kMaxThreads);
    options.emplace_back("threads", std::to_string(cores));
  }
  if (given("--link-bw")) options.emplace_back("link-bw", links.bandwidths);
  if (given("--refine")) options.emplace_back("refine", refine);
  if (given("--objective")) options.emplace_back("objective", objective);
  if (given("--refine-iters")) options.emplace_back("refine-iters", std::to_string(refine_iters));
  if (given("--time-limit")) options.emplace_back("time-limit", fmt::format("{}", time_limit));
  for (const auto& [key, value] : strategy_options) {
    if (value) options.emplace_back(key, *value);
  }
  spec.output.format = mapping_format_from_name(format);
  spec.output.slots = rankfile_slots == "pu" ? SlotKind::Pu : SlotKind::Core;
  spec.output.program = program;
  return spec;
}

}  // namespace tmap::cli
