// The distributed path's own pieces under mpirun (-np 1, 2 and 3): the grid
// recovered where the graph lives equals the sequential recovery, and is
// refused where the sequential one refuses; map_distributed lays shuffled
// stencils out at the optimum and gives small graphs the sequential default's
// mapping; the refinement across block borders never
// raises hop-bytes, keeps every rank in its region and is deterministic.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <set>
#include <vector>

#include "distributed/gathered_map.hpp"
#include "distributed/grid_geometry.hpp"
#include "distributed/halo_refine.hpp"
#include "distributed/map_distributed.hpp"
#include "strategies/geometric/grid_recovery.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

namespace tmap::dist {
namespace {

int process() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int processes() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// This process's block of `comm`: every process gives a stripe of the
/// entries (entry k from process k mod P), as a job's ranks would.
LocalGraph share_of(const CommMatrix& comm) {
  std::vector<CommEntry> mine;
  std::int64_t k = 0;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto targets = comm.targets(i);
    const auto volumes = comm.volumes(i);
    for (std::size_t e = 0; e < targets.size(); ++e, ++k) {
      if (k % processes() == process()) mine.push_back({i, targets[e], volumes[e]});
    }
  }
  return local_graph_from_entries(MPI_COMM_WORLD, comm.num_ranks(), mine);
}

/// comm with one more pair (a, b).
CommMatrix with_pair(const CommMatrix& comm, Rank a, Rank b) {
  std::vector<CommEntry> entries{{a, b, 1000}};
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    for (std::size_t e = 0; e < comm.targets(i).size(); ++e)
      entries.push_back({i, comm.targets(i)[e], comm.volumes(i)[e]});
  }
  return CommMatrix::from_entries(comm.num_ranks(), std::move(entries));
}

/// comm without the pairs of rank `a` and its first partner.
CommMatrix without_pair(const CommMatrix& comm, Rank a) {
  const Rank b = comm.targets(a).front();
  std::vector<CommEntry> entries;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    for (std::size_t e = 0; e < comm.targets(i).size(); ++e) {
      const Rank j = comm.targets(i)[e];
      if ((i == a && j == b) || (i == b && j == a)) continue;
      entries.push_back({i, j, comm.volumes(i)[e]});
    }
  }
  return CommMatrix::from_entries(comm.num_ranks(), std::move(entries));
}

TEST(DistributedGeometry, RecoversWhatTheSequentialRecoveryRecovers) {
  const std::vector<std::vector<std::int64_t>> shapes{{17, 1}, {9, 7}, {2, 2, 2}, {6, 5, 4}, {8, 3, 5}, {12, 1, 1}};
  for (const auto& dims : shapes) {
    for (const std::uint64_t seed : {1, 7}) {
      const auto comm = gen::shuffle_ranks(gen::stencil(dims, dims.size() == 2 ? 5 : 7, 100), seed);
      const auto expected = strategies::recover_grid(comm.symmetrized());
      ASSERT_TRUE(expected.has_value());
      const auto got = recover_grid(MPI_COMM_WORLD, share_of(comm));
      ASSERT_TRUE(got.has_value()) << dims.size() << "D, seed " << seed;
      EXPECT_EQ(got->extent, expected->extent);
      EXPECT_EQ(got->coordinates, expected->coordinates);
      EXPECT_TRUE(strategies::is_exactly_the_grid(comm.symmetrized(), *got));
    }
  }
}

TEST(DistributedGeometry, RefusesWhatIsNotExactlyAGrid) {
  const auto grid = gen::shuffle_ranks(gen::stencil({6, 5, 4}, 7, 100), 3);
  const std::vector<CommMatrix> not_grids{
      gen::random_sparse(120, 3, 100, 5),
      with_pair(grid, 0, 77),
      without_pair(grid, 10),
      gen::stencil({6, 5, 4}, 27, 100),
      gen::shuffle_ranks(gen::stencil({6, 5, 4}, 7, 100, /*periodic=*/true), 2),  // periodic: sequential only
  };
  for (std::size_t k = 0; k < not_grids.size(); ++k) {
    EXPECT_FALSE(recover_grid(MPI_COMM_WORLD, share_of(not_grids[k])).has_value()) << "case " << k;
  }
  // Two grids side by side, not joined.
  std::vector<CommEntry> two;
  const auto one = gen::stencil({4, 4}, 5, 100);
  for (Rank i = 0; i < 16; ++i) {
    for (const Rank j : one.targets(i)) {
      two.push_back({i, j, 100});
      two.push_back({i + 16, j + 16, 100});
    }
  }
  EXPECT_FALSE(recover_grid(MPI_COMM_WORLD, share_of(CommMatrix::from_entries(32, two))).has_value());
}

