// Comparing strategies on one problem, as tm-map --compare does: each
// strategy run and reported (notes, fallbacks, refinement and objective
// stages, configuration), external mappings scored beside them, the
// references every ratio needs (plain Scotch, in-order), and the table or
// JSON the tools print. The library does it; the tools parse and print.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/export.h"
#include "tmap/mapper.hpp"
#include "tmap/report.hpp"

TMAP_API_BEGIN

namespace tmap {

/// A mapping with its report: one row of a comparison.
struct ReportedMapping {
  Mapping mapping;
  MappingReport report;
  /// Made elsewhere (a file): no run time of ours to report.
  bool external = false;
};

/// Runs `strategy` ("NAME", or "NAME:REFINE" for another refinement than
/// run.refine) and reports the result: its figures (describe_mapping, with
/// the link metrics when `routing` is given), the notes strategies said at
/// level 1 (also passed on to run.hooks.log at its verbosity), the strategy
/// it fell back to, the refinement's and the objective's stages, the time
/// and the configuration.
[[nodiscard]] ReportedMapping run_and_report(std::string_view strategy, const Problem& problem, const Run& run,
                                             const RoutingModel* routing);

/// A mapping made elsewhere (`start`) carried through the stages that follow
/// a strategy (refine_from: run.refine, then run.objective's refinement) and
/// reported as run_and_report reports a run, under `name`.
[[nodiscard]] ReportedMapping refine_and_report(std::string_view name, Mapping start, const Problem& problem,
                                                const Run& run, const RoutingModel* routing);

/// A mapping made elsewhere, named `name` and scored as the runs are (the
/// caller has checked it against the problem).
[[nodiscard]] ReportedMapping report_external(std::string name, Mapping mapping, const Problem& problem,
                                              const RoutingModel* routing, std::string_view link_bandwidths);

/// The strategies of a --compare list: "a,b:swap,..." (each name and
/// refinement checked, duplicates once) or "all" (every strategy but the
/// default, which repeats one of their rows). ParameterError otherwise.
[[nodiscard]] std::vector<std::string> comparison_strategies(std::string_view list);

struct Comparison {
  /// The external mappings, then each strategy in the order given.
  std::vector<ReportedMapping> results;
  /// In-order and plain Scotch when not among the results (the ratios' bases).
  std::vector<ReportedMapping> references;
  /// What a reader must know about the problem (Scotch spreads a smaller job).
  std::vector<std::string> notes;
  /// The run was stopped before every strategy ran (the rows so far are kept).
  bool stopped = false;
};

/// Scores `external`, runs each strategy (on_row told after each, with its
/// index among `strategies`), then the references (even after a stop: the
/// ratios need them). InputError for two external mappings of one name or
/// one named like a strategy.
[[nodiscard]] Comparison compare(const Problem& problem, const Run& run, std::span<const std::string> strategies,
                                 std::vector<ReportedMapping> external, const RoutingModel* routing,
                                 const std::function<void(std::size_t, const ReportedMapping&)>& on_row = {});

/// The table (rows by hop-bytes, ratios to plain Scotch and in-order, the
/// simulated time's column when the rows have one, notes as "# ..." lines)
/// and the JSON (a "results" array of mapping_json objects with the ratios,
/// "best", "notes").
[[nodiscard]] std::string comparison_text(const Comparison& comparison);
[[nodiscard]] std::string comparison_json(const Comparison& comparison);
/// comparison_json's object, handed to `out` as a tree (tmap/report.hpp).
void write_comparison(const Comparison& comparison, ReportWriter& out);

}  // namespace tmap

TMAP_API_END
