// The geometry of a structured job, recovered where its graph lives: the
// distributed form of strategies/geometric/grid_recovery.hpp for stencils
// that are not periodic (1D/2D/3D grids, 3-, 5- or 7-point, in any rank
// order). The same corner, axes and far corners, the breadth-first
// distances computed level by level (one all-to-all of the frontier's
// partners per level), then every process holds every rank's coordinates
// (as it holds the whole mapping) and checks that the graph is exactly the
// grid: a bijection onto the box, every pair one step apart (each process
// its own edges), every grid edge present.
#pragma once

#include <mpi.h>

#include <optional>

#include "distributed/local_graph.hpp"
#include "strategies/geometric/grid_recovery.hpp"

namespace tmap::dist {

/// Collective: the grid the distributed graph is, on every process, or
/// nothing (on every process).
[[nodiscard]] std::optional<strategies::RecoveredGrid> recover_grid(MPI_Comm comm, const LocalGraph& graph);

}  // namespace tmap::dist
