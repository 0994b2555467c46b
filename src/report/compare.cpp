// --compare's runs: the strategies in turn, the references the ratios need.
#include "tmap/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"

namespace tmap {

std::vector<std::string> comparison_strategies(std::string_view list) {
  std::vector<std::string> names;
  if (list == "all") {
    // Every row of the table, the default (auto) included: it is what a
    // user runs, even where its row repeats the candidate it chose; not the
    // distributed ones, which in one process repeat their counterpart's.
    for (const auto& s : strategy_table()) {
      if (!s.has(kDistributed)) names.emplace_back(s.name);
    }
    return names;
  }
  std::string_view rest = list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const auto name = rest.substr(0, comma);
    if (!name.empty()) {
      // Unknown names and refinements fail before anything runs.
      (void)parse_strategy_spec(name);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    }
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
  }
  if (names.empty()) {
    throw ParameterError("--compare '" + std::string(list) +
                         "': no strategy named (e.g. --compare inorder,scotch,auto, or all)");
  }
  return names;
}

namespace {

/// Scotch spreads a job smaller than the allowed PEs over all of them.
std::vector<std::string> problem_notes(const Problem& problem) {
  const auto n = problem.comm.num_ranks();
  const auto pes = static_cast<Rank>(problem.constraints.allowed_pes().size());
  if (n >= pes) return {};
  return {
      fmt::format("scotch spreads the {} ranks over all {} allowed PEs (its static mapping balances load over "
                  "every PE, as scotch_gmap does): vs_scotch compares with that spread job",
                  n, pes)};
}

}  // namespace

Comparison compare(const Problem& problem, const Run& run, std::span<const std::string> strategies,
                   std::vector<ReportedMapping> external, const RoutingModel* routing,
                   const std::function<void(std::size_t, const ReportedMapping&)>& on_row) {
  Comparison c;
  for (auto& row : external) {
    const auto& name = row.report.strategy;
    for (const auto& s : strategy_table()) {
      if (s.name == name) throw InputError("--compare-file: '" + name + "' is a strategy's name; pick another");
    }
    for (const auto& earlier : c.results) {
      if (earlier.report.strategy == name) {
        throw InputError("--compare-file: the name '" + name +
                         "' is given twice; each external mapping needs its own name");
      }
    }
    c.results.push_back(std::move(row));
  }
  Run job = run;
  if (!job.hooks.control) job.hooks.control = std::make_shared<RunControl>();
  // The ratios' bases are in-order and plain Scotch as they are: never
  // refined. A listed row of theirs that the run refines (--refine, or a
  // bottleneck objective's own refinement) is labelled by what refined it,
  // and the plain row is shown beside it.
  const Objective objective = job.measured_objective();
  const bool refines = job.refine.kind != RefineKind::None || objective != Objective::HopBytes;
  const auto is_reference = [](std::string_view name) { return name == "inorder" || name == "scotch"; };
  for (std::size_t k = 0; k < strategies.size() && !job.stopped(); ++k) {
    c.results.push_back(run_and_report(strategies[k], problem, job, routing));
    if (refines && is_reference(strategies[k])) {
      auto& label = c.results.back().report.strategy;
      if (job.refine.kind != RefineKind::None) label += ":" + std::string(refine_kind_name(job.refine.kind));
      if (objective != Objective::HopBytes) label += "+" + std::string(objective_name(objective));
    }
    if (on_row) on_row(k, c.results.back());
  }
  if (job.stopped()) {
    c.stopped = true;
    job.hooks.control = std::make_shared<RunControl>();  // the references below still run
  }
  Run plain = job;
  plain.refine.kind = RefineKind::None;
  plain.objective.reset();
  for (const std::string name : {"inorder", "scotch"}) {
    const auto row_named = [&](std::string_view label) {
      return std::any_of(c.results.begin(), c.results.end(), [&](const auto& r) { return r.report.strategy == label; });
    };
    if (row_named(name)) continue;
    auto reference = run_and_report(name, problem, plain, routing);
    reference.report.objective = objective;
    // Shown beside a refined row of it; otherwise the ratios' base alone.
    const bool listed = std::find(strategies.begin(), strategies.end(), name) != strategies.end();
    (listed ? c.results : c.references).push_back(std::move(reference));
  }
  c.notes = problem_notes(problem);
  return c;
}

}  // namespace tmap