TEST(DistributedMapping, LaysShuffledStencilsOutAtTheOptimum) {
  struct Case {
    std::vector<std::int64_t> dims;
    const char* machine;
  };
  for (const auto& c :
       {Case{{8, 6, 4}, "torus3D 8 6 4"}, Case{{8, 6, 4}, "mesh3D 4 6 8"}, Case{{16, 12}, "torus2D 16 12"}}) {
    const auto comm = gen::shuffle_ranks(gen::stencil(c.dims, c.dims.size() == 2 ? 5 : 7, 1000), 11);
    const auto topology = load_topology(c.machine);
    const auto constraints = Constraints::all(*topology);
    const auto graph = share_of(comm);
    DistributedStats stats;
    const auto mapping = map_distributed(MPI_COMM_WORLD, graph, *topology, constraints, Context{}, &stats);
    EXPECT_EQ(stats.kept, "geometric") << c.machine;
    const auto metrics = evaluate(comm, *topology, mapping);  // the sequential evaluator
    EXPECT_EQ(metrics.hop_bytes, comm.symmetrized().total_volume() / 2) << c.machine;
    EXPECT_EQ(distributed_hop_bytes(MPI_COMM_WORLD, graph, *topology, mapping), metrics.hop_bytes);
  }
  // The natural order is kept as it is.
  const auto natural = gen::stencil({8, 6, 4}, 7, 1000);
  const auto topology = load_topology("torus3D 8 6 4");
  DistributedStats stats;
  const auto mapping =
      map_distributed(MPI_COMM_WORLD, share_of(natural), *topology, Constraints::all(*topology), Context{}, &stats);
  EXPECT_EQ(stats.kept, "inorder");
  for (Rank r = 0; r < natural.num_ranks(); ++r) EXPECT_EQ(mapping[static_cast<std::size_t>(r)], r);
}

TEST(DistributedMapping, SmallGraphsGetTheSequentialDefaultsMapping) {
  // Below kGatheredEntries the graph is gathered on process 0 and mapped by
  // the sequential default: for symmetric traffic (each direction gets half
  // of a pair's symmetrised bytes, so the gathered matrix is the job's) the
  // very mapping tmap::map gives the whole matrix, on every process.
  struct Case {
    CommMatrix comm;
    const char* machine;
  };
  const Case cases[] = {
      {gen::shuffle_ranks(gen::stencil({16, 8}, 5, 1000), 3), "torus3D 4 4 8"},  // a 2D grid in a 3D torus
      {gen::random_sparse(96, 6, 1000, 5), "tianhe3:1x1,nodes=4,cores=24"},
      {gen::random_sparse(60, 4, 1000, 7), "tleaf 2 4 10 16 1"},  // 60 ranks on 64 PEs
  };
  for (const auto& c : cases) {
    const auto topology = load_topology(c.machine);
    const auto constraints = Constraints::all(*topology);
    DistributedStats stats;
    const auto mapping = map_distributed(MPI_COMM_WORLD, share_of(c.comm), *topology, constraints, Context{}, &stats);
    EXPECT_EQ(stats.kept, "sequential") << c.machine << ": " << stats.why;
    EXPECT_EQ(mapping, map(Problem{c.comm, *topology, constraints}, Context{})) << c.machine;
  }
}

TEST(DistributedMapping, GathersTheJobsMatrixOnProcessZero) {
  // Symmetric traffic comes back as it was; a one-way pair of 7 bytes is
  // split 4 (lower rank to higher) and 3, the same hop-bytes on any machine.
  const auto random = gen::random_sparse(50, 5, 1000, 9);
  const auto gathered = gather_matrix(MPI_COMM_WORLD, share_of(random));
  const auto one_way = gather_matrix(MPI_COMM_WORLD, share_of(CommMatrix::from_entries(4, {{3, 1, 7}})));
  if (process() != 0) {
    EXPECT_EQ(gathered.num_entries(), 0);
    return;
  }
  ASSERT_EQ(gathered.num_ranks(), random.num_ranks());
  for (Rank i = 0; i < random.num_ranks(); ++i) {
    EXPECT_TRUE(std::ranges::equal(gathered.targets(i), random.targets(i))) << i;
    EXPECT_TRUE(std::ranges::equal(gathered.volumes(i), random.volumes(i))) << i;
  }
  ASSERT_EQ(one_way.num_entries(), 2);
  EXPECT_EQ(one_way.targets(1).front(), 3);
  EXPECT_EQ(one_way.volumes(1).front(), 4);
  EXPECT_EQ(one_way.volumes(3).front(), 3);
}

