// The simulation as a module tm-map loads only for --simulate (dlopen of
// libtmap-sim.so): a program linked with SimGrid runs SimGrid's and ns-3's
// static initialisers at every start (40-90 ms for tm-map, against under
// 10 ms for the tools without it). The module exports one C entry point,
// which takes this call record; both sides are built from this header.
#pragma once

#include <string>
#include <vector>

#include "sim/simulate.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::sim {

/// Layout version of ModuleCall, checked by the module.
inline constexpr int kModuleAbi = 1;
/// The module's entry point: int tmap_sim_simulate(const ModuleCall*).
inline constexpr const char* kModuleEntry = "tmap_sim_simulate";

struct ModuleCall {
  int abi = kModuleAbi;
  const CommMatrix* comm = nullptr;
  const Topology* topology = nullptr;
  const std::vector<Mapping>* mappings = nullptr;
  SimOptions options;
  std::string bandwidths;  ///< --sim-bw as given ("" = none)
  std::vector<SimResult>* results = nullptr;
  std::string* error = nullptr;
};

/// 0: results filled; 2: bad input (InputError's message in *error); 1:
/// another failure (message in *error).
using ModuleEntry = int (*)(const ModuleCall*);

}  // namespace tmap::sim
