// OHTMA: the fast implementation must give exactly the mapping of a direct,
// slow transcription of Algorithm 1 (exact gains from a naive hop-bytes
// evaluation, the same tie-breaking), on random instances and stencils.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "fixtures.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Mapping;
using tmap::PE;
using tmap::Problem;
using tmap::Rank;
using tmap::detail::Int128;

namespace {

using Dense = std::vector<std::vector<std::int64_t>>;

Dense dense(const CommMatrix& m) {
  Dense a(m.num_ranks(), std::vector<std::int64_t>(m.num_ranks(), 0));
  for (Rank i = 0; i < m.num_ranks(); ++i) {
    for (std::size_t k = 0; k < m.targets(i).size(); ++k) a[i][m.targets(i)[k]] = m.volumes(i)[k];
  }
  return a;
}

/// Naive hop-bytes straight from eq. (1), on slots.
std::int64_t hop_bytes(const Dense& a, const Dense& b, const std::vector<std::int64_t>& sigma) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < a.size(); ++j) sum += a[i][j] * b[sigma[i]][sigma[j]];
  }
  return sum;
}

/// Algorithm 1, transcribed directly: indicators recomputed from scratch at
/// every step, every pair's gain from two full hop-bytes evaluations.
Mapping reference_ohtma(const CommMatrix& comm, const tmap::Topology& topology, const Constraints& constraints,
                        std::int64_t loop) {
  const auto a = dense(comm);
  const auto n = static_cast<Rank>(a.size());
  Dense s(n, std::vector<std::int64_t>(n, 0));
  for (Rank i = 0; i < n; ++i) {
    for (Rank j = 0; j < n; ++j) s[i][j] = i == j ? 0 : a[i][j] + a[j][i];
  }
  const auto slots = constraints.slots();
  const auto m = static_cast<std::int64_t>(slots.size());
  // Rows filled one by one: building them as copies of one zero row set
  // off gcc 12's -Wfree-nonheap-object (a false positive) after inlining.
  Dense b(static_cast<std::size_t>(m));
  for (std::int64_t u = 0; u < m; ++u) {
    b[u].resize(static_cast<std::size_t>(m));
    for (std::int64_t v = 0; v < m; ++v) b[u][v] = topology.distance(slots[u], slots[v]);
  }
  // Phase 1.
  std::vector<char> p_sel(n, 0);
  std::vector<char> n_sel(m, 0);
  std::vector<std::int64_t> sigma(n, -1);
  for (Rank k = 0; k < n; ++k) {
    Rank best_p = -1;
    Int128 best_comm = 0;
    for (Rank p = 0; p < n; ++p) {
      if (p_sel[p]) continue;
      Int128 selected = 0;
      Int128 unselected = 0;
      for (Rank i = 0; i < n; ++i) (p_sel[i] ? selected : unselected) += s[p][i];
      const Int128 comm_times = selected * (k + 1) + unselected;  // comm_p * (1 + |P_selected|)
      if (best_p < 0 || comm_times > best_comm) {
        best_p = p;
        best_comm = comm_times;
      }
    }
    std::int64_t best_n = -1;
    Int128 best_hops = 0;
    for (std::int64_t q = 0; q < m; ++q) {
      if (n_sel[q]) continue;
      Int128 selected = 0;
      Int128 unselected = 0;
      for (std::int64_t i = 0; i < m; ++i) (n_sel[i] ? selected : unselected) += b[q][i];
      const Int128 hops_times = selected * (k + 1) + unselected;
      if (best_n < 0 || hops_times < best_hops) {
        best_n = q;
        best_hops = hops_times;
      }
    }
    sigma[best_p] = best_n;
    p_sel[best_p] = 1;
    n_sel[best_n] = 1;
  }
  // Phase 2.
  std::vector<char> status(n, 0);
  std::vector<std::pair<Rank, Rank>> pairs;
  std::vector<std::int64_t> results;
  for (std::int64_t k = 0; k < loop; ++k) {
    Rank bi = -1;
    Rank bj = -1;
    std::int64_t best = 0;
    const auto before = hop_bytes(a, b, sigma);
    for (Rank i = 0; i < n; ++i) {
      for (Rank j = i + 1; j < n; ++j) {
        if (status[i] || status[j]) continue;
        std::swap(sigma[i], sigma[j]);
        const auto gain = before - hop_bytes(a, b, sigma);
        std::swap(sigma[i], sigma[j]);
        if (bi < 0 || gain > best) {
          bi = i;
          bj = j;
          best = gain;
        }
      }
    }
    if (bi < 0) break;
    pairs.emplace_back(bi, bj);
    results.push_back(best);
    status[bi] = status[bj] = 1;
    std::swap(sigma[bi], sigma[bj]);
  }
  std::int64_t sum = 0;
  std::int64_t best_sum = 0;
  std::size_t t = 0;
  for (std::size_t k = 0; k < results.size(); ++k) {
    sum += results[k];
    if (sum > best_sum) {
      best_sum = sum;
      t = k + 1;
    }
  }
  for (std::size_t k = pairs.size(); k-- > t;) std::swap(sigma[pairs[k].first], sigma[pairs[k].second]);
  Mapping mapping(n);
  for (Rank r = 0; r < n; ++r) mapping[r] = slots[sigma[r]];
  return mapping;
}

