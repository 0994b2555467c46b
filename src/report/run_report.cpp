// One strategy run and reported; an external mapping scored alike.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>

#include "tmap/compare.hpp"
#include "tmap/config.hpp"

namespace tmap {

namespace {

/// A run reported: `produce(construct, stages)` makes the mapping with the
/// run's hooks wrapped so that level-1 notes and the fallback of `name`
/// reach the report.
template <typename Produce>
ReportedMapping reported(std::string_view label, const Problem& problem, Run run, const RoutingModel* routing,
                         Produce&& produce) {
  // One control for the run and the report: a stop is seen as partial.
  if (!run.hooks.control) run.hooks.control = std::make_shared<RunControl>();
  const auto start = std::chrono::steady_clock::now();
  // Level-1 notes (what a user must know about the result, e.g. that
  // scotch repaired Scotch's mapping) go to the report even when the
  // caller's log is quieter; the log gets what its verbosity asks for.
  Run construct = run;
  construct.hooks.verbosity = std::max(run.hooks.verbosity, 1);
  std::vector<std::string> notes;
  std::string fell_back_to;
  std::mutex notes_lock;  // strategies may note from their worker threads
  construct.hooks.log = [&notes, &run, &notes_lock](std::string_view message) {
    if (run.hooks.log && run.hooks.verbosity >= 1) run.hooks.log(message);
    const std::lock_guard lock(notes_lock);
    notes.emplace_back(message);
  };
  // A fallback of the strategy asked for (not of a candidate inside a portfolio).
  const std::string& name = run.strategy;
  construct.hooks.fallback = [&fell_back_to, &name, &notes_lock](std::string_view who, std::string_view instead,
                                                                 std::string_view /*why*/) {
    const std::lock_guard lock(notes_lock);
    if (who == name && fell_back_to.empty()) fell_back_to = std::string(instead);
  };
  StageStats stages;
  ReportedMapping result;
  result.mapping = produce(construct, stages);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  result.report = describe_mapping(problem, result.mapping, routing, run.link_bandwidths, run.threads);
  result.report.notes = std::move(notes);
  result.report.fell_back_to = std::move(fell_back_to);
  result.report.refine = stages.refine;
  result.report.objective_refine = stages.objective;
  result.report.objective = run.measured_objective();
  result.report.strategy = std::string(label);
  result.report.time_s = elapsed.count();
  result.report.seed = run.seed;
  result.report.threads = run.threads;
  result.report.config = option_values(run.config());
  result.report.partial = run.stopped();
  return result;
}

}  // namespace

ReportedMapping run_and_report(std::string_view strategy, const Problem& problem, const Run& given,
                               const RoutingModel* routing) {
  // "NAME:REFINE" (e.g. scotch:tabu) overrides run.refine for this run.
  Run run = given;
  const auto spec = parse_strategy_spec(strategy);
  run.strategy = spec.name;
  if (spec.refine) run.refine.kind = *spec.refine;
  return reported(strategy, problem, run, routing, [&](const Run& construct, StageStats& stages) {
    return map_with(construct.strategy, problem, construct, stages);
  });
}

ReportedMapping refine_and_report(std::string_view name, Mapping start, const Problem& problem, const Run& run,
                                  const RoutingModel* routing) {
  return reported(name, problem, run, routing, [&](const Run& construct, StageStats& stages) {
    return refine_from(std::move(start), problem, construct, stages);
  });
}

ReportedMapping report_external(std::string name, Mapping mapping, const Problem& problem, const RoutingModel* routing,
                                std::string_view link_bandwidths) {
  ReportedMapping result;
  result.mapping = std::move(mapping);
  result.external = true;
  result.report = describe_mapping(problem, result.mapping, routing, link_bandwidths);
  result.report.strategy = std::move(name);
  return result;
}

}  // namespace tmap
