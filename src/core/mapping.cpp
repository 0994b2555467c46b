#include "tmap/mapping.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "tmap/error.hpp"
#include "tmap/topology.hpp"

namespace tmap {

namespace {

void check_oversubscription(std::int64_t oversubscription) {
  if (oversubscription < 1 || oversubscription > kMaxRanks) {
    throw InputError("-o: ranks per PE must be between 1 and " + std::to_string(kMaxRanks) + ", found " +
                     std::to_string(oversubscription));
  }
}

/// pe's index among the allowed PEs (sorted), or -1: O(1) where they are
/// a run of consecutive PEs (every PE of the machine, most allocations), a
/// binary search else (20 steps a rank at a million ranks, each call).
std::int64_t index_among(std::span<const PE> allowed, PE pe) {
  if (allowed.empty()) return -1;
  if (allowed.back() - allowed.front() + 1 == static_cast<PE>(allowed.size())) {
    return pe >= allowed.front() && pe <= allowed.back() ? pe - allowed.front() : -1;
  }
  const auto it = std::lower_bound(allowed.begin(), allowed.end(), pe);
  return it == allowed.end() || *it != pe ? -1 : it - allowed.begin();
}

}  // namespace

Constraints Constraints::all(const Topology& topology, std::int64_t oversubscription) {
  check_oversubscription(oversubscription);
  if (topology.size() > kMaxPEs) {
    throw InputError("the topology has " + std::to_string(topology.size()) + " PEs; tmap maps onto at most " +
                     std::to_string(kMaxPEs));
  }
  std::vector<PE> pes(static_cast<std::size_t>(topology.size()));
  for (PE p = 0; p < topology.size(); ++p) pes[p] = p;
  return allowed(topology, std::move(pes), oversubscription);
}

Constraints Constraints::allowed(const Topology& topology, std::vector<PE> pes, std::int64_t oversubscription) {
  check_oversubscription(oversubscription);
  for (const PE p : pes) {
    if (p < 0 || p >= topology.size()) {
      throw InputError("PE " + std::to_string(p) + " is outside the topology (PEs 0.." +
                       std::to_string(topology.size() - 1) + ")");
    }
  }
  std::sort(pes.begin(), pes.end());
  if (const auto dup = std::adjacent_find(pes.begin(), pes.end()); dup != pes.end()) {
    throw InputError("PE " + std::to_string(*dup) + " is listed twice");
  }
  // A machine of parts no job spans (a Slurm switch tree Slurm accepts):
  // refused only when this job spans two.
  if (!pes.empty()) {
    const auto part = topology.part_of(pes.front());
    for (const PE p : pes) {
      if (topology.part_of(p) != part) throw InputError(topology.why_apart(pes.front(), p));
    }
  }
  Constraints c;
  c.allowed_ = std::move(pes);
  c.capacity_ = oversubscription;
  c.topology_size_ = topology.size();
  return c;
}

Constraints Constraints::on_nodes(const Topology& topology, std::span<const NodeId> nodes,
                                  std::int64_t oversubscription) {
  std::vector<char> wanted(static_cast<std::size_t>(topology.num_nodes()), 0);
  for (const NodeId node : nodes) {
    if (node < 0 || node >= topology.num_nodes()) {
      throw InputError("node " + std::to_string(node) + " is outside the topology (nodes 0.." +
                       std::to_string(topology.num_nodes() - 1) + ")");
    }
    if (wanted[node] != 0) throw InputError("node " + std::to_string(node) + " is listed twice");
    wanted[node] = 1;
  }
  std::vector<PE> pes;
  for (PE p = 0; p < topology.size(); ++p) {
    if (wanted[topology.node_of(p)] != 0) pes.push_back(p);
  }
  return allowed(topology, std::move(pes), oversubscription);
}

std::vector<PE> Constraints::slots() const {
  std::vector<PE> result;
  result.reserve(static_cast<std::size_t>(num_slots()));
  for (const PE p : allowed_) result.insert(result.end(), static_cast<std::size_t>(capacity_), p);
  return result;
}

bool Constraints::is_allowed(PE pe) const noexcept {
  return std::binary_search(allowed_.begin(), allowed_.end(), pe);
}

void validate_mapping(std::span<const PE> mapping, std::int64_t num_ranks, const Constraints& constraints) {
  if (static_cast<std::int64_t>(mapping.size()) != num_ranks) {
    throw InternalError("mapping has " + std::to_string(mapping.size()) + " entries for " + std::to_string(num_ranks) +
                        " ranks");
  }
  const auto allowed = constraints.allowed_pes();
  std::vector<std::int64_t> load(allowed.size(), 0);
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto at = index_among(allowed, mapping[r]);
    if (at < 0) {
      throw InternalError("rank " + std::to_string(r) + " is mapped to PE " + std::to_string(mapping[r]) +
                          ", which is not allowed");
    }
    if (++load[static_cast<std::size_t>(at)] > constraints.capacity()) {
      throw InternalError("PE " + std::to_string(mapping[r]) + " holds more than " +
                          std::to_string(constraints.capacity()) + " ranks");
    }
  }
}

