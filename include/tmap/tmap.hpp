// tmap: topology-aware process mapping. Include this for the core C++ API:
// matrices, machines, constraints, mapping, metrics, reading inputs.
// Three extras are included on their own: tmap/report.hpp (output formats,
// launcher files), tmap/generators.hpp (synthetic traffic patterns) and
// tmap/tianhe3.hpp (the Tianhe-3 model as Scotch targets, a node via hwloc).
#pragma once

#include "tmap/allocation.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "tmap/types.hpp"
#include "tmap/version.hpp"
