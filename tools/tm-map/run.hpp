// tm-map's pieces: a single mapping run and the --compare table.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"
#include "tmap/report.hpp"

namespace tmap::cli {

/// Everything one strategy run produced.
struct RunResult {
  Mapping mapping;
  MappingReport report;
  /// From --compare-file: no time of ours to report.
  bool external = false;
};

/// Maps with one strategy and scores the result (with the link metrics when
/// `routing` is given).
[[nodiscard]] RunResult run_strategy(const std::string& strategy, const Problem& problem, const Run& run,
                                     const RoutingModel* routing);

/// An external mapping for --compare-file NAME=FILE: read, checked against
/// the problem (length, PEs, constraints: InputError naming the file), scored.
/// `links`: the run's link bandwidths (--link-bw), for the predicted time.
[[nodiscard]] RunResult external_result(const std::string& spec, const Problem& problem, const RoutingModel* routing,
                                        std::string_view links);

/// Strategy names from "a,b,c" or "all" (every strategy in the table).
[[nodiscard]] std::vector<std::string> parse_strategy_list(const std::string& list);

/// The --compare output: an aligned table, or JSON with a "results" array.
/// `notes`: what the table's reader must know about the problem (printed as
/// "# ..." lines under the table, the JSON's "notes"); the rows' fallbacks
/// are added from the results.
[[nodiscard]] std::string compare_text(const std::vector<RunResult>& results, const std::vector<RunResult>& references,
                                       const std::vector<std::string>& notes = {});
[[nodiscard]] std::string compare_json(const std::vector<RunResult>& results, const std::vector<RunResult>& references,
                                       const std::vector<std::string>& notes = {});

/// Notes for the --compare table: Scotch spreads a job smaller than the
/// machine over all of it (so vs_scotch compares with a spread job).
[[nodiscard]] std::vector<std::string> compare_notes(const Problem& problem);

}  // namespace tmap::cli