TEST(DistributedRefinement, NeverRaisesHopBytesAndKeepsRanksInTheirRegions) {
  const auto topology = load_topology("torus3D 8 8 8");
  // One rank per PE, and two per PE with free slots (in the halo's PEs too).
  for (const std::int64_t per_pe : {1, 2}) {
    const auto constraints = Constraints::all(*topology, per_pe);
    const auto allowed = constraints.allowed_pes();
    std::vector<std::int64_t> region_of_pe(allowed.size());
    for (std::size_t u = 0; u < allowed.size(); ++u) region_of_pe[u] = static_cast<std::int64_t>(u / 64);
    const Rank n = per_pe == 1 ? 512 : 700;
    for (const auto& comm : {gen::random_sparse(n, 4, 1000, 3), gen::shuffle_ranks(gen::stencil({8, 8, 8}, 27, 10), 4),
                             gen::app_pattern("lu", 512)}) {
      const auto graph = share_of(comm);
      // A random start, the same on every process: slots dealt at random.
      std::vector<std::int64_t> slots(static_cast<std::size_t>(constraints.num_slots()));
      for (std::size_t s = 0; s < slots.size(); ++s) slots[s] = static_cast<std::int64_t>(s);
      detail::Random rng(5, 0);
      for (std::size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng.below(i)]);
      Mapping start(static_cast<std::size_t>(comm.num_ranks()));
      for (std::size_t r = 0; r < start.size(); ++r) start[r] = allowed[static_cast<std::size_t>(slots[r] / per_pe)];
      auto mapping = start;
      const auto stats = refine_across_regions(MPI_COMM_WORLD, graph, *topology, constraints, region_of_pe, mapping, 4);
      const auto before = evaluate(comm, *topology, start).hop_bytes;
      const auto after = evaluate(comm, *topology, mapping).hop_bytes;
      EXPECT_EQ(stats.before, before);
      EXPECT_EQ(stats.after, after);
      EXPECT_LT(after, before);  // from a random start there is much to gain
      EXPECT_GT(stats.rounds, 0);
      std::vector<std::int64_t> load(static_cast<std::size_t>(topology->size()), 0);
      for (const PE pe : mapping) EXPECT_LE(++load[static_cast<std::size_t>(pe)], per_pe);
      for (std::size_t r = 0; r < mapping.size(); ++r) {
        EXPECT_EQ(region_of_pe[static_cast<std::size_t>(mapping[r])], region_of_pe[static_cast<std::size_t>(start[r])])
            << "rank " << r << " left its region";
      }
      auto again = start;
      (void)refine_across_regions(MPI_COMM_WORLD, graph, *topology, constraints, region_of_pe, again, 4);
      EXPECT_EQ(again, mapping);
    }
  }
}

TEST(DistributedRefinement, LeavesALocalOptimumAsItIs) {
  // The natural stencil in order is optimal: no round can be kept.
  const auto comm = gen::stencil({8, 8, 8}, 7, 10);
  const auto topology = load_topology("torus3D 8 8 8");
  const auto constraints = Constraints::all(*topology);
  std::vector<std::int64_t> region_of_pe(512);
  for (std::size_t u = 0; u < 512; ++u) region_of_pe[u] = static_cast<std::int64_t>(u % 4);
  Mapping mapping(512);
  for (PE p = 0; p < 512; ++p) mapping[static_cast<std::size_t>(p)] = p;
  const auto stats =
      refine_across_regions(MPI_COMM_WORLD, share_of(comm), *topology, constraints, region_of_pe, mapping, 4);
  EXPECT_EQ(stats.rounds, 0);
  EXPECT_EQ(stats.after, stats.before);
  for (PE p = 0; p < 512; ++p) EXPECT_EQ(mapping[static_cast<std::size_t>(p)], p);
}

}  // namespace
}  // namespace tmap::dist

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  // One report: the other processes run the same tests silently.
  if (tmap::dist::process() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
