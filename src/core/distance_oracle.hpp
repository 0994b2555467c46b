// Distances among a fixed list of PEs (the allowed ones), by local index.
// Strategies ask for millions of distances; a compact matrix (uint8/16/32,
// chosen from the largest distance) turns each into one load when m^2 fits
// the budget, otherwise the topology computes them in O(1) or O(levels).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::detail {

/// Entries a dense matrix may hold (256 MiB as uint8).
inline constexpr std::int64_t kDenseDistanceBudget = std::int64_t{1} << 28;

template <typename T>
class DenseDistances {
 public:
  DenseDistances(const Topology& topology, std::span<const PE> pes, int threads)
      : m_(static_cast<std::int64_t>(pes.size())), d_(static_cast<std::size_t>(m_ * m_)) {
#pragma omp parallel num_threads(threads)
    {
      std::vector<Distance> full(static_cast<std::size_t>(m_));
#pragma omp for schedule(dynamic, 16)
      for (std::int64_t u = 0; u < m_; ++u) {
        topology.distances_from(pes[u], pes, full);
        T* row = d_.data() + u * m_;
        for (std::int64_t v = 0; v < m_; ++v) row[v] = static_cast<T>(full[static_cast<std::size_t>(v)]);
      }
    }
  }
  [[nodiscard]] Distance operator()(std::int64_t u, std::int64_t v) const noexcept {
    return d_[u * m_ + v];
  }
  [[nodiscard]] const T* row(std::int64_t u) const noexcept {
    return d_.data() + u * m_;
  }
  [[nodiscard]] std::int64_t size() const noexcept {
    return m_;
  }

 private:
  std::int64_t m_;
  std::vector<T> d_;
};

/// Distances through nodes, for topologies whose distances only the nodes
/// decide (Topology::node_uniform_distance): an L x L matrix over the
/// allowed nodes (diagonal = the intra-node distance) and each PE's node.
/// Exact, and far smaller than the PE matrix when nodes hold many PEs.
/// The allowed PEs grouped by node, the one grouping every search uses:
/// local node numbers 0..L-1 in increasing order of the topology's node ids,
/// and per local node the first allowed PE on it (its representative).
struct LocalNodes {
  std::vector<std::int64_t> of_pe;  ///< allowed PE index -> local node
  std::vector<PE> representative;   ///< local node -> a PE on it
};

inline LocalNodes group_by_node(const Topology& topology, std::span<const PE> pes) {
  std::vector<std::pair<NodeId, std::size_t>> order;
  order.reserve(pes.size());
  for (std::size_t u = 0; u < pes.size(); ++u) order.emplace_back(topology.node_of(pes[u]), u);
  std::sort(order.begin(), order.end());
  LocalNodes nodes;
  nodes.of_pe.resize(pes.size());
  NodeId last = -1;
  for (const auto& [node, u] : order) {
    if (nodes.representative.empty() || node != last) {
      nodes.representative.push_back(pes[u]);
      last = node;
    }
    nodes.of_pe[u] = static_cast<std::int64_t>(nodes.representative.size()) - 1;
  }
  return nodes;
}

