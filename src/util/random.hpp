// Reproducible randomness: the same (seed, stream) gives the same numbers on
// every platform and at any thread count. std::shuffle and the standard
// distributions are implementation-defined, so we do not use them.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

#include "util/int128.hpp"

namespace tmap::detail {

/// SplitMix64: tiny, fast, good enough for tie-breaking and shuffles.
class Random {
 public:
  explicit Random(std::uint64_t seed, std::uint64_t stream = 0) noexcept
      : state_(seed ^ (stream * 0x9E3779B97F4A7C15ULL + 0xD1B54A32D192ED03ULL)) {}

  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, bound) without modulo bias (Lemire's method). bound > 0.
  std::uint64_t below(std::uint64_t bound) noexcept {
    UInt128 product = static_cast<UInt128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (low < threshold) {
        product = static_cast<UInt128>(next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  /// Fisher-Yates shuffle.
  template <typename T>
  void shuffle(std::span<T> items) noexcept {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace tmap::detail
