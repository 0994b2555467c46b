// Progress and cancellation (Context::progress, tmap_options_set_progress):
// reports arrive in order without changing the result; a callback that
// says stop gets a valid mapping, the best found by then, marked partial.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixtures.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/tmap.h"
#include "tmap/topology.hpp"

using tmap::Context;
using tmap::Problem;

namespace {

struct Seen {
  std::string stage;
  std::string detail;
  std::int64_t hop_bytes;
  double elapsed_s;
  bool done;
};

}  // namespace

TEST(Progress, ReportsInOrderWithoutChangingTheResult) {
  const auto topology = tmap::load_topology("torus2D 8 8");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 100), 3);
  const auto constraints = tmap::Constraints::all(*topology);
  Context quiet;
  quiet.refine.kind = tmap::RefineKind::Tabu;
  const auto plain = tmap::map_with("best", Problem{comm, *topology, constraints}, quiet);
  std::vector<Seen> seen;
  tmap::Run watched = quiet;
  watched.hooks.progress = [&](const tmap::Progress& p) {
    seen.push_back({std::string(p.stage), std::string(p.detail), p.hop_bytes, p.elapsed_s, p.done});
    return true;
  };
  const auto reported = tmap::map_with("best", Problem{comm, *topology, constraints}, watched);
  EXPECT_EQ(reported, plain);
  ASSERT_GE(seen.size(), 4U);
  EXPECT_EQ(seen.front().stage, "best");
  EXPECT_EQ(seen.back().stage, "best");
  EXPECT_TRUE(seen.back().done);
  EXPECT_EQ(seen.back().hop_bytes, tmap::evaluate(comm, *topology, reported).hop_bytes);
  int candidates = 0;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    if (k > 0) {
      EXPECT_GE(seen[k].elapsed_s, seen[k - 1].elapsed_s);
    }
    if (seen[k].stage == "best" && seen[k].detail.find(" built ") != std::string::npos) ++candidates;
  }
  // One line per construction of the portfolio that suits the input.
  EXPECT_GE(candidates, 6);
}

TEST(Progress, StoppingReturnsTheBestSoFarMarkedPartial) {
  const auto topology = tmap::load_topology("torus2D 8 8");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 100), 3);
  const auto constraints = tmap::Constraints::all(*topology);
  tmap::Run context;
  context.refine.kind = tmap::RefineKind::Tabu;
  context.hooks.control = std::make_shared<tmap::RunControl>();
  std::int64_t first_candidate = -1;
  context.hooks.progress = [&](const tmap::Progress& p) {
    if (p.stage == "best" && p.detail.find(" built ") != std::string::npos) {
      first_candidate = p.hop_bytes;
      return false;  // stop after the first construction
    }
    return true;
  };
  const auto mapping = tmap::map_with("best", Problem{comm, *topology, constraints}, context);
  EXPECT_TRUE(context.stopped());
  EXPECT_TRUE(tmap::test::places_within(mapping, comm.num_ranks(), tmap::test::every_pe(*topology), 1));
  EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, first_candidate);
}

TEST(Progress, CApiCallbackStopsAndSaysPartial) {
  tmap_topology* topology = nullptr;
  tmap_comm* comm = nullptr;
  ASSERT_EQ(tmap_topology_load("torus2D 8 8", &topology, nullptr), TMAP_OK);
  std::vector<int64_t> dense(64 * 64, 0);
  for (int64_t i = 0; i < 64; ++i) dense[static_cast<std::size_t>(i * 64 + (i * 17 + 5) % 64)] = 100;
  ASSERT_EQ(tmap_comm_from_dense(64, dense.data(), &comm, nullptr), TMAP_OK);
  tmap_options* options = tmap_options_create();
  ASSERT_EQ(tmap_options_set_refine(options, "tabu", -1, nullptr), TMAP_OK);
  struct Count {
    int calls = 0;
  } count;
  tmap_options_set_progress(
      options,
      [](const tmap_progress* p, void* data) {
        auto* c = static_cast<Count*>(data);
        ++c->calls;
        return std::string(p->stage) == "best" && std::string(p->detail).find(" built ") != std::string::npos ? 0 : 1;
      },
      &count);
  tmap_result* result = nullptr;
  ASSERT_EQ(tmap_map(topology, comm, nullptr, "best", options, &result, nullptr), TMAP_OK);
  EXPECT_EQ(tmap_result_partial(result), 1);
  EXPECT_GT(count.calls, 0);
  EXPECT_EQ(tmap_result_ranks(result), 64);
  tmap_result_free(result);
  // Without a callback the same call runs to the end.
  tmap_options_set_progress(options, nullptr, nullptr);
  ASSERT_EQ(tmap_map(topology, comm, nullptr, "best", options, &result, nullptr), TMAP_OK);
  EXPECT_EQ(tmap_result_partial(result), 0);
  tmap_result_free(result);
  tmap_options_free(options);
  tmap_comm_free(comm);
  tmap_topology_free(topology);
}
