#include "topology/tianhe3_recognise.hpp"

#include <algorithm>
#include <vector>

#include "topology/kinds/sub.hpp"
#include "topology/tianhe3.hpp"

namespace tmap::topo {

namespace {

/// Largest node id considered: the shape search is linear in it.
constexpr std::int64_t kMaxLabel = std::int64_t{1} << 22;

/// Hops between nodes a and b of a machine with `half` nodes per chip side
/// and `cols` chip columns (the contract's formula).
Distance hops(std::int64_t a, std::int64_t b, std::int64_t half, std::int64_t cols) {
  if (a == b) return 0;
  const auto chip_a = a / (2 * half);
  const auto chip_b = b / (2 * half);
  const Distance side = ((a % (2 * half)) / half) != ((b % (2 * half)) / half) ? 1 : 0;
  if (chip_a == chip_b) return 1 + side;
  const Distance row = (chip_a / cols) != (chip_b / cols) ? 2 : 0;
  const Distance col = (chip_a % cols) != (chip_b % cols) ? 2 : 0;
  return 1 + side + row + col;
}

class Matcher {
 public:
  explicit Matcher(const DistanceMatrixTopology& deco) : deco_(deco), labels_(deco.labels()) {}

  /// Within-chip distances only (1 and 2) against a half size: the
  /// cheap filter of the shape search, on neighbours in label order and on
  /// the first node's row.
  [[nodiscard]] bool halves_match(std::int64_t half) const {
    return sampled([&](std::int64_t i, std::int64_t j) {
      const auto d = deco_.terminal_distance(i, j);
      const bool same_chip = labels_[i] / (2 * half) == labels_[j] / (2 * half);
      if (!same_chip) return d >= 3;
      return d == ((labels_[i] / half) == (labels_[j] / half) ? 1 : 2);
    });
  }
  [[nodiscard]] bool sampled_match(std::int64_t half, std::int64_t cols) const {
    return sampled([&](std::int64_t i, std::int64_t j) {
      return deco_.terminal_distance(i, j) == hops(labels_[i], labels_[j], half, cols);
    });
  }
  [[nodiscard]] bool full_match(std::int64_t half, std::int64_t cols) const {
    const auto t = deco_.terminals();
    for (std::int64_t i = 1; i < t; ++i) {
      for (std::int64_t j = 0; j < i; ++j) {
        if (deco_.terminal_distance(i, j) != hops(labels_[i], labels_[j], half, cols)) return false;
      }
    }
    return true;
  }

 private:
  template <typename Check>
  bool sampled(Check&& check) const {
    const auto t = deco_.terminals();
    for (std::int64_t i = 1; i < t; ++i) {
      if (!check(i - 1, i) || !check(0, i)) return false;
    }
    return true;
  }
  const DistanceMatrixTopology& deco_;
  const std::vector<std::int64_t>& labels_;
};

}  // namespace

std::unique_ptr<Topology> recognise_tianhe3(const DistanceMatrixTopology& deco) {
  const auto t = deco.terminals();
  const auto cores = deco.weight(0);
  const auto& labels = deco.labels();
  if (t < 2 || deco.max_distance() > 6 || labels.back() >= kMaxLabel) return nullptr;
  for (std::int64_t k = 0; k < t; ++k) {
    if (deco.weight(k) != cores) return nullptr;
  }
  const Matcher matcher(deco);
  const auto span = labels.back() + 1;
  for (std::int64_t half = 1; half <= span; ++half) {
    if (!matcher.halves_match(half)) continue;
    const auto chips = (span + 2 * half - 1) / (2 * half);
    // Widest first: two chips read as 1x2 (as tm-topo --rows 1 --cols 2
    // wrote them) rather than the equivalent 2x1.
    for (std::int64_t cols = chips; cols >= 1; --cols) {
      if (!matcher.sampled_match(half, cols) || !matcher.full_match(half, cols)) continue;
      Tianhe3Shape shape;
      shape.cols = cols;
      shape.rows = (chips + cols - 1) / cols;
      shape.nodes = 2 * half;
      shape.cores = cores;
      auto machine = std::make_unique<Tianhe3Topology>(shape);
      const bool whole = t == machine->num_nodes();  // labels are distinct and below num_nodes
      if (whole) return machine;
      std::vector<PE> pes;
      pes.reserve(static_cast<std::size_t>(t * cores));
      for (const auto node : labels) {
        for (std::int64_t c = 0; c < cores; ++c) pes.push_back(node * cores + c);
      }
      return std::make_unique<SubTopology>(std::move(machine), std::move(pes), true);
    }
  }
  return nullptr;
}

}  // namespace tmap::topo
