// Distances among a fixed list of PEs (the allowed ones), by local index.
// Strategies ask for millions of distances; a compact matrix (uint8/16/32,
// chosen from the largest distance) turns each into one load when m^2 fits
// the budget, otherwise the topology computes them in O(1) or O(levels).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "tmap/topology.hpp"

namespace tmap::detail {

/// Entries a dense matrix may hold (256 MiB as uint8).
inline constexpr std::int64_t kDenseDistanceBudget = std::int64_t{1} << 28;

template <typename T>
class DenseDistances {
 public:
  DenseDistances(const Topology& topology, std::span<const PE> pes, int threads)
      : m_(static_cast<std::int64_t>(pes.size())), d_(static_cast<std::size_t>(m_ * m_)) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
    for (std::int64_t u = 0; u < m_; ++u) {
      T* row = d_.data() + u * m_;
      for (std::int64_t v = 0; v < m_; ++v) row[v] = static_cast<T>(topology.distance(pes[u], pes[v]));
    }
  }
  [[nodiscard]] Distance operator()(std::int64_t u, std::int64_t v) const noexcept { return d_[u * m_ + v]; }
  [[nodiscard]] const T* row(std::int64_t u) const noexcept { return d_.data() + u * m_; }
  [[nodiscard]] std::int64_t size() const noexcept { return m_; }

 private:
  std::int64_t m_;
  std::vector<T> d_;
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
template <typename F>
decltype(auto) with_distances(const Topology& topology, std::span<const PE> pes, int threads, F&& f) {
  const auto m = static_cast<std::int64_t>(pes.size());
  const Distance largest = topology.max_distance();
  if (m * m <= kDenseDistanceBudget) {
    if (largest <= std::numeric_limits<std::uint8_t>::max()) {
      return f(DenseDistances<std::uint8_t>(topology, pes, threads));
    }
    if (largest <= std::numeric_limits<std::uint16_t>::max()) {
      return f(DenseDistances<std::uint16_t>(topology, pes, threads));
    }
    if (largest <= std::numeric_limits<std::uint32_t>::max()) {
      return f(DenseDistances<std::uint32_t>(topology, pes, threads));
    }
  }
  return f(TopologyDistances(topology, pes));
}

}  // namespace tmap::detail

/// Instantiates X(Oracle) for every oracle with_distances() may pass, for
/// explicit template instantiation in .cpp files.
#define TMAP_FOR_EACH_DISTANCE_ORACLE(X)            \
  X(::tmap::detail::DenseDistances<std::uint8_t>)   \
  X(::tmap::detail::DenseDistances<std::uint16_t>)  \
  X(::tmap::detail::DenseDistances<std::uint32_t>)  \
  X(::tmap::detail::TopologyDistances)