template <typename T>
class NodeDistances {
 public:
  NodeDistances(const Topology& topology, std::span<const PE> pes, Distance intra, int threads) : node_of_(pes.size()) {
    const auto grouped = group_by_node(topology, pes);
    const auto& representative = grouped.representative;
    for (std::size_t u = 0; u < pes.size(); ++u) node_of_[u] = static_cast<std::int32_t>(grouped.of_pe[u]);
    nodes_ = static_cast<std::int64_t>(representative.size());
    d_.resize(static_cast<std::size_t>(nodes_ * nodes_));
#pragma omp parallel num_threads(threads)
    {
      std::vector<Distance> full(static_cast<std::size_t>(nodes_));
#pragma omp for schedule(dynamic, 16)
      for (std::int64_t a = 0; a < nodes_; ++a) {
        topology.distances_from(representative[a], representative, full);
        for (std::int64_t b = 0; b < nodes_; ++b) {
          d_[a * nodes_ + b] = static_cast<T>(a == b ? intra : full[static_cast<std::size_t>(b)]);
        }
      }
    }
  }
  [[nodiscard]] Distance operator()(std::int64_t u, std::int64_t v) const noexcept {
    return u == v ? 0 : d_[node_of_[u] * nodes_ + node_of_[v]];
  }
  /// PE u's node, numbered as group_by_node numbers them.
  [[nodiscard]] std::int64_t node_of(std::int64_t u) const noexcept {
    return node_of_[static_cast<std::size_t>(u)];
  }
  [[nodiscard]] std::int64_t size() const noexcept {
    return static_cast<std::int64_t>(node_of_.size());
  }
  /// Nodes, and the distance between PEs of nodes a and b (a == b: two
  /// distinct PEs of one node).
  [[nodiscard]] std::int64_t nodes() const noexcept {
    return nodes_;
  }
  [[nodiscard]] Distance between_nodes(std::int64_t a, std::int64_t b) const noexcept {
    return d_[static_cast<std::size_t>(a * nodes_ + b)];
  }

 private:
  std::vector<std::int32_t> node_of_;
  std::int64_t nodes_ = 0;
  std::vector<T> d_;
};

/// Distances on a mesh or torus from each PE's coordinates: the Manhattan
/// distance, around the wrap on tori, as the topology computes it. Each PE's
/// coordinates are four 16-bit numbers side by side (axes past the grid's
/// are 0), and an axis without a wrap wraps past any coordinate, so that a
/// distance is one branch-free loop of four steps (about as fast as a table
/// that fits the cache, and none to build or hold).
class GridDistances {
 public:
  GridDistances(const Topology& topology, std::span<const PE> pes, const std::vector<std::int64_t>& extent, bool wraps)
      : coords_(pes.size()) {
    for (std::size_t k = 0; k < kAxes; ++k) {
      wrap_[k] = wraps && k < extent.size() ? static_cast<std::int32_t>(extent[k]) : kNoWrap;
    }
    std::vector<std::int64_t> c;
    for (std::size_t u = 0; u < pes.size(); ++u) {
      (void)grid_coordinates(topology, pes[u], c);
      for (std::size_t k = 0; k < c.size() && k < kAxes; ++k) coords_[u][k] = static_cast<std::uint16_t>(c[k]);
    }
  }
  /// Grids whose coordinates fit 16 bits, up to 4 axes.
  static bool fits(const std::vector<std::int64_t>& extent) {
    return !extent.empty() && extent.size() <= kAxes && std::all_of(extent.begin(), extent.end(), [](std::int64_t l) {
      return l >= 1 && l <= std::numeric_limits<std::uint16_t>::max();
    });
  }
  [[nodiscard]] Distance operator()(std::int64_t u, std::int64_t v) const noexcept {
    const auto& a = coords_[static_cast<std::size_t>(u)];
    const auto& b = coords_[static_cast<std::size_t>(v)];
    std::int32_t total = 0;
    for (std::size_t k = 0; k < kAxes; ++k) {
      const std::int32_t delta = std::abs(std::int32_t{a[k]} - std::int32_t{b[k]});
      total += std::min(delta, wrap_[k] - delta);
    }
    return total;
  }
  [[nodiscard]] std::int64_t size() const noexcept { return static_cast<std::int64_t>(coords_.size()); }

 private:
  static constexpr std::size_t kAxes = 4;
  /// Past any difference of two 16-bit coordinates: min(delta, it - delta) = delta.
  static constexpr std::int32_t kNoWrap = 1 << 20;
  std::array<std::int32_t, kAxes> wrap_{};
  std::vector<std::array<std::uint16_t, kAxes>> coords_;
};

