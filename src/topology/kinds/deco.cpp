// Scotch "deco" targets (types 0 and 1) as a table of distances between
// labelled terminals (kinds/distance_matrix.hpp); one that describes
// Tianhe-3 nodes is that machine.
#include <algorithm>
#include <limits>
#include <vector>

#include "tmap/error.hpp"
#include "topology/kinds/distance_matrix.hpp"
#include "topology/kinds/kind.hpp"
#include "topology/tianhe3_recognise.hpp"

namespace tmap::topo {

namespace {

/// deco 0 (terminals and their distance map) or deco 1 (Scotch's compiled
/// form: every domain and the domain distance array). We read both
/// ourselves: libscotch's terminal lookup on deco targets is off by one.
/// Terminal labels may be any distinct numbers (tm-topo writes node ids);
/// nodes are the terminals in label order, a terminal of weight w holding w
/// PEs. A target tm-topo wrote for Tianhe-3 is recognised as that machine.
std::unique_ptr<Topology> read_deco(detail::TokenStream& in) {
  const auto type = in.expect_int("deco type", 0, 2);
  if (type == 2) in.fail("deco 2 targets only estimate distances and are not supported for mapping");
  const auto terminals = in.expect_int("deco number of terminals", 1, 1 << 15);
  const auto domains = in.expect_int("deco largest domain number", terminals, std::int64_t{1} << 30);
  // Every distance takes at least two characters: refuse what cannot fit
  // before allocating the terminals x terminals map.
  const std::int64_t listed = type == 0 ? terminals : domains;
  if (listed * (listed - 1) > in.remaining() + 1) {
    in.fail("a deco target of " + std::to_string(listed) + (type == 0 ? " terminals" : " domains") +
            " needs more distances than the file holds");
  }
  constexpr std::int64_t kMaxDistance = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t kMaxLabel = std::numeric_limits<std::int32_t>::max();
  // Terminals as listed: label and weight; then their ranks in label order.
  std::vector<std::int64_t> label;
  std::vector<std::int64_t> weight;
  std::vector<std::int64_t> term_of_domain;  // deco 1: domain -> listed terminal, or -1
  if (type == 0) {
    std::vector<char> seen_domain(static_cast<std::size_t>(domains) + 1, 0);  // domains^2 fit the file
    for (std::int64_t k = 0; k < terminals; ++k) {
      label.push_back(in.expect_int("deco terminal label", 0, kMaxLabel));
      weight.push_back(in.expect_int("deco terminal weight", 1, kMaxDistance));
      const auto domain = in.expect_int("deco terminal domain number", 1, domains);
      if (seen_domain[domain] != 0) in.fail("deco domain number " + std::to_string(domain) + " is used twice");
      seen_domain[domain] = 1;
    }
  } else {
    // Domain k (1-based) has a label, a size (1 for terminals) and a weight.
    term_of_domain.assign(static_cast<std::size_t>(domains) + 1, -1);
    for (std::int64_t k = 1; k <= domains; ++k) {
      const auto domain_label = in.expect_int("deco domain label", -1, kMaxLabel);
      const auto size = in.expect_int("deco domain size", 0, terminals);
      const auto domain_weight = in.expect_int("deco domain weight", 0, std::numeric_limits<std::int64_t>::max());
      if (size == 1) {
        if (domain_label < 0 || static_cast<std::int64_t>(label.size()) == terminals) {
          in.fail("deco 1: terminal domain " + std::to_string(k) + " has no valid label, or there are more than " +
                  std::to_string(terminals) + " terminal domains");
        }
        term_of_domain[k] = static_cast<std::int64_t>(label.size());
        label.push_back(domain_label);
        weight.push_back(std::clamp<std::int64_t>(domain_weight, 1, kMaxDistance));
      }
    }
    if (static_cast<std::int64_t>(label.size()) != terminals) {
      in.fail("deco 1 lists " + std::to_string(label.size()) + " terminal domains, not " + std::to_string(terminals));
    }
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(terminals));  // label order -> listed
  for (std::int64_t k = 0; k < terminals; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return label[a] < label[b]; });
  std::vector<std::int64_t> rank(static_cast<std::size_t>(terminals));  // listed -> label order
  std::vector<std::int64_t> sorted_labels(static_cast<std::size_t>(terminals));
  std::vector<std::int64_t> sorted_weights(static_cast<std::size_t>(terminals));
  for (std::int64_t r = 0; r < terminals; ++r) {
    rank[order[r]] = r;
    sorted_labels[r] = label[order[r]];
    sorted_weights[r] = weight[order[r]];
    if (r > 0 && sorted_labels[r] == sorted_labels[r - 1]) {
      in.fail("deco terminal label " + std::to_string(sorted_labels[r]) + " is used twice");
    }
  }
  std::vector<std::uint32_t> d(static_cast<std::size_t>(terminals * terminals), 0);
  auto set = [&](std::int64_t a, std::int64_t b, std::int64_t value) {
    d[static_cast<std::size_t>(rank[a] * terminals + rank[b])] = static_cast<std::uint32_t>(value);
    d[static_cast<std::size_t>(rank[b] * terminals + rank[a])] = static_cast<std::uint32_t>(value);
  };
  if (type == 0) {
    for (std::int64_t i = 1; i < terminals; ++i) {
      for (std::int64_t j = 0; j < i; ++j) set(i, j, in.expect_int("deco distance", 1, kMaxDistance));
    }
  } else {
    // Distance array: for domains i > j, entry (i-1)(i-2)/2 + j - 1.
    for (std::int64_t i = 2; i <= domains; ++i) {
      for (std::int64_t j = 1; j < i; ++j) {
        const auto value = in.expect_int("deco domain distance", 0, kMaxDistance);
        if (term_of_domain[i] >= 0 && term_of_domain[j] >= 0) set(term_of_domain[i], term_of_domain[j], value);
      }
    }
  }
  try {
    auto deco =
        std::make_unique<DistanceMatrixTopology>(std::move(sorted_labels), sorted_weights, std::move(d), "deco");
    if (auto machine = recognise_tianhe3(*deco)) return machine;
    return deco;
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

std::vector<KindExample> examples() {
  return {{"deco 0 3 5 0 1 5 2 2 4 1 1 3 6 5 2"}, {"deco 0 2 3 0 1 2 1 1 3 5"}, {"deco 0 1 1 4 2 1"}};
}

}  // namespace

MachineKind deco_kind() {
  return {.name = "deco", .how_written = {}, .scotch_words = {{"deco", read_deco}}, .examples = examples};
}

}  // namespace tmap::topo
