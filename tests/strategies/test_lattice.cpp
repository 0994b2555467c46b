// Periodic 2D lattices of ranks (src/strategies/geometric/lattice.hpp) and
// their tiles on tree machines (tree_tiles.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "strategies/geometric/geometric.hpp"
#include "strategies/geometric/lattice.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"

namespace {

using tmap::strategies::Lattice2D;
using tmap::strategies::LatticeBasis;

/// Is (dx, dy) one of the lattice's steps, modulo its periods?
bool one_step(const Lattice2D& lattice, std::int64_t dx, std::int64_t dy) {
  std::vector<std::array<std::int64_t, 2>> steps{{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  if (lattice.kind == Lattice2D::Kind::Triangular) steps.insert(steps.end(), {{-1, 1}, {1, -1}});
  return std::any_of(steps.begin(), steps.end(),
                     [&](const auto& s) { return lattice.periods.contains(dx - s[0], dy - s[1]); });
}

/// The traffic's pairs all one step apart in the recovered lattice.
void expect_every_pair_one_step(const tmap::CommMatrix& comm, const Lattice2D& lattice) {
  for (tmap::Rank v = 0; v < comm.num_ranks(); ++v) {
    for (const auto u : comm.targets(v)) {
      const auto dx = lattice.x[static_cast<std::size_t>(u)] - lattice.x[static_cast<std::size_t>(v)];
      const auto dy = lattice.y[static_cast<std::size_t>(u)] - lattice.y[static_cast<std::size_t>(v)];
      ASSERT_TRUE(one_step(lattice, dx, dy)) << v << " -> " << u << ": " << dx << ", " << dy;
    }
  }
}

TEST(Lattice, HermiteNormalFormByHand) {
  // (16, 24) and (0, 16): y's gcd 8 from (16, 24) - (0, 16) = (16, 8); then
  // (0, 16) - 2 (16, 8) = (-32, 0), so a = 32, b = 16: 256 points a cell.
  const auto l = tmap::strategies::lattice_of({{16, 24}, {0, 16}});
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->a, 32);
  EXPECT_EQ(l->b, 16);
  EXPECT_EQ(l->d, 8);
  EXPECT_TRUE(l->contains(16, 24));
  EXPECT_TRUE(l->contains(-32, 0));
  EXPECT_FALSE(l->contains(16, 0));
  // The residues of one cell are 0 .. 255, each once.
  std::set<std::int64_t> residues;
  for (std::int64_t y = 0; y < 8; ++y) {
    for (std::int64_t x = 0; x < 32; ++x) residues.insert(l->residue(x, y));
  }
  EXPECT_EQ(residues.size(), 256U);
  EXPECT_EQ(*residues.rbegin(), 255);
  EXPECT_EQ(l->residue(5 + 16, 3 + 24), l->residue(5, 3));
  // Parallel vectors span no 2D lattice.
  EXPECT_FALSE(tmap::strategies::lattice_of({{2, 2}, {4, 4}}).has_value());
}

TEST(Lattice, RecoversBtsTriangularLatticeInAnyRankOrder) {
  // NPB BT's multipartition: 32 x 32 ranks, partners along x, y and one diagonal.
  const auto bt = tmap::gen::app_pattern("bt", 1024);
  for (const std::uint64_t seed : {0U, 5U}) {
    const auto comm = seed == 0 ? bt : tmap::gen::shuffle_ranks(bt, seed);
    const auto lattice = tmap::strategies::recover_lattice(comm.symmetrized());
    ASSERT_TRUE(lattice.has_value()) << seed;
    EXPECT_EQ(lattice->kind, Lattice2D::Kind::Triangular);
    EXPECT_EQ(lattice->periods.a * lattice->periods.d, 1024);
    expect_every_pair_one_step(comm, *lattice);
  }
}

TEST(Lattice, RecoversPeriodicFivePointStencilsAsSquareLattices) {
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({20, 12}, 5, 1000, true), 7);
  const auto lattice = tmap::strategies::recover_lattice(comm.symmetrized());
  ASSERT_TRUE(lattice.has_value());
  EXPECT_EQ(lattice->kind, Lattice2D::Kind::Square);
  EXPECT_EQ(lattice->periods.a * lattice->periods.d, 240);
  expect_every_pair_one_step(comm, *lattice);
}

TEST(Lattice, RefusesWhatIsNoLattice) {
  // Not periodic, irregular, 3D, and BT with one pair of edges swapped
  // (every rank keeps 6 partners).
  EXPECT_FALSE(tmap::strategies::recover_lattice(tmap::gen::stencil({8, 8}, 5, 1).symmetrized()));
  EXPECT_FALSE(tmap::strategies::recover_lattice(tmap::gen::random_sparse(256, 3, 10, 1).symmetrized()));
  EXPECT_FALSE(tmap::strategies::recover_lattice(tmap::gen::stencil({6, 6, 6}, 7, 1, true).symmetrized()));
  const auto bt = tmap::gen::app_pattern("bt", 256).symmetrized();
  std::vector<tmap::CommEntry> entries;
  const auto a = bt.targets(0)[0];
  const auto b = bt.targets(100)[0];
  ASSERT_TRUE(std::find(bt.targets(0).begin(), bt.targets(0).end(), b) == bt.targets(0).end());
  ASSERT_TRUE(std::find(bt.targets(100).begin(), bt.targets(100).end(), a) == bt.targets(100).end());
  for (tmap::Rank v = 0; v < 256; ++v) {
    for (const auto u : bt.targets(v)) {
      // 0-a and 100-b become 0-b and 100-a.
      const bool first = (v == 0 && u == a) || (v == a && u == 0);
      const bool second = (v == 100 && u == b) || (v == b && u == 100);
      if (first || second) continue;
      entries.push_back({v, u, 1});
    }
  }
  entries.insert(entries.end(), {{0, b, 1}, {b, 0, 1}, {100, a, 1}, {a, 100, 1}});
  EXPECT_FALSE(tmap::strategies::recover_lattice(tmap::CommMatrix::from_entries(256, entries)));
}

TEST(Lattice, TilesAreCongruentAndCutTheLeast) {
  // An 8 x 8 periodic stencil in 4 tiles of 16: 32 edges cut (a 4-way
  // partition of that torus cuts at least 32: each part's boundary is at
  // least 16 edges, shared by two parts).
  const auto square = tmap::gen::stencil({8, 8}, 5, 1, true).symmetrized();
  const auto s = tmap::strategies::recover_lattice(square);
  ASSERT_TRUE(s.has_value());
  const auto tilings = tmap::strategies::tile_lattice(*s, square, 16, 4);
  ASSERT_FALSE(tilings.empty());
  EXPECT_EQ(tilings.front().cut, 2 * 2 * 32);  // sym counts each pair both ways, each way 1 + 1 bytes
  // BT at 4,096 ranks in 16 tiles of 256: hexagons along the three
  // directions cut 896 of the 12,288 edges (the least over every tiling by
  // a sublattice, found apart by a script that assigns each point to its
  // nearest centre: benchmarks' notes; squares cut 1,024).
  const auto bt = tmap::gen::shuffle_ranks(tmap::gen::app_pattern("bt", 4096), 2).symmetrized();
  const auto lattice = tmap::strategies::recover_lattice(bt);
  ASSERT_TRUE(lattice.has_value());
  const auto tiles = tmap::strategies::tile_lattice(*lattice, bt, 256, 4);
  ASSERT_FALSE(tiles.empty());
  const auto edge = bt.volumes(0)[0];  // every pair the same
  for (const auto& t : tiles) {
    EXPECT_EQ(t.cut, 896 * 2 * edge);
    std::vector<std::set<std::int64_t>> places(16);
    for (std::size_t r = 0; r < t.tile.size(); ++r) {
      ASSERT_LT(t.tile[r], 16);
      EXPECT_TRUE(places[static_cast<std::size_t>(t.tile[r])].insert(t.place[r]).second);  // each place once a tile
    }
    for (const auto& p : places) EXPECT_EQ(p.size(), 256U);
  }
  // No tiles where the size does not divide the ranks, or one tile is all.
  EXPECT_TRUE(tmap::strategies::tile_lattice(*lattice, bt, 300, 4).empty());
  EXPECT_TRUE(tmap::strategies::tile_lattice(*lattice, bt, 4096, 4).empty());
  // Nor past 4,096 ranks a tile (laying one out would cost its square).
  const auto big = tmap::gen::stencil({128, 128}, 5, 1, true).symmetrized();
  const auto b = tmap::strategies::recover_lattice(big);
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(tmap::strategies::tile_lattice(*b, big, 4096, 4).empty());
  EXPECT_TRUE(tmap::strategies::tile_lattice(*b, big, 8192, 4).empty());
}

TEST(Lattice, BtOnATreeGoesInTilesWhateverTheRankOrder) {
  // 1,024 ranks of BT on 4 racks of 4 boards of 64 cores: the default's
  // mapping is the tiles' layout, 38,550,896,640 hop-bytes in any rank
  // order (SharedMap's strongest, KaHIP level by level: 38,727,843,840;
  // tmap before the tiles: 38,875,299,840). The racks exchange what the
  // best tiles cut: 252 pairs of 1,474,560 bytes each way.
  const auto machine = tmap::load_topology("tleaf 3 4 20 4 10 64 1");
  const auto constraints = tmap::Constraints::all(*machine);
  for (const std::uint64_t seed : {0U, 9U}) {
    const auto bt = tmap::gen::app_pattern("bt", 1024);
    const auto comm = seed == 0 ? bt : tmap::gen::shuffle_ranks(bt, seed);
    tmap::Context config;
    config.objective = tmap::Objective::HopBytes;
    const auto mapping = tmap::map_with("auto", {comm, *machine, constraints}, config);
    tmap::validate_mapping(mapping, 1024, constraints);
    const auto metrics = tmap::evaluate(comm, *machine, mapping);
    EXPECT_EQ(metrics.hop_bytes, 38'550'896'640) << seed;
    // -s geometric lays a lattice on a tree out in the same tiles.
    const auto geometric = tmap::map_with("geometric", {comm, *machine, constraints}, config);
    EXPECT_EQ(tmap::evaluate(comm, *machine, geometric).hop_bytes, 38'550'896'640) << seed;
    std::string why;
    const auto tiles = tmap::strategies::lay_out_tiles({comm, *machine, constraints}, comm.symmetrized(), config, why);
    ASSERT_TRUE(tiles.has_value()) << why;
    tmap::Volume across_racks = 0;
    for (tmap::Rank v = 0; v < 1024; ++v) {
      for (std::size_t k = 0; k < comm.targets(v).size(); ++k) {
        const auto u = comm.targets(v)[k];
        if ((*tiles)[static_cast<std::size_t>(v)] / 256 != (*tiles)[static_cast<std::size_t>(u)] / 256)
          across_racks += comm.volumes(v)[k];
      }
    }
    EXPECT_EQ(across_racks, 252 * 2 * 1'474'560) << seed;
  }
  // Other traffic on the tree, or the lattice off a tree: no tiles, and why.
  std::string why;
  const auto random = tmap::gen::random_sparse(1024, 3, 100, 1);
  EXPECT_FALSE(
      tmap::strategies::lay_out_tiles({random, *machine, constraints}, random.symmetrized(), tmap::Context{}, why));
  EXPECT_NE(why.find("not a periodic 2D lattice"), std::string::npos) << why;
  const auto torus = tmap::load_topology("torus2D 32 32");
  const auto on_torus = tmap::Constraints::all(*torus);
  const auto bt = tmap::gen::app_pattern("bt", 1024);
  EXPECT_FALSE(tmap::strategies::lay_out_tiles({bt, *torus, on_torus}, bt.symmetrized(), tmap::Context{}, why));
  EXPECT_NE(why.find("not a tree"), std::string::npos) << why;
  // Racks of 8,192 PEs: refused before the traffic is read, and why.
  const auto wide = tmap::load_topology("tleaf 2 2 10 8192 1");
  const auto stencil = tmap::gen::stencil({128, 128}, 5, 1, true);
  EXPECT_FALSE(tmap::strategies::lay_out_tiles({stencil, *wide, tmap::Constraints::all(*wide)}, stencil.symmetrized(),
                                               tmap::Context{}, why));
  EXPECT_NE(why.find("8192 ranks, more than the 4096"), std::string::npos) << why;
}

}  // namespace
