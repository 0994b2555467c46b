// refine_mapping: the dense swap and tabu searches when the slots fit the
// move table, else the candidate-list search that ohtma+ uses (VieM's
// communication neighbourhood), which scales to hundreds of thousands of
// ranks; multilevel V-cycles (src/multilevel) before the swap search.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/distance_oracle.hpp"
#include "multilevel/multilevel.hpp"
#include "refine/candidate_search.hpp"
#include "refine/dense_search.hpp"
#include "refine/slots.hpp"
#include "strategies/common/tree_pairs.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"
#include "util/names.hpp"

namespace tmap {

namespace {

/// Passes of the candidate search (each one ends early when it gains
/// < 0.1 %); far more than it ever takes.
constexpr std::int64_t kCandidatePasses = 1000;

/// The refinements by name: the one table --refine, config files, the C
/// API and the MPI layer's NAME:REFINE read.
constexpr std::array<detail::Named<RefineKind>, 4> kRefineKinds{{
    {RefineKind::None, "none"},
    {RefineKind::Swap, "swap"},
    {RefineKind::Tabu, "tabu"},
    {RefineKind::Multilevel, "multilevel"},
}};

}  // namespace

RefineKind refine_kind_from_name(std::string_view name) {
  if (const auto kind = detail::find_by_name(kRefineKinds, name)) return *kind;
  throw ParameterError("unknown refinement '" + std::string(name) + "' (known: " + detail::joined_names(kRefineKinds) +
                       ")");
}

std::string_view refine_kind_name(RefineKind kind) {
  return detail::name_of(kRefineKinds, kind).value_or("none");
}

std::vector<std::string> refine_kind_names() {
  return detail::all_names(kRefineKinds);
}

RefineStats refine_mapping(const Problem& problem, Mapping& mapping, const Run& context) {
  const auto start = std::chrono::steady_clock::now();
  RefineStats stats;
  stats.before = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
  stats.after = stats.before;
  const auto& options = context.refine;
  if (options.kind == RefineKind::None || problem.comm.num_ranks() < 2) {
    stats.method = "none";
    return stats;
  }
  // One rank per PE and every byte at the machine's least distance between
  // distinct PEs: no mapping does better (a stencil in its machine's order),
  // so no search is spent on it.
  const auto least = problem.topology.least_distance();
  if (least > 0 && problem.constraints.capacity() == 1 &&
      static_cast<detail::Int128>(stats.before) ==
          static_cast<detail::Int128>(problem.comm.total_volume()) * static_cast<detail::Int128>(least)) {
    stats.method = "none (optimal)";
    return stats;
  }
  const auto sym = problem.comm.symmetrized();
  const auto& constraints = problem.constraints;
  const auto slots = refine::SlotSpace::of(constraints);
  // Progress: each pass (or every few thousand tabu moves) with the best so far.
  const std::string stage = options.kind == RefineKind::Swap         ? "refine swap"
                            : options.kind == RefineKind::Multilevel ? "refine multilevel"
                                                                     : "refine tabu";
  context.report({.stage = stage, .detail = "started", .fraction = 0.0, .hop_bytes = stats.before});
  auto sigma = refine::slots_of(mapping, constraints);
  const bool multilevel_kind = options.kind == RefineKind::Multilevel;
  multilevel::Options ml;
  ml.seed = context.seed;
  ml.threads = context.threads;
  multilevel::Stats ml_stats;
  // -vv: what the V-cycles gained and took, before the search after them.
  const auto note_cycles = [&](std::chrono::steady_clock::time_point began) {
    context.note(
        2, fmt::format("refine multilevel: V-cycles {} -> {} hop-bytes in {:.3f} s", ml_stats.before, ml_stats.after,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()));
  };
  refine::StepReport on_step;
  if (context.hooks.progress) {
    on_step = [&](std::int64_t step, std::int64_t best) {
      const auto detail = fmt::format("step {}", step);
      return context.report({.stage = stage, .detail = detail, .hop_bytes = best});
    };
  }
  const auto n_slots = constraints.num_slots();
  const bool swap_kind = options.kind == RefineKind::Swap || multilevel_kind;
  const auto dense_limit = swap_kind ? refine::kMaxDenseDescent : refine::kMaxDensePositions;
  std::optional<refine::DenseProblem> dense;
  if (n_slots <= dense_limit) {
    if (auto p = refine::dense_problem(sym, problem.topology, constraints); refine::dense_fits(p)) dense = std::move(p);
  }
  const auto pes = constraints.allowed_pes();
  // A distance table over every allowed PE costs more than a small job's
  // search: then the topology answers directly (O(1) or O(levels)).
  const bool pairwise = problem.comm.num_ranks() * 64 < static_cast<std::int64_t>(pes.size());
  // On trees whose distances follow their levels, FM between sibling
  // subtrees instead of the V-cycles (strategies/common/tree_pairs.hpp):
  // on random traffic 0.7-2.0 % fewer hop-bytes on tleafs of 1,024-16,384
  // ranks, where the V-cycles' swaps end 2-3 % above SharedMap's strong
  // preset; stencils the same. Small jobs keep the V-cycles and the tabu
  // search after them.
  bool subtrees = false;
  if (multilevel_kind && !dense) {
    const auto began = std::chrono::steady_clock::now();
    auto m = slots.to_mapping(sigma, pes);
    const auto pairs =
        strategies::refine_tree_pairs(sym, problem.topology, constraints, m, {.threads = context.threads});
    if (pairs.applied) {
      subtrees = true;
      sigma = refine::slots_of(m, constraints);
      context.note(
          2, fmt::format("refine multilevel: FM between subtrees: {} pairs, {} ranks moved, in {:.3f} s", pairs.pairs,
                         pairs.moved, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()));
    }
  }
  if (multilevel_kind && !subtrees) {
    const auto began = std::chrono::steady_clock::now();
    multilevel::refine_slots(sym, problem.topology, constraints, sigma, multilevel::kDefaultCycles, ml, &ml_stats);
    note_cycles(began);
  }
  if (dense) {
    // Items: ranks, then one silent item per free slot.
    std::vector<std::int64_t> pos = sigma;
    std::vector<char> taken(static_cast<std::size_t>(n_slots), 0);
    for (const auto s : sigma) taken[static_cast<std::size_t>(s)] = 1;
    for (std::int64_t s = 0; s < n_slots; ++s) {
      if (!taken[static_cast<std::size_t>(s)]) pos.push_back(s);
    }
    refine::SearchStats r;
    if (multilevel_kind) {
      // A small job: a bounded tabu search leaves the V-cycles' local
      // optimum, and the descent ends at the next one.
      const auto iterations =
          options.iterations >= 0 ? options.iterations : refine::multilevel_tabu_iterations(n_slots);
      r = refine::robust_tabu(*dense, pos, iterations, options.time_limit_s, context.seed, on_step,
                              refine::kQualityAspirationSquares);
      const auto descent = refine::dense_descent(*dense, pos);
      r.swaps += descent.swaps;
      stats.method = "tabu + swap";
    } else if (swap_kind) {
      r = refine::dense_descent(*dense, pos);
      stats.method = "swap";
    } else {
      const auto iterations = options.iterations >= 0 ? options.iterations : refine::default_tabu_iterations(n_slots);
      r = refine::robust_tabu(*dense, pos, iterations, options.time_limit_s, context.seed, on_step);
      stats.method = "tabu";
    }
    stats.iterations = r.iterations;
    stats.swaps = r.swaps;
    pos.resize(sigma.size());
    sigma = pos;
  } else if (multilevel_kind) {
    // Above the dense search's size the V-cycles end the refinement: the
    // candidate search after them gained 0.04-0.38 % of hop-bytes at
    // 1,024-4,096 ranks (random traffic and stencils on a tleaf, a torus
    // and Tianhe-3; none on 11 of 18 jobs) for 2-4x the V-cycles' time
    // (4,096 random ranks on a tleaf: 0.70 s after 0.20 s), more than the
    // quality mode's goal of twice scotch_gmap's time leaves (issue #63).
    stats.method = "";
  } else {
    // Restricted neighbourhoods: partners' nodes and partners' partners.
    const bool tabu = !swap_kind;
    const auto search = [&](const auto& distances) {
      const auto node_of_pe = refine::local_nodes(problem.topology, pes);
      if (tabu) {
        const auto iterations =
            options.iterations >= 0 ? options.iterations : refine::candidate_tabu_iterations(problem.comm.num_ranks());
        const auto r =
            refine::candidate_tabu(sym, slots, distances, node_of_pe, sigma, iterations, context.seed, on_step);
        stats.iterations = iterations;
        stats.swaps = r.swaps + r.moves;
      } else {
        const auto r = refine::candidate_search(sym, slots, distances, node_of_pe, sigma, kCandidatePasses, on_step);
        stats.iterations = r.passes;
        stats.swaps = r.swaps + r.moves;
      }
    };
    if (pairwise) {
      search(detail::TopologyDistances(problem.topology, pes));
    } else {
      detail::with_distances(problem.topology, pes, context.threads, search);
    }
    stats.method = tabu ? "tabu (candidate lists)" : "swap (candidate lists)";
  }
  if (subtrees) {
    stats.method = "multilevel (FM between subtrees)";
  } else if (multilevel_kind) {
    stats.method =
        fmt::format("multilevel ({} levels){}{}", ml_stats.levels, stats.method.empty() ? "" : " + ", stats.method);
  }
  auto refined = slots.to_mapping(sigma, constraints.allowed_pes());
  const auto after = evaluate(problem.comm, problem.topology, refined).hop_bytes;
  if (after <= stats.before) {
    mapping = std::move(refined);
    stats.after = after;
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  context.report({.stage = stage, .detail = "done", .fraction = 1.0, .hop_bytes = stats.after, .done = true});
  return stats;
}

}  // namespace tmap
