#include "run.hpp"

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
  auto mapping = read_mapping(file, problem.topology);
  check_mapping_file(mapping, file, problem.comm.num_ranks(), "the matrix", problem.topology, &problem.constraints);
  return report_external(name, std::move(mapping), problem, routing, links);
}

}  // namespace tmap::cli
