#include "sim/module.hpp"

#include <exception>

#include "tmap/error.hpp"
#include "tmap/routing.hpp"

extern "C" __attribute__((visibility("default"))) int tmap_sim_simulate(const tmap::sim::ModuleCall* call) {
  try {
    if (call->abi != tmap::sim::kModuleAbi) {
      *call->error = "the simulation module is from another build of tmap";
      return 1;
    }
    auto options = call->options;
    if (!call->bandwidths.empty()) {
      const auto routing = call->topology->routing_model();
      if (routing) tmap::sim::parse_bandwidths(call->bandwidths, *routing, options);
    }
    *call->results = tmap::sim::simulate(*call->comm, *call->topology, *call->mappings, options);
    return 0;
  } catch (const tmap::Error& e) {
    *call->error = e.what();
    return 10 + static_cast<int>(e.kind());
  } catch (const std::exception& e) {
    *call->error = e.what();
    return 1;
  } catch (...) {
    *call->error = "the simulation failed";
    return 1;
  }
}
