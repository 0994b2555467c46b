#include "simulation.hpp"

#if TMAP_HAVE_SIMGRID
#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>

#include "sim/module.hpp"
#include "tmap/error.hpp"
#endif

namespace tmap::cli {

#if TMAP_HAVE_SIMGRID
namespace {

/// The simulation module's entry point, from the library folder next to
/// this tm-map's folder (build tree, then installed layout).
sim::ModuleEntry load_simulation() {
  std::filesystem::path folder = ".";
  char self[4096];
  const auto length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) folder = std::filesystem::path(std::string(self, static_cast<std::size_t>(length))).parent_path();
  std::string tried;
  for (const char* relative : {TMAP_SIM_MODULE_BUILD, TMAP_SIM_MODULE_INSTALLED}) {
    const auto path = (folder / relative).lexically_normal();
    // Loaded once and kept: SimGrid's engine lives as long as the process.
    if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      if (void* entry = dlsym(handle, sim::kModuleEntry)) return reinterpret_cast<sim::ModuleEntry>(entry);
    }
    tried += (tried.empty() ? "" : ", ") + path.string();
  }
  const char* why = dlerror();
  throw SystemError("--simulate: cannot load the simulation module (tried " + tried + ")" +
                    (why != nullptr ? std::string(": ") + why : std::string()));
}

}  // namespace
#endif

void SimulationOptions::add_to(CLI::App& app) {
  app.add_flag("--simulate", enabled,
               "Simulate one round of the matrix on the machine's links with SimGrid (every rank sends all its "
               "messages at once) and report the time (JSON sim_time_s; with --compare a column)");
  app.add_option("--sim-bw", bandwidths,
                 "Simulated bandwidth per link kind in GB/s, e.g. 'row=25,col=25' (kinds as --link-bw)");
  app.add_option("--sim-link-bw", bandwidth_gbs, "Simulated bandwidth of the other links, GB/s (default 12.5)")
      ->transform(real_number(1e-6, 1e6));
  app.add_option("--sim-latency", latency_us, "Simulated latency per link, microseconds (default 0.5)")
      ->transform(real_number(0.0, 1e6));
  app.add_option("--sim-node-bw", node_bandwidth_gbs,
                 "Simulated bandwidth between two ranks of one node, GB/s (default 50)")
      ->transform(real_number(1e-6, 1e6));
  app.add_option("--sim-rounds", rounds, "Rounds of the whole matrix, one after the other (default 1)")
      ->transform(whole_number(1, 1000000));
}

void SimulationOptions::run(const Problem& problem, std::vector<RunResult*> results) const {
  if (!enabled) return;
#if TMAP_HAVE_SIMGRID
  std::vector<Mapping> mappings;
  mappings.reserve(results.size());
  for (const auto* r : results) mappings.push_back(r->mapping);
  std::vector<sim::SimResult> times;
  std::string error;
  sim::ModuleCall call;
  call.comm = &problem.comm;
  call.topology = &problem.topology;
  call.mappings = &mappings;
  call.options.bandwidth = bandwidth_gbs * 1e9;
  call.options.latency = latency_us * 1e-6;
  call.options.node_bandwidth = node_bandwidth_gbs * 1e9;
  call.options.rounds = static_cast<int>(rounds);
  call.bandwidths = bandwidths;
  call.results = &times;
  call.error = &error;
  const auto simulate = load_simulation();
  if (const int rc = simulate(&call); rc != 0) {
    // The module returns 10 + the error's kind; its messages name options
    // by key ("sim-bw: ...", "simulation: ..."), the flags are ours.
    if (error.starts_with("simulation: ")) error = "--simulate: " + error.substr(12);
    if (error.starts_with("sim-bw: ")) error = "--" + error;
    switch (rc - 10) {
      case static_cast<int>(ErrorKind::InvalidInput):
        throw InputError(error);
      case static_cast<int>(ErrorKind::InvalidParameter):
        throw ParameterError(error);
      case static_cast<int>(ErrorKind::Unsupported):
        throw UnsupportedError(error);
      case static_cast<int>(ErrorKind::Resource):
        throw ResourceError(error);
      case static_cast<int>(ErrorKind::System):
        throw SystemError(error);
      default:
        throw InternalError("--simulate: " + error);
    }
  }
  for (std::size_t k = 0; k < results.size(); ++k) results[k]->report.sim_time_s = times[k].seconds;
#else
  (void)problem;
  (void)results;
  throw UnsupportedError("--simulate: this tm-map was built without SimGrid (install libsimgrid-dev and rebuild)");
#endif
}

}  // namespace tmap::cli
