// An addressable max-heap of a graph's vertices by key (a move's gain),
// for the bisections' Fiduccia-Mattheyses passes and greedy growing: each
// vertex is in it at most once and its key changes in place, so a pass
// does a sift per gain update instead of a push of a new entry (a lazy
// heap of stale entries grows with every update and pops each of them
// again). The keys live in the caller's array (the gains it keeps anyway);
// the heap holds a copy of each entry's key beside its vertex, so that a
// sift compares what it reads in one place, and gives each node four
// children (a sift down reads one cache line of them and a heap has half
// the levels of a binary one): 4 bytes a vertex of the graph and 16 a
// vertex in the heap. Ties go to the lowest vertex, as std::priority_queue
// of (key, -vertex) pairs: a strict order, so the order of moves does not
// depend on how the heap is built (treematch took 0.83-0.95x its time on
// 4,096-16,384 ranks of Tianhe-3 and a tleaf than with a binary heap of
// vertices reading their keys from the caller's array, the same mappings;
// benchmarks/results/speed.md).
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
    for (const auto& entry : heap_) where_[static_cast<std::size_t>(entry.vertex)] = kAbsent;
    heap_.clear();
    heap_.reserve(vertices.size());
    for (const auto v : vertices) {
      where_[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(heap_.size());
      heap_.push_back({(*keys_)[static_cast<std::size_t>(v)], v});
    }
    if (heap_.size() > 1) {
      for (auto k = (heap_.size() - 2) / kArity + 1; k-- > 0;) sift_down(k);
    }
  }

  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] bool contains(std::int64_t v) const { return where_[static_cast<std::size_t>(v)] != kAbsent; }
  /// The vertex of the highest key (the lowest such vertex); the heap is not empty.
  [[nodiscard]] std::int64_t top() const { return heap_.front().vertex; }

  /// Inserts `v`, or puts it back in order after its key changed.
  void update(std::int64_t v) {
    const Volume key = (*keys_)[static_cast<std::size_t>(v)];
    const auto at = where_[static_cast<std::size_t>(v)];
    if (at == kAbsent) {
      heap_.push_back({key, static_cast<std::int32_t>(v)});
      sift_up(heap_.size() - 1);
      return;
    }
    auto& entry = heap_[static_cast<std::size_t>(at)];
    const Volume old = entry.key;
    entry.key = key;
    // The vertex stays, so its place moves only the way its key did.
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
    const Entry last = heap_.back();
    heap_.pop_back();
    if (static_cast<std::size_t>(at) == heap_.size()) return;
    const Entry gone = heap_[static_cast<std::size_t>(at)];
    heap_[static_cast<std::size_t>(at)] = last;
    where_[static_cast<std::size_t>(last.vertex)] = at;
    if (above(last, gone)) {
      sift_up(static_cast<std::size_t>(at));
    } else {
      sift_down(static_cast<std::size_t>(at));
    }
  }

  /// Removes and returns the top vertex; the heap is not empty.
  std::int64_t pop() {
    const std::int64_t v = heap_.front().vertex;
    where_[static_cast<std::size_t>(v)] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = last;
      sift_down(0);
    }
    return v;
  }

 private:
  static constexpr std::int32_t kAbsent = -1;
  static constexpr std::size_t kArity = 4;

  struct Entry {
    Volume key;
    std::int32_t vertex;
  };

  /// a goes above b: a higher key, or the same key and a lower vertex.
  [[nodiscard]] static bool above(const Entry& a, const Entry& b) {
    return a.key > b.key || (a.key == b.key && a.vertex < b.vertex);
  }
  void place(std::size_t at, const Entry& entry) {
    heap_[at] = entry;
    where_[static_cast<std::size_t>(entry.vertex)] = static_cast<std::int32_t>(at);
  }
  void sift_up(std::size_t at) {
    const Entry entry = heap_[at];
    while (at > 0) {
      const std::size_t parent = (at - 1) / kArity;
      if (!above(entry, heap_[parent])) break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, entry);
  }
  void sift_down(std::size_t at) {
    const Entry entry = heap_[at];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = kArity * at + 1;
      if (first >= n) break;
      const std::size_t end = first + kArity < n ? first + kArity : n;
      std::size_t best = first;
      for (std::size_t child = first + 1; child < end; ++child) {
        if (above(heap_[child], heap_[best])) best = child;
      }
      if (!above(heap_[best], entry)) break;
      place(at, heap_[best]);
      at = best;
    }
    place(at, entry);
  }

  const std::vector<Volume>* keys_;
  std::vector<Entry> heap_;          ///< vertices and their keys, heap-ordered
  std::vector<std::int32_t> where_;  ///< each vertex's place in heap_, or kAbsent
};

}  // namespace tmap::strategies::detail
