// Basic identifiers and quantities used across tmap.
#pragma once

#include <cstdint>

#include "tmap/export.h"

TMAP_API_BEGIN

namespace tmap {

/// A process (MPI rank), numbered 0..n-1.
using Rank = std::int64_t;
/// A processing element of a topology, numbered 0..N-1.
using PE = std::int64_t;
/// Bytes exchanged between two ranks. Always >= 0.
using Volume = std::int64_t;
/// Distance between two PEs (hops, or a Scotch link cost). Always >= 0.
using Distance = std::int64_t;
/// Most ranks a communication matrix may have (2^24: 16.7 million, 16x the
/// largest jobs we test; its row index then takes 128 MiB). Readers refuse
/// larger declared sizes before allocating anything.
inline constexpr std::int64_t kMaxRanks = std::int64_t{1} << 24;

/// Most PEs a machine may have (2^21: 2.1 million, 1.3x a full 16x16-chip
/// Tianhe-3 of 64-core nodes). Topologies are refused above it before
/// anything is allocated per PE, so that every strategy stays within
/// seconds and a few GB even for a small job on the largest machine.
inline constexpr std::int64_t kMaxPEs = std::int64_t{1} << 21;

/// A compute node of a topology (a group of PEs that share a host).
using NodeId = std::int64_t;

}  // namespace tmap

TMAP_API_END
