// Cray MPICH's rank order files (MPICH_RANK_ORDER, read with
// MPICH_RANK_REORDER_METHOD=3), as HPE documents them and its grid_order
// and CrayPat write them: the ranks in the order of the slots they take,
// separated by commas (or line breaks), runs as ranges "first-last",
// `#` comments. tmap's own files add "# tmap ranks-per-node=K".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::detail {

struct RankOrderFile {
  std::vector<Rank> order;    ///< the ranks, in the order of their slots
  std::int64_t per_node = 0;  ///< ranks per node when the file says (tmap's), else 0
};

/// Whether `text` is a rank order rather than a perm (one PE per line): it
/// says so in tmap's header, or a line lists several values or a range
/// (not JSON, not TopoMatch's line).
[[nodiscard]] bool looks_like_rank_order(std::string_view text);

/// The file's ranks: each of 0..N-1 exactly once. InputError naming the
/// file and line for a token that is not a rank or range, a rank twice, a
/// rank missing, or more than tmap's limit.
[[nodiscard]] RankOrderFile parse_rank_order(std::string_view text, const std::string& origin);

}  // namespace tmap::detail