Mapping fast_ohtma(const CommMatrix& comm, const tmap::Topology& topology, const Constraints& constraints,
                   std::int64_t loop, int threads = 1) {
  Context context;
  context.ohtma.loop = loop;
  context.threads = threads;
  return tmap::map_with("ohtma", Problem{comm, topology, constraints}, context);
}

/// A random directed matrix: some pairs one way only, volumes 1..max.
CommMatrix random_directed(Rank n, double density, tmap::Volume max_volume, std::uint64_t seed) {
  tmap::detail::Random rng(seed, 7);
  std::vector<tmap::CommEntry> entries;
  for (Rank i = 0; i < n; ++i) {
    for (Rank j = 0; j < n; ++j) {
      if (i != j && static_cast<double>(rng.below(1000)) < density * 1000) {
        entries.push_back({i, j, static_cast<tmap::Volume>(1 + rng.below(static_cast<std::uint64_t>(max_volume)))});
      }
    }
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

}  // namespace

TEST(Ohtma, MatchesTheReferenceOn60RandomInstances) {
  const char* topologies[] = {"mesh2D 4 4", "tleaf 3 2 20 2 5 4 1", "tianhe3:2x2,nodes=2,cores=2",
                              "cmplt 9",    "torus2D 3 4",          "hcub 4"};
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    tmap::detail::Random rng(seed, 11);
    const auto topology = tmap::load_topology(topologies[seed % std::size(topologies)]);
    // Random allowed subset (sometimes all), oversubscription 1 or 2.
    std::vector<PE> allowed;
    for (PE p = 0; p < topology->size(); ++p) {
      if (seed % 3 == 0 || rng.below(4) != 0) allowed.push_back(p);
    }
    const std::int64_t k = seed % 5 == 4 ? 2 : 1;
    const auto constraints = Constraints::allowed(*topology, allowed, k);
    const auto slots = constraints.num_slots();
    const Rank n = std::max<Rank>(2, std::min<Rank>(slots, 3 + static_cast<Rank>(rng.below(10))));
    const auto comm = random_directed(n, 0.1 + 0.1 * static_cast<double>(seed % 5), seed % 2 ? 1000 : 7, seed);
    const std::int64_t loop =
        seed % 4 == 0 ? n / 2 : static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n)));
    EXPECT_EQ(fast_ohtma(comm, *topology, constraints, loop), reference_ohtma(comm, *topology, constraints, loop))
        << "seed " << seed << " on " << topology->description() << " n=" << n << " loop=" << loop;
  }
}

TEST(Ohtma, MatchesTheReferenceOnStencils) {
  struct Case {
    std::vector<std::int64_t> dims;
    int points;
    const char* topology;
  };
  for (const auto& c : {Case{{4, 4}, 5, "mesh2D 4 4"}, Case{{4, 4}, 9, "tianhe3:1x2,nodes=4,cores=2"},
                        Case{{2, 2, 3}, 7, "tleaf 2 4 10 4 1"}, Case{{3, 5}, 5, "torus2D 4 4"}}) {
    const auto topology = tmap::load_topology(c.topology);
    const auto constraints = Constraints::all(*topology);
    for (const bool shuffled : {false, true}) {
      auto comm = tmap::gen::stencil(c.dims, c.points, 100);
      if (shuffled) comm = tmap::gen::shuffle_ranks(comm, 5);
      const auto loop = comm.num_ranks() / 2;
      EXPECT_EQ(fast_ohtma(comm, *topology, constraints, loop), reference_ohtma(comm, *topology, constraints, loop))
          << c.topology << (shuffled ? " shuffled" : "");
    }
  }
}

