// tm-map's flags and their translation into a job (tmap/job.hpp): what
// each flag says, bound to a field; which were given decides the options
// the configuration gets on top of the preset and config file.
#pragma once

#include <CLI/CLI.hpp>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "simulation.hpp"

namespace tmap::cli {

struct MapFlags {
  InputOptions in;
  RoutingOptions links;
  SimulationOptions simulation;
  std::string strategy;
  std::string format = "perm";
  std::string program;
  std::string output;
  std::string rankfile_slots = "core";
  std::string compare;
  std::vector<std::string> compare_files;
  std::string initial;
  std::uint64_t seed = 0;
  std::string preset_name = "default";
  std::string config_file;
  bool dump_config = false;
  int threads = 1;
  std::string refine = "none";
  std::string objective = "auto";
  std::int64_t refine_iters = -1;
  double time_limit = 0.0;
  int verbose = 0;
  int quiet = 0;
  bool example = false;
  /// Each strategy's options (--KEY VALUE), from the strategy table.
  std::deque<std::pair<std::string, std::optional<std::string>>> strategy_options;

  void add_to(CLI::App& app);
  /// The job the flags given describe (the embedded example with --example).
  [[nodiscard]] JobSpec job_spec(const CLI::App& app) const;
  /// -v and -q counted against each other: 0 silent, 1 normal, 2+ chatty.
  [[nodiscard]] int level() const { return std::max(0, 1 + verbose - quiet); }
};

/// The embedded example: an 8x8 5-point stencil (1000 bytes to each
/// neighbour) onto two Tianhe-3 chips of 8 nodes with 4 cores each.
inline constexpr const char* kExampleTopology = "tianhe3:1x2,nodes=8,cores=4";

}  // namespace tmap::cli
