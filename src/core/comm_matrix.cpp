#include "tmap/comm_matrix.hpp"

#include <algorithm>
#include <string>

#include "tmap/error.hpp"

namespace tmap {

namespace {

Volume checked_add(Volume a, Volume b) {
  Volume sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    throw InputError("communication volume between two ranks exceeds 2^63-1 bytes");
  }
  return sum;
}

}  // namespace

CommMatrix CommMatrix::from_entries(Rank n, std::vector<CommEntry> entries) {
  if (n < 0) throw InputError("number of ranks must be non-negative");
  if (n > kMaxRanks) throw InputError("more than " + std::to_string(kMaxRanks) + " ranks");
  for (const auto& e : entries) {
    if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n) {
      throw InputError("rank pair (" + std::to_string(e.from) + ", " + std::to_string(e.to) + ") out of range for " +
                       std::to_string(n) + " ranks");
    }
    if (e.bytes < 0) throw InputError("negative volume " + std::to_string(e.bytes));
  }
  std::erase_if(entries, [](const CommEntry& e) { return e.from == e.to || e.bytes == 0; });
  std::sort(entries.begin(), entries.end(),
            [](const CommEntry& a, const CommEntry& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });

  CommMatrix m;
  m.n_ = n;
  m.row_begin_.assign(static_cast<std::size_t>(n) + 1, 0);
  m.column_.reserve(entries.size());
  m.volume_.reserve(entries.size());
  for (std::size_t k = 0; k < entries.size();) {
    const auto& first = entries[k];
    Volume sum = 0;
    std::size_t j = k;
    for (; j < entries.size() && entries[j].from == first.from && entries[j].to == first.to; ++j) {
      sum = checked_add(sum, entries[j].bytes);
    }
    m.column_.push_back(first.to);
    m.volume_.push_back(sum);
    ++m.row_begin_[static_cast<std::size_t>(first.from) + 1];
    k = j;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) m.row_begin_[i + 1] += m.row_begin_[i];
  return m;
}

CommMatrix CommMatrix::from_csr(Rank n, std::vector<std::int64_t> row_begin, std::vector<Rank> column,
                                std::vector<Volume> volume) {
  if (n < 0 || row_begin.size() != static_cast<std::size_t>(n) + 1 || row_begin.front() != 0 ||
      row_begin.back() != static_cast<std::int64_t>(column.size()) || column.size() != volume.size()) {
    throw ParameterError("CommMatrix::from_csr: inconsistent array sizes");
  }
  for (Rank i = 0; i < n; ++i) {
    if (row_begin[i] > row_begin[i + 1]) throw ParameterError("CommMatrix::from_csr: row bounds decrease");
    for (auto k = row_begin[i]; k < row_begin[i + 1]; ++k) {
      const Rank j = column[k];
      if (j < 0 || j >= n || j == i || volume[k] <= 0 || (k > row_begin[i] && column[k - 1] >= j)) {
        throw ParameterError("CommMatrix::from_csr: row " + std::to_string(i) + " is not canonical");
      }
    }
  }
  CommMatrix m;
  m.n_ = n;
  m.row_begin_ = std::move(row_begin);
  m.column_ = std::move(column);
  m.volume_ = std::move(volume);
  return m;
}

Volume CommMatrix::at(Rank i, Rank j) const noexcept {
  const auto row = targets(i);
  const auto it = std::lower_bound(row.begin(), row.end(), j);
  if (it == row.end() || *it != j) return 0;
  return volumes(i)[static_cast<std::size_t>(it - row.begin())];
}

Volume CommMatrix::total_volume() const {
  Volume sum = 0;
  for (const Volume v : volume_) sum = checked_add(sum, v);
  return sum;
}

bool CommMatrix::is_symmetric() const noexcept {
  for (Rank i = 0; i < n_; ++i) {
    const auto cols = targets(i);
    const auto vols = volumes(i);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      if (at(cols[k], i) != vols[k]) return false;
    }
  }
  return true;
}

