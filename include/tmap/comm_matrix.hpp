// The communication matrix: A[i][j] = bytes rank i sends to rank j, stored
// sparse (CSR). Directed as read; algorithms use the symmetrised view.
// It may carry its phases: the exchanges of one iteration in the order they
// happen (a .phases file, tm-gen's application patterns), which the time
// objective runs one after another.
#pragma once

#include <memory>
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

struct CommPhase;

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

  /// The sum of `phases` (each `repeat` times), carrying them. InputError
  /// on a phase of another rank count, a repeat below 1 or a sum past
  /// 2^63-1 bytes.
  static CommMatrix from_phases(Rank n, std::vector<CommPhase> phases);
  /// The phases this traffic came with, in the order they happen; empty
  /// when nothing is known of its order (one round of the whole matrix).
  /// Matrices derived from this one carry none (symmetrized: the
  /// strategies' view), but for gen::shuffle_ranks (the same job).
  [[nodiscard]] std::span<const CommPhase> phases() const noexcept;

  /// Each rank's weight: the work it brings to its PE (a graph's vertex
  /// loads), which --imbalance balances; empty when every rank weighs 1
  /// (the matrix formats). Kept by symmetrized() and shuffle_ranks.
  [[nodiscard]] std::span<const Volume> rank_weights() const noexcept;
  /// Rank i's weight (1 without weights).
  [[nodiscard]] Volume rank_weight(Rank i) const noexcept { return weights_ ? (*weights_)[i] : 1; }
  /// The sum of the ranks' weights (n without weights; InputError past 2^63-1).
  [[nodiscard]] Volume total_rank_weight() const;
  /// Do ranks weigh differently (some weight differs from another)?
  [[nodiscard]] bool has_unequal_weights() const noexcept;
  /// This matrix with these weights, one per rank, each >= 0 (InputError
  /// otherwise); an empty vector drops them.
  [[nodiscard]] CommMatrix with_rank_weights(std::vector<Volume> weights) const;

  /// Same entries, same phases and same weights.
  friend bool operator==(const CommMatrix& a, const CommMatrix& b);

 private:
  Rank n_ = 0;
  std::vector<std::int64_t> row_begin_{0};
  std::vector<Rank> column_;
  std::vector<Volume> volume_;
  /// Shared: copies of a matrix (strategies take several) share its phases.
  std::shared_ptr<const std::vector<CommPhase>> phases_;
  /// Shared as the phases are; null = every rank weighs 1.
  std::shared_ptr<const std::vector<Volume>> weights_;
};

/// One phase of a traffic: what every rank sends in it, run `repeat` times
/// in a row (a pipelined sweep's steps, an all-reduce's iterations).
struct CommPhase {
  CommMatrix traffic;
  std::int64_t repeat = 1;
  friend bool operator==(const CommPhase&, const CommPhase&) = default;
};

}  // namespace tmap

TMAP_API_END
