// Runs one proxy application under SimGrid's smpirun on a mapping and reads
// its report: the platform spec and the host file (rank r on host
// pe<sigma(r)>) go into a private folder, smpirun runs there in a process
// group of its own with a time limit, and the proxy's "tmap-proxy:" line is
// parsed. SMPI's model is fixed so that a time can be computed by hand:
// CM02 (an idle route takes its latency plus bytes over its bandwidth,
// links shared max-min), no cross traffic, computation not simulated
// (proxies have none), MPI_Wtime free.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/platform_spec.hpp"
#include "tmap/mapping.hpp"

namespace tmap::cli {

struct ProxyRun {
  std::string program;            ///< the proxy's executable
  std::vector<std::string> args;  ///< its arguments (reach the proxy only, never smpirun)
  /// The machine file's content when the machine came from a file (copied
  /// into each run's folder as `machine_name`: the platform module reads it
  /// there, so a relative path, a pipe or an -x file all work); empty: the
  /// platform spec's topology is an inline description.
  std::string machine_text;
  std::string machine_name;
  /// Ask the proxy for the traffic it sent (its --matrix), returned in
  /// ProxyReport::matrix: the proxy writes inside the run's folder only.
  bool want_matrix = false;
  /// Files written into each run's folder before smpirun (name, content):
  /// the replay proxy's traffic.
  std::vector<std::pair<std::string, std::string>> files;
  std::string platform_module;  ///< libtmap-smpi-platform.so
  double timeout_s = 600;
  /// Called while the simulation runs, 1, 3, 7, ... s after its start (the
  /// gaps doubling up to a minute) once the proxy's clock has moved: how far
  /// it got (simulated seconds) and after how long (wall seconds).
  std::function<void(double simulated_s, double wall_s)> on_progress;
  std::string keep;  ///< folder to keep the generated files in ("" = none)
};

/// SimGrid's own maxmin precision (its `maxmin/precision` default).
inline constexpr double kSimGridMaxminPrecision = 1e-5;

struct ProxyReport {
  double time_s = 0;  ///< the latest rank's end (a lower bound of it when `stopped`)
  double comm_s = 0;  ///< the largest time a rank spent in MPI calls
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  /// The solver precision the run needed (coarser than SimGrid's only when
  /// its default made the solver give up on rounding).
  double maxmin_precision = kSimGridMaxminPrecision;
  std::string matrix;  ///< the proxy's --matrix output (.coo text), when asked
  /// The time limit stopped the run: time_s is how far rank 0's clock had
  /// got (the proxy's last progress line), a lower bound of the application's
  /// time; comm_s, messages and bytes are unknown (0).
  bool stopped = false;
};

/// Thrown when SIGINT or SIGTERM arrived: smpirun's process group was
/// stopped and the run's folder removed (unless kept); nothing is written.
struct Interrupted {};

/// Throws Interrupted when a signal arrived.
void check_interrupted();

/// Simulates `run` with rank r on mapping[r]. InputError when the proxy
/// refuses its arguments; SystemError when smpirun is missing or fails (its
/// last lines in the message), or passes the time limit before the proxy's
/// first progress line; past it after one, the report is `stopped`. A run
/// SimGrid's solver gives up on for rounding is repeated at coarser
/// precisions (within the same time limit).
[[nodiscard]] ProxyReport run_proxy(const ProxyRun& run, const sim::PlatformSpec& platform, const Mapping& mapping);

/// The proxies tm-sim knows, and the folder their executables are in (next
/// to the running tool: the build tree's libexec/tmap, or the installed one).
[[nodiscard]] const std::vector<std::string>& proxy_names();
[[nodiscard]] std::string proxy_path(const std::string& name);
[[nodiscard]] std::string platform_module_path();

}  // namespace tmap::cli