CommMatrix CommMatrix::symmetrized() const {
  // Transpose by counting sort, then merge each row with its transposed row.
  std::vector<std::int64_t> t_begin(static_cast<std::size_t>(n_) + 1, 0);
  for (const Rank j : column_) ++t_begin[static_cast<std::size_t>(j) + 1];
  for (std::size_t i = 0; i < static_cast<std::size_t>(n_); ++i) t_begin[i + 1] += t_begin[i];
  std::vector<Rank> t_col(column_.size());
  std::vector<Volume> t_vol(column_.size());
  {
    std::vector<std::int64_t> fill(t_begin.begin(), t_begin.end() - 1);
    for (Rank i = 0; i < n_; ++i) {  // rows in order: transposed rows come out sorted
      for (auto k = row_begin_[i]; k < row_begin_[i + 1]; ++k) {
        const auto pos = fill[column_[k]]++;
        t_col[pos] = i;
        t_vol[pos] = volume_[k];
      }
    }
  }
  CommMatrix s;
  s.n_ = n_;
  s.row_begin_.assign(static_cast<std::size_t>(n_) + 1, 0);
  s.column_.reserve(column_.size() * 2);
  s.volume_.reserve(column_.size() * 2);
  for (Rank i = 0; i < n_; ++i) {
    auto a = row_begin_[i];
    auto b = t_begin[i];
    const auto a_end = row_begin_[i + 1];
    const auto b_end = t_begin[i + 1];
    while (a < a_end || b < b_end) {
      if (b == b_end || (a < a_end && column_[a] < t_col[b])) {
        s.column_.push_back(column_[a]);
        s.volume_.push_back(volume_[a++]);
      } else if (a == a_end || t_col[b] < column_[a]) {
        s.column_.push_back(t_col[b]);
        s.volume_.push_back(t_vol[b++]);
      } else {
        s.column_.push_back(column_[a]);
        s.volume_.push_back(checked_add(volume_[a++], t_vol[b++]));
      }
    }
    s.row_begin_[i + 1] = static_cast<std::int64_t>(s.column_.size());
  }
  s.weights_ = weights_;  // the same ranks: the same work
  return s;
}

CommMatrix CommMatrix::from_phases(Rank n, std::vector<CommPhase> phases) {
  std::vector<CommEntry> entries;
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const auto& phase = phases[p];
    const auto which = "phase " + std::to_string(p + 1);
    if (phase.repeat < 1) throw InputError(which + ": repeated " + std::to_string(phase.repeat) + " times");
    if (phase.traffic.num_ranks() != n) {
      throw InputError(which + ": " + std::to_string(phase.traffic.num_ranks()) + " ranks, not " + std::to_string(n));
    }
    for (Rank i = 0; i < n; ++i) {
      const auto cols = phase.traffic.targets(i);
      const auto vols = phase.traffic.volumes(i);
      for (std::size_t k = 0; k < cols.size(); ++k) {
        Volume bytes = 0;
        if (__builtin_mul_overflow(vols[k], phase.repeat, &bytes)) {
          throw InputError(which + ": ranks " + std::to_string(i) + " and " + std::to_string(cols[k]) +
                           " exchange more than 2^63-1 bytes over its repeats");
        }
        entries.push_back({i, cols[k], bytes});
      }
    }
  }
  auto sum = from_entries(n, std::move(entries));
  sum.phases_ = std::make_shared<const std::vector<CommPhase>>(std::move(phases));
  return sum;
}

std::span<const CommPhase> CommMatrix::phases() const noexcept {
  if (!phases_) return {};
  return *phases_;
}

std::span<const Volume> CommMatrix::rank_weights() const noexcept {
  if (!weights_) return {};
  return *weights_;
}

Volume CommMatrix::total_rank_weight() const {
  if (!weights_) return n_;
  Volume total = 0;
  for (const Volume w : *weights_) {
    if (__builtin_add_overflow(total, w, &total)) throw InputError("the ranks' weights sum past 2^63-1");
  }
  return total;
}

bool CommMatrix::has_unequal_weights() const noexcept {
  if (!weights_ || weights_->empty()) return false;
  const Volume first = weights_->front();
  return std::ranges::any_of(*weights_, [first](Volume w) { return w != first; });
}

CommMatrix CommMatrix::with_rank_weights(std::vector<Volume> weights) const {
  CommMatrix weighted = *this;
  if (weights.empty()) {
    weighted.weights_.reset();
    return weighted;
  }
  if (static_cast<Rank>(weights.size()) != n_) {
    throw InputError(std::to_string(weights.size()) + " rank weights for " + std::to_string(n_) + " ranks");
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] < 0)
      throw InputError("rank " + std::to_string(i) + " has a negative weight, " + std::to_string(weights[i]));
  }
  weighted.weights_ = std::make_shared<const std::vector<Volume>>(std::move(weights));
  return weighted;
}

bool operator==(const CommMatrix& a, const CommMatrix& b) {
  if (a.n_ != b.n_ || a.row_begin_ != b.row_begin_ || a.column_ != b.column_ || a.volume_ != b.volume_) return false;
  return std::ranges::equal(a.phases(), b.phases()) && std::ranges::equal(a.rank_weights(), b.rank_weights());
}

}  // namespace tmap