Constraints Constraints::balanced(std::span<const Volume> weights, std::int64_t num_ranks, double imbalance,
                                  std::int64_t count_cap) const {
  if (!(imbalance >= 0.0 && imbalance <= 1e6)) {
    throw InputError("--imbalance: EPS must be between 0 and 1e6, found " + std::to_string(imbalance));
  }
  if (!weights.empty() && static_cast<std::int64_t>(weights.size()) != num_ranks) {
    throw InternalError("balanced: weights for another rank count");
  }
  Constraints c = *this;
  c.imbalance_ = imbalance;
  const auto pes = static_cast<Volume>(allowed_.size());
  if (pes == 0 || num_ranks == 0) return c;
  Volume total = 0;
  Volume heaviest = 0;
  for (std::int64_t r = 0; r < num_ranks; ++r) {
    const Volume w = weights.empty() ? 1 : weights[static_cast<std::size_t>(r)];
    if (__builtin_add_overflow(total, w, &total)) throw InputError("the ranks' weights sum past 2^63-1");
    heaviest = std::max(heaviest, w);
  }
  const std::int64_t count_limit = count_cap > 0 ? count_cap : num_ranks;
  if (total == 0) {  // nothing to balance: the count alone
    c.capacity_ = count_limit;
    return c;
  }
  // (1 + EPS) x the average, and never below the average rounded up
  // (without which EPS 0 could not place 10 ranks on 4 PEs).
  const Volume rounded_up = total / pes + (total % pes != 0 ? 1 : 0);
  const long double average = static_cast<long double>(total) / static_cast<long double>(pes);
  const long double limit = std::floor((1.0L + static_cast<long double>(imbalance)) * average);
  c.load_limit_ = limit >= 9.2e18L ? total : std::max(rounded_up, static_cast<Volume>(limit));
  if (heaviest > c.load_limit_) {
    std::int64_t which = 0;
    while (weights[static_cast<std::size_t>(which)] != heaviest) ++which;
    throw InputError(
        fmt::format("--imbalance: rank {} weighs {}, more than a PE may hold: (1 + {}) x {:.6g} (the "
                    "average load of the {} PEs), at most {}",
                    which, heaviest, imbalance, static_cast<double>(average), pes, c.load_limit_));
  }
  // How many ranks fit one PE at most: the lightest ones, summed.
  std::vector<Volume> sorted(weights.begin(), weights.end());
  if (sorted.empty()) sorted.assign(static_cast<std::size_t>(num_ranks), 1);
  std::sort(sorted.begin(), sorted.end());
  std::int64_t fit = 0;
  for (Volume sum = 0; fit < num_ranks && sum + sorted[static_cast<std::size_t>(fit)] <= c.load_limit_; ++fit) {
    sum += sorted[static_cast<std::size_t>(fit)];
  }
  c.capacity_ = std::max<std::int64_t>(1, std::min(count_limit, fit));
  return c;
}

bool balances_load(std::span<const Volume> weights, const Constraints& constraints) {
  if (constraints.load_limit() == 0 || weights.empty()) return false;
  return std::ranges::any_of(weights, [first = weights.front()](Volume w) { return w != first; });
}

std::vector<Volume> pe_loads(std::span<const PE> mapping, std::span<const Volume> weights,
                             const Constraints& constraints) {
  const auto allowed = constraints.allowed_pes();
  std::vector<Volume> load(allowed.size(), 0);
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto at = index_among(allowed, mapping[r]);
    if (at < 0) continue;
    load[static_cast<std::size_t>(at)] += weights.empty() ? 1 : weights[r];
  }
  return load;
}

void validate_mapping(std::span<const PE> mapping, std::span<const Volume> weights, std::int64_t num_ranks,
                      const Constraints& constraints) {
  validate_mapping(mapping, num_ranks, constraints);
  if (!balances_load(weights, constraints)) return;
  const auto loads = pe_loads(mapping, weights, constraints);
  for (std::size_t p = 0; p < loads.size(); ++p) {
    if (loads[p] > constraints.load_limit()) {
      throw InternalError("PE " + std::to_string(constraints.allowed_pes()[p]) + " holds a load of " +
                          std::to_string(loads[p]) + ", above its limit " + std::to_string(constraints.load_limit()));
    }
  }
}

}  // namespace tmap