class TopologyDistances {
 public:
  TopologyDistances(const Topology& topology, std::span<const PE> pes) : topology_(topology), pes_(pes) {}
  [[nodiscard]] Distance operator()(std::int64_t u, std::int64_t v) const {
    return topology_.distance(pes_[u], pes_[v]);
  }
  [[nodiscard]] std::int64_t size() const noexcept { return static_cast<std::int64_t>(pes_.size()); }

 private:
  const Topology& topology_;
  std::span<const PE> pes_;
};

/// Calls f(oracle) with the fastest oracle for these PEs. f is instantiated
/// once per oracle type, so the hot loops are specialised for each.
/// `byte_budget`: how many entries a one-byte table may have (wider tables
/// keep kDenseDistanceBudget); a caller that reads the table O(n) times per
/// step raises it (ohtma's node picker at a million ranks). `grid_budget`:
/// past how many entries a mesh or torus gives its distances from the PEs'
/// coordinates rather than a table (by default only where no table fits).
template <typename F>
decltype(auto) with_distances(const Topology& topology, std::span<const PE> pes, int threads, F&& f,
                              std::int64_t byte_budget = kDenseDistanceBudget,
                              std::int64_t grid_budget = std::numeric_limits<std::int64_t>::max()) {
  const auto m = static_cast<std::int64_t>(pes.size());
  const Distance largest = topology.max_distance();
  // Nodes holding several allowed PEs: the node matrix is exact and smaller.
  if (const auto intra = topology.node_uniform_distance(); intra && topology.num_nodes() < topology.size()) {
    std::vector<NodeId> nodes;
    for (const PE p : pes) nodes.push_back(topology.node_of(p));
    std::sort(nodes.begin(), nodes.end());
    const auto count = static_cast<std::int64_t>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
    const bool bytes = largest <= std::numeric_limits<std::uint8_t>::max();
    if (count < m && count * count <= (bytes ? byte_budget : kDenseDistanceBudget) && m < (std::int64_t{1} << 31)) {
      if (bytes) return f(NodeDistances<std::uint8_t>(topology, pes, *intra, threads));
      if (largest <= std::numeric_limits<std::uint32_t>::max()) {
        return f(NodeDistances<std::uint32_t>(topology, pes, *intra, threads));
      }
    }
  }
  // Meshes and tori whose table would pass `grid_budget` entries: from the
  // coordinates (the caller knows whether its loops read a table or
  // coordinates faster).
  std::vector<std::int64_t> extent;
  bool wraps = false;
  const bool grid = grid_extent(topology, extent, wraps) && GridDistances::fits(extent);
  if (grid && m * m > grid_budget) {
    return f(GridDistances(topology, pes, extent, wraps));
  }
  if (largest <= std::numeric_limits<std::uint8_t>::max() && m * m <= byte_budget) {
    return f(DenseDistances<std::uint8_t>(topology, pes, threads));
  }
  if (m * m <= kDenseDistanceBudget) {
    if (largest <= std::numeric_limits<std::uint16_t>::max()) {
      return f(DenseDistances<std::uint16_t>(topology, pes, threads));
    }
    if (largest <= std::numeric_limits<std::uint32_t>::max()) {
      return f(DenseDistances<std::uint32_t>(topology, pes, threads));
    }
  }
  // Meshes and tori too large for a table: from the coordinates.
  if (grid) return f(GridDistances(topology, pes, extent, wraps));
  return f(TopologyDistances(topology, pes));
}

}  // namespace tmap::detail

/// Instantiates X(Oracle) for every oracle with_distances() may pass, for
/// explicit template instantiation in .cpp files.
#define TMAP_FOR_EACH_DISTANCE_ORACLE(X)           \
  X(::tmap::detail::DenseDistances<std::uint8_t>)  \
  X(::tmap::detail::DenseDistances<std::uint16_t>) \
  X(::tmap::detail::DenseDistances<std::uint32_t>) \
  X(::tmap::detail::NodeDistances<std::uint8_t>)   \
  X(::tmap::detail::NodeDistances<std::uint32_t>)  \
  X(::tmap::detail::GridDistances)                 \
  X(::tmap::detail::TopologyDistances)
