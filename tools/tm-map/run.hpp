// tm-map's pieces over the library's runs and comparisons
// (tmap/compare.hpp): the --compare-file and --initial readers.
#pragma once

#include <string>
#include <string_view>

#include "cli.hpp"
#include "tmap/compare.hpp"

namespace tmap::cli {

/// A mapping and its report (a strategy's run, or a file's mapping).
using RunResult = ReportedMapping;

/// An external mapping for --compare-file NAME=FILE: read, checked against
/// the problem (length, PEs, constraints: InputError naming the file), scored.
/// `links`: the run's link bandwidths (--link-bw), for the predicted time.
[[nodiscard]] RunResult external_result(const std::string& spec, const Problem& problem, const RoutingModel* routing,
                                        std::string_view links);

/// --initial FILE: the file's mapping, checked as --compare-file's, then
/// improved by the job's refinement and objective (Job::refine).
[[nodiscard]] RunResult initial_result(const std::string& file, Job& job, const RunHooks& hooks);

}  // namespace tmap::cli
