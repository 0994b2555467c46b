// Comparisons through the library (tm-map --compare's engine): rows in run
// order with the strategies' own mappings, the references the ratios need,
// the table's ratios worked by hand, refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "tmap/comm_matrix.hpp"
#include "tmap/compare.hpp"
#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

using tmap::Context;
using tmap::Problem;

namespace {

// The chain of tests/routing/test_objective.cpp: PEs in a row, 0->3 100
// bytes, 1->2 50 bytes; in order 350 hop-bytes, {0, 2, 3, 1} 150.
struct Chain {
  std::unique_ptr<tmap::Topology> topology = tmap::load_topology("mesh2D 4 1");
  tmap::Constraints constraints = tmap::Constraints::all(*topology);
  tmap::CommMatrix comm = tmap::CommMatrix::from_entries(4, {{0, 3, 100}, {1, 2, 50}});
  [[nodiscard]] Problem problem() const { return {comm, *topology, constraints}; }
};

}  // namespace

TEST(Compare, RowsReferencesAndRatiosWorkedByHand) {
  const Chain chain;
  const auto problem = chain.problem();
  const auto routing = tmap::make_routing(*chain.topology);
  std::vector<tmap::ReportedMapping> external;
  external.push_back(tmap::report_external("paired", {0, 2, 3, 1}, problem, routing.get(), ""));
  const std::vector<std::string> names{"inorder", "greedy:swap"};
  std::vector<std::size_t> told;
  const auto c = tmap::compare(problem, Context{}, names, std::move(external), routing.get(),
                               [&](std::size_t k, const tmap::ReportedMapping&) { told.push_back(k); });
  EXPECT_EQ(told, (std::vector<std::size_t>{0, 1}));
  ASSERT_EQ(c.results.size(), 3U);
  EXPECT_EQ(c.results[0].report.strategy, "paired");
  EXPECT_TRUE(c.results[0].external);
  EXPECT_EQ(c.results[0].report.metrics.hop_bytes, 150);
  EXPECT_EQ(c.results[1].report.strategy, "inorder");
  EXPECT_EQ(c.results[1].mapping, (tmap::Mapping{0, 1, 2, 3}));
  EXPECT_EQ(c.results[1].report.metrics.hop_bytes, 350);
  ASSERT_TRUE(c.results[1].report.routes.has_value());
  EXPECT_DOUBLE_EQ(c.results[1].report.routes->mc, 150.0);
  // NAME:REFINE runs that refinement: the report says so.
  Context swap;
  swap.refine.kind = tmap::RefineKind::Swap;
  EXPECT_EQ(c.results[2].mapping, tmap::map_with("greedy", problem, swap));
  ASSERT_TRUE(c.results[2].report.refine.has_value());
  // In-order is listed: only plain Scotch is run as a reference.
  ASSERT_EQ(c.references.size(), 1U);
  EXPECT_EQ(c.references[0].report.strategy, "scotch");
  EXPECT_TRUE(c.notes.empty());  // 4 ranks on 4 PEs
  EXPECT_FALSE(c.stopped);
  // The table: rows by hop-bytes; paired 150 / in-order 350 = 0.429.
  const auto text = tmap::comparison_text(c);
  EXPECT_NE(text.find("* paired"), std::string::npos) << text;
  EXPECT_NE(text.find("0.429"), std::string::npos) << text;
  EXPECT_LT(text.find("* paired"), text.find("\n  inorder")) << text;
  EXPECT_NE(tmap::comparison_json(c).find("\"best\": \"paired\""), std::string::npos);
}

TEST(Compare, StrategyListsAndRefusals) {
  // "all" is every row, the default (auto) included: it is what users run.
  const auto all = tmap::comparison_strategies("all");
  EXPECT_EQ(std::count(all.begin(), all.end(), std::string(tmap::default_strategy())), 1);
  std::size_t sequential = 0;  // a distributed row (ptscotch) would repeat its counterpart's
  for (const auto& row : tmap::strategy_table()) sequential += row.has(tmap::kDistributed) ? 0 : 1;
  EXPECT_EQ(all.size(), sequential);
  EXPECT_EQ(std::count(all.begin(), all.end(), "ptscotch"), 0);
  EXPECT_EQ(tmap::comparison_strategies("greedy,,greedy,scotch:tabu"),
            (std::vector<std::string>{"greedy", "scotch:tabu"}));
  EXPECT_THROW((void)tmap::comparison_strategies("greedy,nope"), tmap::ParameterError);
  EXPECT_THROW((void)tmap::comparison_strategies("greedy:polish"), tmap::ParameterError);
  EXPECT_THROW((void)tmap::comparison_strategies(","), tmap::ParameterError);

  const Chain chain;
  const auto problem = chain.problem();
  std::vector<tmap::ReportedMapping> twice;
  twice.push_back(tmap::report_external("mine", {0, 1, 2, 3}, problem, nullptr, ""));
  twice.push_back(tmap::report_external("mine", {3, 2, 1, 0}, problem, nullptr, ""));
  EXPECT_THROW((void)tmap::compare(problem, Context{}, {}, std::move(twice), nullptr), tmap::InputError);
  std::vector<tmap::ReportedMapping> named_like_a_strategy;
  named_like_a_strategy.push_back(tmap::report_external("greedy", {0, 1, 2, 3}, problem, nullptr, ""));
  EXPECT_THROW((void)tmap::compare(problem, Context{}, {}, std::move(named_like_a_strategy), nullptr),
               tmap::InputError);
}

// The ratios' bases are never refined (issue 61: with --objective congestion
// the row "inorder" was the refined in-order, and every vs_inorder divided
// by it). A listed reference that the run refines is labelled by what
// refined it, and the plain one is shown beside it; an unlisted reference
// is plain too.
TEST(Compare, ReferencesAreNeverRefined) {
  const Chain chain;
  const auto problem = chain.problem();
  const auto routing = tmap::make_routing(*chain.topology);
  Context run;
  run.objective = tmap::Objective::Congestion;
  run.refine.kind = tmap::RefineKind::Swap;
  const std::vector<std::string> names{"inorder"};
  const auto c = tmap::compare(problem, run, names, {}, routing.get());
  ASSERT_EQ(c.results.size(), 2U);
  EXPECT_EQ(c.results[0].report.strategy, "inorder:swap+congestion");
  EXPECT_LT(c.results[0].report.metrics.hop_bytes, 350);  // refined: the chain has a better placement
  EXPECT_EQ(c.results[1].report.strategy, "inorder");
  EXPECT_EQ(c.results[1].mapping, (tmap::Mapping{0, 1, 2, 3}));
  EXPECT_EQ(c.results[1].report.metrics.hop_bytes, 350);  // worked by hand above
  EXPECT_FALSE(c.results[1].report.refine.has_value());
  ASSERT_EQ(c.references.size(), 1U);
  EXPECT_EQ(c.references[0].report.strategy, "scotch");
  EXPECT_FALSE(c.references[0].report.refine.has_value());
  EXPECT_FALSE(c.references[0].report.objective_refine.has_value());
  // vs_inorder divides by the plain 350.
  const auto text = tmap::comparison_text(c);
  EXPECT_NE(text.find("1.000"), std::string::npos) << text;
  const auto ratio = static_cast<double>(c.results[0].report.metrics.hop_bytes) / 350.0;
  EXPECT_NE(text.find(fmt::format("{:.3f}", ratio)), std::string::npos) << text;
}
