// A machine given by its distances: Scotch deco 0/1 targets (terminals with
// weights and a terminal distance map) and `.dist` files (n, then an n x n
// matrix, e.g. measured latencies or a QAP distance matrix).
//
// Each terminal is one PE, numbered by its Scotch label, so mappings read
// and written as Scotch .map files agree with scotch_gmap. Terminal weights
// (Scotch's processing capacities, e.g. cores per node in tm-topo's Tianhe-3
// targets) are kept for saving; how many ranks a PE holds is -o K.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tmap/topology.hpp"

namespace tmap::topo {

class DistanceMatrixTopology final : public Topology {
 public:
  /// `distances` is terminals x terminals, symmetric, zero diagonal.
  DistanceMatrixTopology(std::vector<std::int64_t> weights, std::vector<std::uint32_t> distances, std::string kind);

  [[nodiscard]] PE size() const override { return terminals_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override {
    return d_[static_cast<std::size_t>(a * terminals_ + b)];
  }
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] std::string kind() const override { return kind_; }
  [[nodiscard]] std::string description() const override;
  /// A deco 0 target (needs every distance between distinct terminals >= 1).
  [[nodiscard]] std::string to_tgt() const override;

  [[nodiscard]] std::int64_t terminals() const noexcept { return terminals_; }
  [[nodiscard]] std::int64_t weight(std::int64_t terminal) const noexcept { return weights_[terminal]; }

 private:
  std::int64_t terminals_;
  std::vector<std::uint32_t> d_;
  std::vector<std::int64_t> weights_;
  Distance max_distance_ = 0;
  std::string kind_;
};

/// Parses a `.dist` file: n, then n rows of n non-negative integers,
/// symmetric with a zero diagonal (checked, with line numbers).
std::unique_ptr<Topology> parse_dist(std::string_view text, const std::string& origin);

}  // namespace tmap::topo
