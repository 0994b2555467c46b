// The bisections' addressable heap: after any sequence of inserts, key
// changes, erases and pops its top is the highest key, ties to the lowest
// vertex (what the FM passes' order of moves relies on), checked against
// an ordered set of (key, vertex) doing the same operations.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "strategies/common/gain_heap.hpp"

using tmap::Volume;
using tmap::strategies::detail::GainHeap;

namespace {

/// The reference: (key, -vertex) in an ordered set, the last the top.
struct Reference {
  std::set<std::pair<Volume, std::int64_t>> entries;
  std::vector<std::optional<Volume>> key;

  explicit Reference(std::int64_t n) : key(static_cast<std::size_t>(n)) {}
  void set(std::int64_t v, Volume k) {
    erase(v);
    key[static_cast<std::size_t>(v)] = k;
    entries.emplace(k, -v);
  }
  void erase(std::int64_t v) {
    auto& k = key[static_cast<std::size_t>(v)];
    if (k) entries.erase({*k, -v});
    k.reset();
  }
  [[nodiscard]] std::int64_t top() const { return -entries.rbegin()->second; }
};

}  // namespace

TEST(GainHeap, TopIsTheHighestKeyTiesToTheLowestVertex) {
  std::vector<Volume> keys{-1, 0, 7, 0, 7, 3};
  GainHeap heap(keys);
  heap.assign({4, 2, 5, 0});
  EXPECT_EQ(heap.top(), 2);
  keys[5] = 7;
  heap.update(5);
  EXPECT_EQ(heap.pop(), 2);
  EXPECT_EQ(heap.pop(), 4);
  EXPECT_EQ(heap.pop(), 5);
  EXPECT_FALSE(heap.contains(5));
  keys[3] = -1;
  heap.update(3);  // inserted: ties with 0, which is lower
  EXPECT_EQ(heap.pop(), 0);
  EXPECT_EQ(heap.pop(), 3);
  EXPECT_TRUE(heap.empty());
}

TEST(GainHeap, AgreesWithAnOrderedSetOverRandomOperations) {
  constexpr std::int64_t kVertices = 200;
  std::mt19937_64 random(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<Volume> keys(kVertices, 0);
    GainHeap heap(keys);
    Reference reference(kVertices);
    std::vector<std::int32_t> start;
    for (std::int32_t v = 0; v < kVertices; v += 1 + static_cast<std::int32_t>(random() % 3)) {
      // Few distinct keys: many ties.
      keys[static_cast<std::size_t>(v)] = static_cast<Volume>(random() % 9) - 4;
      start.push_back(v);
      reference.set(v, keys[static_cast<std::size_t>(v)]);
    }
    heap.assign(start);
    for (int op = 0; op < 3000; ++op) {
      const auto v = static_cast<std::int64_t>(random() % kVertices);
      switch (random() % 4) {
        case 0:
        case 1: {
          // A key changes (the heap told), or an absent vertex comes in.
          keys[static_cast<std::size_t>(v)] = static_cast<Volume>(random() % 9) - 4;
          heap.update(v);
          reference.set(v, keys[static_cast<std::size_t>(v)]);
          break;
        }
        case 2:
          heap.erase(v);
          reference.erase(v);
          break;
        default:
          if (!reference.entries.empty()) {
            const auto expected = reference.top();
            ASSERT_EQ(heap.pop(), expected) << "round " << round << " op " << op;
            reference.erase(expected);
          }
      }
      ASSERT_EQ(heap.empty(), reference.entries.empty());
      ASSERT_EQ(heap.contains(v), reference.key[static_cast<std::size_t>(v)].has_value());
      if (!heap.empty()) {
        ASSERT_EQ(heap.top(), reference.top()) << "round " << round << " op " << op;
      }
    }
    // Drained in order.
    while (!reference.entries.empty()) {
      const auto expected = reference.top();
      ASSERT_EQ(heap.pop(), expected);
      reference.erase(expected);
    }
    EXPECT_TRUE(heap.empty());
  }
}
