// An addressable max-heap of a graph's vertices by key (a move's gain),
// for the bisections' Fiduccia-Mattheyses passes and greedy growing: each
// vertex is in it at most once and its key changes in place, so a pass
// does a sift per gain update instead of a push of a new entry (a lazy
// heap of stale entries grows with every update and pops each of them
// again). Ties go to the lowest vertex, as std::priority_queue of
// (key, -vertex) pairs: the order of moves does not depend on which heap.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::strategies::detail {

class GainHeap {
 public:
  /// A heap of the vertices 0..n-1, empty.
  explicit GainHeap(std::int64_t n) : where_(static_cast<std::size_t>(n), kAbsent), key_(static_cast<std::size_t>(n)) {}

  /// Replaces the contents by `entries` (vertex, key), heapified at once;
  /// each vertex at most once.
  void assign(const std::vector<std::pair<std::int32_t, Volume>>& entries) {
    for (const auto v : heap_) where_[static_cast<std::size_t>(v)] = kAbsent;
    heap_.clear();
    heap_.reserve(entries.size());
    for (const auto& [v, key] : entries) {
      where_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(heap_.size());
      key_[static_cast<std::size_t>(v)] = key;
      heap_.push_back(v);
    }
    for (auto k = static_cast<std::int64_t>(heap_.size()) / 2; k-- > 0;) sift_down(static_cast<std::size_t>(k));
  }

  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] bool contains(std::int64_t v) const { return where_[static_cast<std::size_t>(v)] != kAbsent; }
  /// The vertex of the highest key (the lowest such vertex); the heap is not empty.
  [[nodiscard]] std::int64_t top() const { return heap_.front(); }

  /// Inserts `v` with `key`, or changes its key.
  void set(std::int64_t v, Volume key) {
    const auto at = where_[static_cast<std::size_t>(v)];
    if (at == kAbsent) {
      where_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(heap_.size());
      key_[static_cast<std::size_t>(v)] = key;
      heap_.push_back(static_cast<std::int32_t>(v));
      sift_up(heap_.size() - 1);
      return;
    }
    const Volume old = key_[static_cast<std::size_t>(v)];
    key_[static_cast<std::size_t>(v)] = key;
    if (key > old) {
      sift_up(static_cast<std::size_t>(at));
    } else if (key < old) {
      sift_down(static_cast<std::size_t>(at));
    }
  }

  /// Removes `v` if it is in.
  void erase(std::int64_t v) {
    const auto at = where_[static_cast<std::size_t>(v)];
    if (at == kAbsent) return;
    where_[static_cast<std::size_t>(v)] = kAbsent;
    const auto last = heap_.back();
    heap_.pop_back();
    if (static_cast<std::size_t>(at) == heap_.size()) return;
    heap_[static_cast<std::size_t>(at)] = last;
    where_[static_cast<std::size_t>(last)] = at;
    sift_up(static_cast<std::size_t>(at));
    sift_down(static_cast<std::size_t>(where_[static_cast<std::size_t>(last)]));
  }

  /// Removes and returns the top vertex; the heap is not empty.
  std::int64_t pop() {
    const std::int64_t v = heap_.front();
    erase(v);
    return v;
  }

 private:
  static constexpr std::int32_t kAbsent = -1;

  /// a goes above b: a higher key, or the same key and a lower vertex.
  [[nodiscard]] bool above(std::int32_t a, std::int32_t b) const {
    const Volume ka = key_[static_cast<std::size_t>(a)];
    const Volume kb = key_[static_cast<std::size_t>(b)];
    return ka > kb || (ka == kb && a < b);
  }
  void place(std::size_t at, std::int32_t v) {
    heap_[at] = v;
    where_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(at);
  }
  void sift_up(std::size_t at) {
    const auto v = heap_[at];
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!above(v, heap_[parent])) break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, v);
  }
  void sift_down(std::size_t at) {
    const auto v = heap_[at];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && above(heap_[child + 1], heap_[child])) ++child;
      if (!above(heap_[child], v)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, v);
  }

  std::vector<std::int32_t> heap_;   ///< vertices, heap-ordered
  std::vector<std::int32_t> where_;  ///< each vertex's place in heap_, or kAbsent
  std::vector<Volume> key_;          ///< each vertex's key while it is in
};

}  // namespace tmap::strategies::detail
