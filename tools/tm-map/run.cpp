#include "run.hpp"

#include <fmt/format.h>

#include "tmap/metrics.hpp"

namespace tmap::cli {

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
  auto mapping = read_mapping(file, problem.topology, problem.constraints);
  check_mapping_file(mapping, file, problem.comm.num_ranks(), "the matrix", problem.topology, &problem.constraints);
  return report_external(name, std::move(mapping), problem, routing, links);
}

RunResult initial_result(const std::string& file, const Problem& problem, const Run& run, const RoutingModel* routing) {
  auto mapping = read_mapping(file, problem.topology, problem.constraints);
  check_mapping_file(mapping, file, problem.comm.num_ranks(), "the matrix", problem.topology, &problem.constraints);
  run.note(1, fmt::format("starting from {}: hop_bytes {}", file,
                          evaluate(problem.comm, problem.topology, mapping).hop_bytes));
  return refine_and_report("initial", std::move(mapping), problem, run, routing);
}

}  // namespace tmap::cli
