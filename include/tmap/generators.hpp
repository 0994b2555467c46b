// Synthetic communication patterns (tm-gen, tests, benchmarks). All
// deterministic: the same arguments give the same matrix.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/export.h"

TMAP_API_BEGIN

namespace tmap::gen {

/// A stencil on a grid of dims[0] x dims[1] (x dims[2]) ranks, rank id =
/// x + X*(y + Y*z) (row-major, x fastest). Every rank sends `volume` bytes to
/// each neighbour. `points`: 5 or 9 in 2D, 7 or 27 in 3D (the rank itself
/// included, as the stencils are named). `periodic` wraps the grid (a torus).
/// `axis_volumes` (one per dimension) overrides `volume` for the face
/// neighbours along each axis: asymmetric halos (x = a row's neighbours).
[[nodiscard]] CommMatrix stencil(const std::vector<std::int64_t>& dims, int points, Volume volume,
                                 bool periodic = false, const std::vector<Volume>& axis_volumes = {});

/// A random symmetric sparse pattern: each rank picks `degree` distinct
/// partners uniformly; each chosen pair exchanges a volume drawn uniformly
/// from [1, max_volume] in both directions.
[[nodiscard]] CommMatrix random_sparse(Rank n, std::int64_t degree, Volume max_volume, std::uint64_t seed);

/// Application-like patterns, bytes per iteration (models in docs/formats.md):
/// "cg" (power of two), "bt" and "sp" (square counts), "lu", "mg" (powers of
/// two), "ft" (all-to-all), "sweep3d", "snap". `npb_class` S, W, A, B, C, D
/// or E sets the NPB problem size (the transport codes scale weakly and
/// ignore it). InputError on a count the code does not run with.
/// `with_phases`: the matrix carries its phases, in the order the code (and
/// its proxy in tools/tm-sim/proxies) runs them: an all-reduce's steps, a
/// sweep's octants, each pipelined step repeated (CommMatrix::phases).
[[nodiscard]] CommMatrix app_pattern(std::string_view name, Rank ranks, char npb_class = 'D', bool with_phases = false);
/// The names app_pattern knows.
[[nodiscard]] const std::vector<std::string>& app_patterns();

/// Renumbers ranks by a random permutation pi from `seed`: B[pi(i)][pi(j)] =
/// A[i][j]. Same traffic, different numbering (to test order invariance);
/// its phases renumbered alike.
[[nodiscard]] CommMatrix shuffle_ranks(const CommMatrix& comm, std::uint64_t seed);

/// The permutation shuffle_ranks(comm, seed) applies (new id of rank i).
[[nodiscard]] std::vector<Rank> shuffle_permutation(Rank n, std::uint64_t seed);

}  // namespace tmap::gen

TMAP_API_END