TEST(Ohtma, BacktrackingNeverLosesToTheGreedyStart) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=8,cores=2");
  const auto constraints = Constraints::all(*topology);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const auto comm = tmap::gen::random_sparse(60, 4, 1000, seed);
    const auto greedy = tmap::evaluate(comm, *topology, fast_ohtma(comm, *topology, constraints, 0)).hop_bytes;
    const auto full = tmap::evaluate(comm, *topology, fast_ohtma(comm, *topology, constraints, -1)).hop_bytes;
    EXPECT_LE(full, greedy) << seed;
  }
}

TEST(Ohtma, SameMappingAtOneAndTwoThreads) {
  // Large enough for the parallel paths (tables wider than 2048 rows).
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=16,cores=40");
  const auto constraints = Constraints::all(*topology);
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({50, 50}, 5, 1000), 3);
  EXPECT_EQ(fast_ohtma(comm, *topology, constraints, 300, 1), fast_ohtma(comm, *topology, constraints, 300, 2));
}

TEST(Ohtma, UnderOversubscriptionAndFewerRanksThanSlots) {
  const auto topology = tmap::load_topology("tianhe3:1x2,nodes=4,cores=4");
  const auto comm = tmap::gen::stencil({4, 5}, 5, 10);
  for (const std::int64_t k : {1, 2, 3}) {
    const std::vector<tmap::PE> allowed{0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23};
    const auto constraints = Constraints::allowed(*topology, allowed, k);
    if (constraints.num_slots() < comm.num_ranks()) continue;
    const auto mapping = fast_ohtma(comm, *topology, constraints, -1);
    EXPECT_TRUE(tmap::test::places_within(mapping, comm.num_ranks(), allowed, k));
    EXPECT_EQ(mapping, reference_ohtma(comm, *topology, constraints, comm.num_ranks() / 2)) << k;
  }
}

TEST(Ohtma, CloseToTheBruteForceOptimum) {
  // OHTMA is a heuristic: measured, it finds the optimum on 3 of these 4
  // instances and is 4.9 % above it on the last. A regression past 10 % on
  // any, or to fewer than 3 optima, fails; the gaps are also recorded.
  const auto topology = tmap::load_topology("tleaf 2 2 10 4 1");
  const auto constraints = Constraints::all(*topology);
  int optima = 0;
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    const auto comm = random_directed(8, 0.4, 100, seed);
    std::vector<PE> sigma(8);
    std::iota(sigma.begin(), sigma.end(), 0);
    std::int64_t optimum = std::numeric_limits<std::int64_t>::max();
    do {
      optimum = std::min(optimum, tmap::evaluate(comm, *topology, sigma).hop_bytes);
    } while (std::next_permutation(sigma.begin(), sigma.end()));
    const auto found = tmap::evaluate(comm, *topology, fast_ohtma(comm, *topology, constraints, -1)).hop_bytes;
    const double gap = 100.0 * static_cast<double>(found - optimum) / static_cast<double>(optimum);
    EXPECT_LE(gap, 10.0) << "seed " << seed;
    optima += found == optimum ? 1 : 0;
    RecordProperty("gap_seed_" + std::to_string(seed), std::to_string(gap));
  }
  EXPECT_GE(optima, 3);
}

// ---- ohtma+ -----------------------------------------------------------------

#include "core/distance_oracle.hpp"
#include "refine/candidate_search.hpp"
#include "strategies/ohtma/greedy.hpp"

TEST(OhtmaPlus, NeverWorseThanOhtmaWhenEverySlotIsUsed) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=4,cores=4");
  const auto constraints = Constraints::all(*topology);
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    auto comm = seed % 2 ? tmap::gen::random_sparse(64, 3, 500, seed)
                         : tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 100), seed);
    const auto ohtma = tmap::evaluate(comm, *topology, fast_ohtma(comm, *topology, constraints, -1)).hop_bytes;
    const auto plus = tmap::map_with("ohtma+", Problem{comm, *topology, constraints}, Context{});
    EXPECT_LE(tmap::evaluate(comm, *topology, plus).hop_bytes, ohtma) << seed;
  }
}

TEST(OhtmaPlus, UsesFreeSlotsAndStaysValid) {
  // Two ranks that talk, greedy start far apart is impossible to fix by swaps
  // alone when the only other rank is silent: moves onto free PEs fix it.
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=2,cores=2");
  for (const std::int64_t k : {1, 2}) {
    const std::vector<tmap::PE> allowed{0, 1, 4, 5, 8, 9, 12, 13, 14};
    const auto constraints = Constraints::allowed(*topology, allowed, k);
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      const auto comm = random_directed(7, 0.3, 100, seed);
      const auto plus = tmap::map_with("ohtma+", Problem{comm, *topology, constraints}, Context{});
      EXPECT_TRUE(tmap::test::places_within(plus, 7, allowed, k));
      const auto greedy = tmap::evaluate(comm, *topology, fast_ohtma(comm, *topology, constraints, 0)).hop_bytes;
      EXPECT_LE(tmap::evaluate(comm, *topology, plus).hop_bytes, greedy);
    }
  }
}

