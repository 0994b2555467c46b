// Scotch terminals of weight w as nodes of w PEs (contract section 4: "a
// terminal of weight w is a node of w slots"). PEs are numbered terminal by
// terminal: terminal t holds PEs first(t) .. first(t) + weight(t) - 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/types.hpp"

namespace tmap::topo {

class TerminalSlots {
 public:
  /// `what` names the target in the refusal above kMaxPEs PEs.
  TerminalSlots(const std::vector<std::int64_t>& weights, const std::string& what) {
    first_.reserve(weights.size() + 1);
    first_.push_back(0);
    for (const auto w : weights) {
      if (w < 1) throw InputError(what + ": terminal weights must be at least 1");
      if (first_.back() + w > kMaxPEs) {
        throw InputError(what + ": the terminal weights add up to more than " + std::to_string(kMaxPEs) +
                         " PEs (each unit of weight is one PE, one slot of a node)");
      }
      first_.push_back(first_.back() + w);
    }
    uniform_ = weights.empty() ? 1 : weights.front();
    for (const auto w : weights) {
      if (w != uniform_) uniform_ = 0;
    }
  }
  [[nodiscard]] PE size() const noexcept { return first_.back(); }
  [[nodiscard]] std::int64_t terminals() const noexcept { return static_cast<std::int64_t>(first_.size()) - 1; }
  [[nodiscard]] std::int64_t weight(std::int64_t t) const noexcept { return first_[t + 1] - first_[t]; }
  [[nodiscard]] PE first(std::int64_t t) const noexcept { return first_[t]; }
  /// The terminal holding a PE: O(1) with equal weights, O(log T) otherwise.
  [[nodiscard]] std::int64_t terminal_of(PE pe) const noexcept {
    if (uniform_ > 0) return pe / uniform_;
    return static_cast<std::int64_t>(std::upper_bound(first_.begin(), first_.end(), pe) - first_.begin()) - 1;
  }
  [[nodiscard]] std::int64_t slot_of(PE pe) const noexcept { return pe - first_[terminal_of(pe)]; }
  /// The common weight, or 0 when weights differ.
  [[nodiscard]] std::int64_t uniform_weight() const noexcept { return uniform_; }

 private:
  std::vector<PE> first_;
  std::int64_t uniform_ = 1;
};

}  // namespace tmap::topo
