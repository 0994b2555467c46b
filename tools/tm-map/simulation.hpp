// tm-map --simulate: the simulated communication time of the mappings
// (SimGrid; see src/sim/simulate.hpp), in the reports and the table.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "run.hpp"

namespace tmap::cli {

struct SimulationOptions {
  bool enabled = false;
  std::string bandwidths;  ///< --sim-bw KIND=GB/s,...
  double bandwidth_gbs = 12.5;
  double latency_us = 0.5;
  double node_bandwidth_gbs = 50.0;
  std::int64_t rounds = 1;

  void add_to(CLI::App& app);
  /// Fills each result's report.sim_time_s (one SimGrid engine for all).
  void run(const Problem& problem, std::vector<RunResult*> results) const;
};

}  // namespace tmap::cli