TEST(OhtmaPlus, CandidateSearchReportsItsExactGain) {
  const auto topology = tmap::load_topology("mesh2D 12 12");
  const auto constraints = Constraints::all(*topology, 1);
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({10, 12}, 9, 7), 2);
  const auto sym = comm.symmetrized();
  const tmap::refine::SlotSpace slots{constraints.num_slots(), 1};
  tmap::detail::TopologyDistances distances(*topology, constraints.allowed_pes());
  auto sigma = tmap::ohtma::greedy_construction(sym, slots, *topology, constraints.allowed_pes(), 1);
  auto to_mapping = [&] {
    Mapping m(sigma.size());
    for (std::size_t r = 0; r < sigma.size(); ++r) m[r] = constraints.allowed_pes()[sigma[r]];
    return m;
  };
  const auto before = tmap::evaluate(comm, *topology, to_mapping()).hop_bytes;
  const auto nodes = tmap::refine::local_nodes(*topology, constraints.allowed_pes());
  const auto result = tmap::refine::candidate_search(sym, slots, distances, nodes, sigma, 100);
  const auto after = tmap::evaluate(comm, *topology, to_mapping()).hop_bytes;
  EXPECT_GT(result.swaps + result.moves, 0);
  EXPECT_EQ(static_cast<std::int64_t>(result.gain), before - after);
  // A second search from the local optimum finds nothing.
  EXPECT_EQ(static_cast<std::int64_t>(tmap::refine::candidate_search(sym, slots, distances, nodes, sigma, 100).gain),
            0);
}

TEST(OhtmaPlus, SameMappingAtOneAndTwoThreads) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=16,cores=40");
  const auto constraints = Constraints::all(*topology);
  // Wider than 2048 ranks so the parallel paths run; two passes suffice.
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({50, 50}, 5, 1000), 4);
  Context one;
  one.ohtma.max_passes = 2;
  Context two = one;
  two.threads = 2;
  EXPECT_EQ(tmap::map_with("ohtma+", Problem{comm, *topology, constraints}, one),
            tmap::map_with("ohtma+", Problem{comm, *topology, constraints}, two));
}

TEST(OhtmaGreedy, PerNodeSearchEqualsPerSlotSearch) {
  for (const char* spec : {"tianhe3:2x3,nodes=4,cores=3", "tleaf 3 2 30 3 4 4 2", "tleaf 2 4 9 1 1", "mesh2D 5 4"}) {
    const auto topology = tmap::load_topology(spec);
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
      tmap::detail::Random rng(seed, 3);
      std::vector<PE> allowed;
      for (PE p = 0; p < topology->size(); ++p) {
        if (rng.below(3) != 0) allowed.push_back(p);
      }
      const std::int64_t k = 1 + static_cast<std::int64_t>(seed % 3);
      const auto constraints = Constraints::allowed(*topology, allowed, k);
      const Rank n = std::min<Rank>(constraints.num_slots(), 5 + static_cast<Rank>(rng.below(40)));
      const auto sym = random_directed(n, 0.15, 50, seed).symmetrized();
      const tmap::refine::SlotSpace slots{constraints.num_slots(), k};
      EXPECT_EQ(tmap::ohtma::greedy_construction(sym, slots, *topology, constraints.allowed_pes(), 1),
                tmap::ohtma::greedy_construction(sym, slots, *topology, constraints.allowed_pes(), 1,
                                                 tmap::ohtma::SlotSearch::PerSlot))
          << spec << " seed " << seed;
    }
  }
}

TEST(Ohtma, RefusesTablesThatCannotFitBeforeAnyWork) {
  const auto topology = tmap::load_topology("cmplt 65536");
  const auto comm = tmap::gen::stencil({256, 256}, 5, 10);
  const auto constraints = Constraints::all(*topology);
  try {
    (void)tmap::map_with("ohtma", Problem{comm, *topology, constraints}, Context{});
    FAIL() << "ohtma accepted a 16 GiB gain table";
  } catch (const tmap::ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("use ohtma+"), std::string::npos) << e.what();
  }
}
