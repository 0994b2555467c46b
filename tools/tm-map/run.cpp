#include "run.hpp"

#include <fmt/format.h>

#include "tmap/metrics.hpp"

namespace tmap::cli {

namespace {

/// A mapping file read within the problem's constraints and checked against it.
Mapping read_checked(const std::string& file, const Problem& problem) {
  auto mapping = read_mapping(file, problem.topology, problem.constraints);
  check_mapping_file(mapping, file, problem.comm.num_ranks(), "the matrix", problem.topology, &problem.constraints);
  return mapping;
}

}  // namespace

RunResult external_result(const std::string& spec, const Problem& problem, const RoutingModel* routing,
                          std::string_view links) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    throw InputError("--compare-file '" + spec + "': expected NAME=FILE");
  }
  const auto name = spec.substr(0, eq);
  const auto file = spec.substr(eq + 1);
  for (const auto& s : strategy_table()) {
    if (s.name == name) throw InputError("--compare-file: '" + name + "' is a strategy's name; pick another");
  }
  return report_external(name, read_checked(file, problem), problem, routing, links);
}

RunResult initial_result(const std::string& file, Job& job, const RunHooks& hooks) {
  const auto problem = job.problem();
  auto mapping = read_checked(file, problem);
  if (hooks.log && hooks.verbosity >= 1) {  // (the scoring only for the note)
    hooks.log(fmt::format("starting from {}: hop_bytes {}", file,
                          evaluate(problem.comm, problem.topology, mapping).hop_bytes));
  }
  return job.refine(std::move(mapping), hooks);
}

}  // namespace tmap::cli
