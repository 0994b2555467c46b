#include "simulation.hpp"

#if TMAP_HAVE_SIMGRID
#include "sim/simulate.hpp"
#endif

namespace tmap::cli {

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
  sim::SimOptions options;
  options.bandwidth = bandwidth_gbs * 1e9;
  options.latency = latency_us * 1e-6;
  options.node_bandwidth = node_bandwidth_gbs * 1e9;
  options.rounds = static_cast<int>(rounds);
  if (!bandwidths.empty()) {
    const auto routing = problem.topology.routing_model();
    if (routing) sim::parse_bandwidths(bandwidths, *routing, options);
  }
  std::vector<Mapping> mappings;
  for (const auto* r : results) mappings.push_back(r->mapping);
  const auto times = sim::simulate(problem.comm, problem.topology, mappings, options);
  for (std::size_t k = 0; k < results.size(); ++k) results[k]->report.sim_time_s = times[k].seconds;
#else
  (void)problem;
  (void)results;
  throw InputError("--simulate: this tm-map was built without SimGrid (install libsimgrid-dev and rebuild)");
#endif
}

}  // namespace tmap::cli
