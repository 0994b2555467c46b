// Scotch decomposition-defined targets ("deco 0"): terminals with weights
// and domain numbers in a bisection tree (root 1, children 2d and 2d+1), then
// the terminal-to-terminal distance map (lower triangle, in list order).
// Used to hand Scotch any machine with its exact distances.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::topo {

/// Domain numbers of `count` terminals listed in machine order, bisected
/// recursively (first half the larger), so Scotch splits along the order.
std::vector<std::int64_t> bisection_domains(std::int64_t count);

/// The text of a deco 0 target. Terminals are listed in `order` (bisected
/// in that order): the k-th listed is terminal order[k], with label
/// order[k], weight weights[order[k]], and distance(a, b) (>= 1 for a != b,
/// terminal indices) to the others.
std::string format_deco0(const std::vector<std::int64_t>& order, const std::vector<std::int64_t>& weights,
                         const std::function<Distance(std::int64_t, std::int64_t)>& distance);

/// The same with labels of one's own: the k-th listed terminal has label
/// labels[k] (distinct, >= 0; e.g. node ids, which scotch_gmap then writes
/// in its .map), weight weights[k] and distance(i, j) between list indices.
std::string format_deco0_labelled(const std::vector<std::int64_t>& labels, const std::vector<std::int64_t>& weights,
                                  const std::function<Distance(std::int64_t, std::int64_t)>& distance);

}  // namespace tmap::topo
