// OHTMA phase 1 (Algorithm 1, lines 1-19): greedy construction. At step k
// the unselected process with the largest
//   comm_p = sum_{i selected} A_pi + (sum_{j unselected} A_pj) / (1 + k)
// goes to the unselected slot with the smallest
//   hops_n = sum_{i selected} B_ni + (sum_{j unselected} B_nj) / (1 + k).
// Both are compared exactly as integers multiplied by (1 + k); ties go to
// the lowest id. Sums are maintained incrementally: O(deg) per step for
// processes. For slots, when the topology's distances are determined by
// nodes (Topology::node_uniform_distance), every free slot of a node has the
// same indicator up to how many slots of its own PE are taken, so the search
// runs over nodes: O(nodes) per step instead of O(slots), same result.
#pragma once

#include <span>
#include <vector>

#include "refine/slots.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::ohtma {

/// Entries of a one-byte distance table ohtma's phases may build (they read
/// it O(nodes) times a step): 2^30, a million ranks on Tianhe-3's 24,576
/// nodes (0.6 GB), where a distance computed per read took minutes.
inline constexpr std::int64_t kNodeTableBytes = std::int64_t{1} << 30;

/// Which slot search greedy_construction uses.
enum class SlotSearch {
  Automatic,  ///< per node when the topology allows it, else per slot
  PerSlot,    ///< always per slot (the direct form; tests compare both)
};

/// Returns sigma[rank] = slot. `sym` is the symmetrised traffic (A + A^T),
/// `pes` the allowed PEs (slot s lies on pes[s / capacity]).
std::vector<std::int64_t> greedy_construction(const CommMatrix& sym, const refine::SlotSpace& slots,
                                              const Topology& topology, std::span<const PE> pes, int threads,
                                              SlotSearch search = SlotSearch::Automatic);

}  // namespace tmap::ohtma
