// An addressable max-heap of a graph's vertices by key (a move's gain),
// for the bisections' Fiduccia-Mattheyses passes and greedy growing: each
// vertex is in it at most once and its key changes in place, so a pass
// does a sift per gain update instead of a push of a new entry (a lazy
// heap of stale entries grows with every update and pops each of them
// again). The keys live in the caller's array (the gains it keeps anyway):
// 4 bytes a vertex of the graph and 4 a vertex in the heap. Ties go to the
// lowest vertex, as std::priority_queue of (key, -vertex) pairs: the order
// of moves does not depend on which heap.
#pragma once

#include <cstdint>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::strategies::detail {

class GainHeap {
 public:
  /// A heap of the vertices of `keys` (keys[v] is v's key), empty; `keys`
  /// outlives it.
  explicit GainHeap(const std::vector<Volume>& keys) : keys_(&keys), where_(keys.size(), kAbsent) {}

  /// Replaces the contents by `vertices` (each at most once), heapified at once.
  void assign(const std::vector<std::int32_t>& vertices) {
    for (const auto v : heap_) where_[static_cast<std::size_t>(v)] = kAbsent;
    heap_ = vertices;
    for (std::size_t k = 0; k < heap_.size(); ++k)
      where_[static_cast<std::size_t>(heap_[k])] = static_cast<std::int32_t>(k);
    for (auto k = heap_.size() / 2; k-- > 0;) sift_down(k);
  }

  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] bool contains(std::int64_t v) const { return where_[static_cast<std::size_t>(v)] != kAbsent; }
  /// The vertex of the highest key (the lowest such vertex); the heap is not empty.
  [[nodiscard]] std::int64_t top() const { return heap_.front(); }

  /// Inserts `v`, or puts it back in order after its key changed.
  void update(std::int64_t v) {
    const auto at = where_[static_cast<std::size_t>(v)];
    if (at == kAbsent) {
      where_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(heap_.size());
      heap_.push_back(static_cast<std::int32_t>(v));
      sift_up(heap_.size() - 1);
      return;
    }
    sift_up(static_cast<std::size_t>(at));
    sift_down(static_cast<std::size_t>(where_[static_cast<std::size_t>(v)]));
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
    const Volume ka = (*keys_)[static_cast<std::size_t>(a)];
    const Volume kb = (*keys_)[static_cast<std::size_t>(b)];
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

  const std::vector<Volume>* keys_;
  std::vector<std::int32_t> heap_;   ///< vertices, heap-ordered
  std::vector<std::int32_t> where_;  ///< each vertex's place in heap_, or kAbsent
};

}  // namespace tmap::strategies::detail
