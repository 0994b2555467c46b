#include "strategies/ohtma/ohtma_plus.hpp"

#include <string>

#include "core/distance_oracle.hpp"
#include "refine/candidate_search.hpp"
#include "strategies/ohtma/greedy.hpp"
#include "strategies/ohtma/pair_exchange.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {

/// Table passes (extensions 1 and 2) run up to this many ranks + free slots:
/// a pass rebuilds its table in O(n^2 deg), about a second at this size.
constexpr Rank kPlusTableRanks = 4096;
/// Free slots join as silent ranks only while ranks + free slots stay below
/// this (each pass rebuilds a table of that size; measured in docs/measurements.md).
constexpr Rank kPlusFreeSlotRanks = 1024;

/// The traffic with `extra` silent ranks appended (the free slots).
CommMatrix with_silent_ranks(const CommMatrix& sym, Rank extra) {
  std::vector<std::int64_t> row_begin(sym.row_begin().begin(), sym.row_begin().end());
  row_begin.insert(row_begin.end(), static_cast<std::size_t>(extra), row_begin.back());
  return CommMatrix::from_csr(sym.num_ranks() + extra, std::move(row_begin),
                              std::vector<Rank>(sym.columns().begin(), sym.columns().end()),
                              std::vector<Volume>(sym.all_volumes().begin(), sym.all_volumes().end()));
}

std::string str(detail::Int128 v) {
  return std::to_string(static_cast<std::int64_t>(v));
}

}  // namespace

Mapping OhtmaPlusMapper::map(const Problem& problem, const Run& context) const {
  const auto sym = problem.comm.symmetrized();
  const auto& constraints = problem.constraints;
  const auto slots = refine::SlotSpace::of(constraints);
  const Rank n = sym.num_ranks();
  const Distance max_distance = problem.topology.max_distance();

  auto sigma_now = ohtma::greedy_construction(sym, slots, problem.topology, constraints.allowed_pes(), context.threads);
  // The candidate search reads the table at random: one byte an entry up to
  // kNodeTableBytes (a million ranks on Tianhe-3: 53 s of the run went to
  // distances computed per read).
  detail::with_distances(
      problem.topology, constraints.allowed_pes(), context.threads,
      [&](const auto& distances) {
        const Rank free = slots.num_slots - n;
        const bool with_free = context.ohtma.free_slot_moves && free > 0 && n + free <= kPlusFreeSlotRanks;
        if (n + (with_free ? free : 0) <= kPlusTableRanks) {
          // Extensions 1 and 2: repeated passes, free slots as silent ranks.
          const auto ext = with_free ? with_silent_ranks(sym, free) : sym;
          std::vector<std::int64_t> sigma_ext = sigma_now;
          if (with_free) {
            std::vector<char> used(static_cast<std::size_t>(slots.num_slots), 0);
            for (const auto s : sigma_now) used[s] = 1;
            for (std::int64_t s = 0; s < slots.num_slots; ++s) {
              if (used[s] == 0) sigma_ext.push_back(s);
            }
          }
          const std::int64_t passes = context.ohtma.repeat_passes ? context.ohtma.max_passes : 1;
          for (std::int64_t pass = 0; pass < passes; ++pass) {
            const auto r = ohtma::exchange_pass(ext, slots, distances, max_distance, sigma_ext, ext.num_ranks() / 2,
                                                context.threads);
            context.note(2, "ohtma+: pass " + std::to_string(pass + 1) + " kept " + std::to_string(r.kept) +
                                " swaps (hop-bytes -" + str(r.gain) + ")");
            const auto detail = "pass " + std::to_string(pass + 1) + ", " + std::to_string(r.kept) + " swaps kept";
            if (!context.report({.stage = "ohtma+", .detail = detail}) || r.kept == 0) break;
          }
          sigma_ext.resize(static_cast<std::size_t>(n));
          sigma_now = std::move(sigma_ext);
        }
        // Extension 3: candidate-list search, always last.
        if (!context.ohtma.candidate_search || context.stopped()) return;
        const auto node_of_pe = refine::local_nodes(problem.topology, constraints.allowed_pes());
        const auto r = refine::candidate_search(sym, slots, distances, node_of_pe, sigma_now, context.ohtma.max_passes);
        context.note(2, "ohtma+: candidate search " + std::to_string(r.passes) + " passes, " + std::to_string(r.swaps) +
                            " swaps, " + std::to_string(r.moves) + " moves (hop-bytes -" + str(r.gain) + ")");
      },
      ohtma::kNodeTableBytes);
  const auto& sigma = sigma_now;
  return slots.to_mapping(sigma, constraints.allowed_pes());
}

}  // namespace tmap::strategies
