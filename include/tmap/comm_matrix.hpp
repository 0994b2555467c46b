// The communication matrix: A[i][j] = bytes rank i sends to rank j, stored
// sparse (CSR). Directed as read; algorithms use the symmetrised view.
#pragma once

#include <span>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

/// One matrix entry, used to build a matrix.
struct CommEntry {
  Rank from = 0;
  Rank to = 0;
  Volume bytes = 0;
};

class CommMatrix {
 public:
  CommMatrix() = default;

  /// Builds an n-rank matrix from entries in any order. Duplicate (from, to)
  /// pairs are summed, zero volumes and the diagonal are dropped. Throws
  /// InputError on an out-of-range rank or a negative volume, InternalError
  /// when a summed volume overflows.
  static CommMatrix from_entries(Rank n, std::vector<CommEntry> entries);

  /// Builds from CSR arrays that are already sorted by column within each row,
  /// with no duplicates, no zeros and no diagonal (checked: ParameterError).
  static CommMatrix from_csr(Rank n, std::vector<std::int64_t> row_begin, std::vector<Rank> column,
                             std::vector<Volume> volume);

  [[nodiscard]] Rank num_ranks() const noexcept { return n_; }
  /// Number of stored (non-zero, off-diagonal) entries.
  [[nodiscard]] std::int64_t num_entries() const noexcept { return static_cast<std::int64_t>(column_.size()); }
  /// Ranks rank i sends to, in increasing order.
  [[nodiscard]] std::span<const Rank> targets(Rank i) const noexcept {
    return {column_.data() + row_begin_[i], column_.data() + row_begin_[i + 1]};
  }
  /// Volumes matching targets(i).
  [[nodiscard]] std::span<const Volume> volumes(Rank i) const noexcept {
    return {volume_.data() + row_begin_[i], volume_.data() + row_begin_[i + 1]};
  }
  /// A[i][j] (binary search in row i).
  [[nodiscard]] Volume at(Rank i, Rank j) const noexcept;
  /// Sum of all stored volumes (exact; throws InputError if it exceeds int64).
  [[nodiscard]] Volume total_volume() const;
  /// Is A equal to its transpose?
  [[nodiscard]] bool is_symmetric() const noexcept;

  /// A + A^T: the undirected traffic between each pair, as algorithms use it.
  [[nodiscard]] CommMatrix symmetrized() const;

  [[nodiscard]] std::span<const std::int64_t> row_begin() const noexcept { return row_begin_; }
  [[nodiscard]] std::span<const Rank> columns() const noexcept { return column_; }
  [[nodiscard]] std::span<const Volume> all_volumes() const noexcept { return volume_; }

  friend bool operator==(const CommMatrix&, const CommMatrix&) = default;

 private:
  Rank n_ = 0;
  std::vector<std::int64_t> row_begin_{0};
  std::vector<Rank> column_;
  std::vector<Volume> volume_;
};

}  // namespace tmap

TMAP_API_END
