// The graph the bisections work on: a set of ranks renumbered 0..m-1 with
// the traffic inside the set, in compressed rows, and vertex weights (1 for
// a rank; a coarse vertex weighs what it holds).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::strategies::detail {

/// A vertex of a BisectionGraph in its edge lists: 32 bits (a set of at
/// most 2^31 - 1 ranks), a quarter less memory for the edges of a
/// million-rank job's top levels and their coarse graphs.
using LocalVertex = std::int32_t;

struct BisectionGraph {
  std::vector<std::int64_t> begin{0};
  std::vector<LocalVertex> adj;
  std::vector<Volume> w;
  std::vector<std::int64_t> weight;  ///< vertex weights
  std::vector<Volume> total;         ///< each vertex's traffic inside the set

  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(weight.size()); }
};

/// A vertex far from `start` (breadth-first, ties to the lowest id).
std::int64_t farthest(const BisectionGraph& g, std::int64_t start);

/// Greedy graph growing: side 0 grows from `seed`, always taking the vertex
/// whose move cuts least (2 x its traffic to side 0 - its traffic), until
/// it weighs `target`.
std::vector<char> grow(const BisectionGraph& g, std::int64_t seed, std::int64_t target);

/// Traffic between the two sides (side[v] is 0 or 1).
Volume cut_of(const BisectionGraph& g, const std::vector<char>& side);

/// Splits g so that side 0 weighs `first_size` give or take `final_window`
/// (0: exactly, with unit weights), by multilevel bisection:
/// heavy-edge matching coarsens the graph to a few hundred vertices, the
/// coarsest is grown from a few seeds and refined by Fiduccia-Mattheyses
/// moves within a balance window, and every finer level's projection is
/// rebalanced and refined on its boundary. Linear in the edges per level
/// (a flat FM pass over a million ranks touches every one of them).
/// Deterministic.
/// `effort`: Levels gives up to 12 passes at every level, each free to go
/// a fifth of the level past its best prefix (WholeLevels: the whole level):
/// slower, and the cut of a shuffled grid nearer its plane.
enum class Thoroughness { Coarsest, Levels, WholeLevels };
std::vector<char> multilevel_bisect(const BisectionGraph& g, std::int64_t first_size, std::int64_t final_window = 0,
                                    Thoroughness effort = Thoroughness::Coarsest);

/// A V-cycle from a given split (KaFFPa's): levels coarsened by heavy-edge
/// matching within each side down to about `coarsest` vertices, the split
/// carried up, then FM at every level on the way down (a fifth of the
/// level past the best prefix), side 0 weighing `target` give or take the
/// level's heaviest vertex (at least `window`), and `window` at the finest,
/// where it is restored first. Deterministic.
void multilevel_refine(const BisectionGraph& g, std::vector<char>& side, std::int64_t coarsest, std::int64_t target,
                       std::int64_t window);

}  // namespace tmap::strategies::detail
