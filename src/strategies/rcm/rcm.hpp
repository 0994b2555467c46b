// Reverse Cuthill-McKee mapping (Hoefler and Snir 2011), the OHTMA paper's
// "RCM" baseline: order the ranks by RCM on the communication graph, order
// the sites by RCM on the machine graph, and fill the sites in their order
// with the ranks in theirs. Bandwidth-reducing orders put neighbours close
// together in both graphs, so neighbours land close together.
//
// The machine graph joins two sites when they are at most t apart, t being
// the smallest distance at which that graph is connected (on meshes and tori
// exactly the links; on Tianhe-3 the nodes of one row or column). On more
// than kCompactRcmSites sites only the first ones holding 4x the ranks are
// ordered; beyond kMaxRcmSites of those, whose O(S^2) graph is too costly,
// the sites keep the topology's numbering.
#pragma once

#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// Most sites ordered by RCM (the machine's side costs O(S^2) distances:
/// 16,384 sites took 34 s, 4,096 take about 2 s); beyond, the sites keep
/// the topology's order.
inline constexpr std::int64_t kMaxRcmSites = 4096;
/// Above this many sites, a job orders only the first sites holding 4x its
/// ranks (the machine's numbering keeps them together).
inline constexpr std::int64_t kCompactRcmSites = 1024;

/// The reverse Cuthill-McKee order of an undirected graph given by `sym`
/// (symmetric): each component from a pseudo-peripheral vertex (George and
/// Liu), neighbours by increasing degree then id; components by lowest id.
[[nodiscard]] std::vector<Rank> rcm_order(const CommMatrix& sym);

class RcmMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
