// tmap: topology-aware process mapping. Include this for the whole C++ API.
#pragma once

#include "tmap/allocation.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/io.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"
#include "tmap/version.hpp"
