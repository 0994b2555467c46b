// tm-map: maps the ranks of a job onto a machine (contract section 4). The
// flags describe a job (flags.cpp); the library's Job assembles and runs it.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include "cli.hpp"
#include "flags.hpp"
#include "progress.hpp"
#include "run.hpp"
#include "summary.hpp"
#include "tmap/config.hpp"

namespace {

using namespace tmap;
using namespace tmap::cli;

/// --compare: the strategies named (and the files of --compare-file) run on
/// one job and printed as a table or JSON.
int compare_strategies(const MapFlags& f, Job& job, const Run& run, ProgressPrinter& printer) {
  const auto format = job.spec().output.format;
  if (format != MappingFormat::Perm && format != MappingFormat::Json) {  // perm = the default
    throw InputError("--compare prints a table (default) or JSON (--format json)");
  }
  if (!f.links.loads_file.empty()) throw InputError("--link-loads writes one mapping's loads; not with --compare");
  const auto problem = job.problem();
  // External mappings first: a bad file fails before any strategy runs.
  std::vector<RunResult> external;
  external.reserve(f.compare_files.size());
  for (const auto& spec : f.compare_files) {
    external.push_back(external_result(spec, problem, job.routing(), job.context().link_bandwidths));
  }
  const auto names = comparison_strategies(f.compare);
  auto comparison =
      tmap::compare(problem, run, names, std::move(external), job.routing(), [&](std::size_t k, const RunResult& row) {
        printer.finish();
        // Progress only on runs long enough to want it (nothing under 2 s at the
        // normal level, as the progress printer).
        const double so_far =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - run.hooks.control->start).count();
        if (f.level() >= 2 || (f.level() >= 1 && so_far >= 2.0)) {
          fmt::print(stderr, "tm-map: [{}/{}] {} done in {:.3f} s{}\n", k + 1, names.size(), names[k],
                     row.report.time_s, row.report.partial ? " (stopped: partial)" : "");
        }
      });
  if (comparison.stopped) fmt::print(stderr, "tm-map: stopped (Ctrl-C): the table holds the strategies run so far\n");
  std::vector<RunResult*> simulated;
  for (auto& r : comparison.results) simulated.push_back(&r);
  f.simulation.run(problem, simulated);
  emit(format == MappingFormat::Json ? comparison_json(comparison) : comparison_text(comparison), f.output);
  bool partial = false;
  for (const auto& r : comparison.results) partial = partial || r.report.partial;
  return partial || interrupted() ? kExitPartial : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tm-map: topology-aware process mapping. Places the ranks of a parallel job on the PEs of a "
      "machine so that ranks that talk a lot sit close together (objective: hop-bytes).",
      "tm-map"};
  app.set_version_flag("--version", std::string("tm-map ") + tmap::version());
  MapFlags f;
  f.add_to(app);

  return run("tm-map", app, argc, argv, [&]() -> int {
    const int level = f.level();
    // Ctrl-C stops at the next step with the best so far (exit 3), from here
    // on: an interruption while reading exits 130 with a message.
    stop_on_interrupt();
    // Notes say what a user must know about an input tmap adjusted: even -q prints them.
    Job job(f.job_spec(app), printed_notes());
    if (f.dump_config) {
      const auto config = save_config(job.context());
      check_outputs({f.output});
      emit(config, f.output);
      return kExitOk;
    }
    if (!f.example && (!f.in.has_topology() || f.in.comm.path.empty())) {
      throw InputError("both -t TOPOLOGY and -c COMM are needed (or --example); see tm-map --help");
    }
    if (f.example && (f.in.has_topology() || !f.in.comm.path.empty())) {
      throw InputError("--example cannot be combined with -t, -x or -c");
    }
    if (!app.count("--compare") && !f.compare_files.empty()) throw InputError("--compare-file needs --compare");
    if (app.count("--compare") && app.count("--initial")) {
      throw InputError("--initial improves one mapping; to score a file beside the strategies use --compare-file");
    }
    auto inputs = f.in.files();
    if (!f.config_file.empty()) inputs.push_back(f.config_file);
    if (const auto& origin = job.context().grid2d.bandwidths_origin; !origin.empty()) inputs.push_back(origin);
    for (const auto& spec : f.compare_files) inputs.push_back(spec.substr(spec.find('=') + 1));
    if (!f.initial.empty()) inputs.push_back(f.initial);
    protect_inputs(inputs);
    check_outputs({f.output, f.links.loads_file});
    const auto problem = job.problem();
    f.links.check(problem.topology, job.routing());
    if (interrupted()) {
      fmt::print(stderr, "tm-map: interrupted before mapping: nothing written\n");
      return kExitInterrupted;
    }
    // Progress on stderr; Ctrl-C stops at the next step with the best so far.
    ProgressPrinter printer(level, isatty(STDERR_FILENO) != 0);
    RunHooks hooks;
    hooks.verbosity = level;
    hooks.progress = [&printer](const Progress& event) { return printer(event); };
    hooks.control = std::make_shared<RunControl>();
    hooks.log = [&printer](std::string_view message) {
      printer.finish();
      fmt::print(stderr, "tm-map: {}\n", message);
    };
    if (app.count("--compare")) return compare_strategies(f, job, Run(job.context(), hooks), printer);

    auto result = f.initial.empty() ? job.run(hooks) : initial_result(f.initial, job, hooks);
    printer.finish();
    if (result.report.partial) {
      fmt::print(stderr,
                 "tm-map: stopped (Ctrl-C) after {:.1f} s: writing the best mapping found so far (partial, exit code "
                 "3)\n",
                 result.report.time_s);
    }
    job.prepare_output(result);
    f.simulation.run(problem, {&result});
    // The link loads first: if either write fails, standard output stays empty.
    const auto text = job.output(result);
    f.links.write_loads(job.routing(), result.report.routes);
    emit(text, f.output);
    if (level > 0) print_summary(result, problem.constraints, problem.comm);
    return result.report.partial ? kExitPartial : kExitOk;
  });
}
