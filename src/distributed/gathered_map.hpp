// The sequential default on the gathered graph: below kGatheredEntries the
// whole traffic graph is sent to process 0, which maps it as tm-map's
// default does, and every process gets that mapping. Up to there the graph
// costs process 0 less memory than the sequential run itself, and the
// distributed path's mapping is the sequential one (PT-Scotch's blocks
// refined across their borders were 1.04-1.32x it on Tianhe-3 and 1.22x
// on a 2D grid in a 3D torus); above, the graph stays where it lives.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "distributed/local_graph.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/mapper.hpp"

namespace tmap::dist {

/// Symmetrised entries (both directions of a pair) up to which the graph is
/// gathered: 4 M, a 3D stencil of 700,000 ranks (about 100 MB on process 0).
inline constexpr std::int64_t kGatheredEntries = std::int64_t{1} << 22;

/// Collective: the number of symmetrised entries of the whole graph.
[[nodiscard]] std::int64_t total_entries(MPI_Comm comm, const LocalGraph& graph);

/// Collective: the graph as a matrix on process 0 (elsewhere empty), each
/// pair's symmetrised bytes split in half between its two directions (the
/// odd byte to the lower rank's): for symmetric traffic, the job's matrix.
[[nodiscard]] CommMatrix gather_matrix(MPI_Comm comm, const LocalGraph& graph);

/// Collective: the graph gathered on process 0 and mapped there by
/// tmap::map with `context`; the mapping on every process. Each pair's
/// symmetrised bytes are split in half between its two directions, so the
/// gathered matrix has the graph's hop-bytes and a symmetric exchange's link
/// loads. An error on process 0 is thrown on every process.
[[nodiscard]] Mapping map_gathered(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                   const Constraints& constraints, const Context& context);

}  // namespace tmap::dist
