// tmap: topology-aware process mapping. Include this for the core C++ API:
// matrices, machines, constraints, mapping, metrics, reading inputs.
// Two extras are included on their own: tmap/report.hpp (output formats,
// launcher files) and tmap/generators.hpp (synthetic traffic patterns).
#pragma once

#include "tmap/allocation.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"
#include "tmap/version.hpp"
