// tm-sim --app replay: the traffic of -c as the replay proxy reads it
// (proxies/replay.c: an index of each rank's section, then the sections).
#pragma once

#include <string>

#include "tmap/comm_matrix.hpp"

namespace tmap::cli {

/// replay.txt for `bytes` (A[i][j] = bytes i sends j) and, when recorded,
/// `messages` (the messages that carried them; null or a pair missing from
/// it: one message). A traffic with phases is replayed phase by phase, a
/// message of a phase's bytes each time it runs (`messages` unused). The
/// diagonal (a rank to itself) is left out: it never crosses a link.
[[nodiscard]] std::string replay_traffic(const CommMatrix& bytes, const CommMatrix* messages);

}  // namespace tmap::cli
