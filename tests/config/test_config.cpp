// The configuration as data: presets, every option by key, JSON save and
// load; and the error categories.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"

namespace {

using tmap::Context;

/// A Context with every field away from its default.
Context everything_changed() {
  Context c;
  c.strategy = "ohtma+";
  c.seed = 18446744073709551615ULL;  // 2^64 - 1: the whole seed range
  c.threads = 3;
  c.link_bandwidths = "row=2,col=2";
  c.objective = tmap::Objective::Time;
  c.ohtma.loop = 17;
  c.ohtma.max_passes = 5;
  c.scotch.imbalance = 0.1 + 0.2;  // a double that needs every digit
  c.scotch.flags = "qs";
  c.scotch.sparse_factor = 0.125;
  c.scotch.target = "table";
  c.treematch.tau = 1234;
  c.treematch.bisection = "multilevel";
  c.treematch.grouping = "always";
  c.grid2d.domain_height = 262144;
  c.grid2d.domain_width = 131072.5;
  c.rb.passes = 0;
  c.auto_strategy.scotch = "scotch+";
  c.auto_strategy.treematch = "without-scotch";
  c.refine.kind = tmap::RefineKind::Tabu;
  c.refine.iterations = 999;
  c.refine.time_limit_s = 1.5;
  return c;
}

TEST(Config, SaveThenLoadGivesAnEqualContext) {
  for (const Context& c : {Context{}, everything_changed(), tmap::preset("fast"), tmap::preset("quality")}) {
    const auto text = tmap::save_config(c);
    EXPECT_EQ(tmap::load_config(text, "c.json"), c) << text;
    // Loading on top of another base changes nothing: every option is saved.
    EXPECT_EQ(tmap::load_config(text, "c.json", everything_changed()), c) << text;
  }
  EXPECT_NE(everything_changed(), Context{});
}

// No objective given ("auto") and an explicit hop-bytes are two settings:
// the default strategy chooses by predicted time under the first only.
TEST(Config, NoObjectiveIsSavedAsAutoAndHopBytesStaysExplicit) {
  const auto saved = nlohmann::json::parse(tmap::save_config(Context{}));
  EXPECT_EQ(saved["options"]["objective"], "auto");
  Context explicit_hop_bytes;
  tmap::set_option(explicit_hop_bytes, "objective", "hop-bytes");
  EXPECT_EQ(explicit_hop_bytes.objective, tmap::Objective::HopBytes);
  EXPECT_NE(explicit_hop_bytes, Context{});
  EXPECT_EQ(tmap::load_config(tmap::save_config(explicit_hop_bytes), "c.json"), explicit_hop_bytes);
  tmap::set_option(explicit_hop_bytes, "objective", "auto");
  EXPECT_EQ(explicit_hop_bytes, Context{});
  EXPECT_EQ(Context{}.measured_objective(), tmap::Objective::HopBytes);
  EXPECT_THROW(tmap::set_option(explicit_hop_bytes, "objective", "fast"), tmap::ParameterError);
}

TEST(Config, OptionValuesSetBackGiveAnEqualContext) {
  const auto original = everything_changed();
  Context rebuilt;
  for (const auto& [key, value] : tmap::option_values(original)) tmap::set_option(rebuilt, key, value);
  EXPECT_EQ(rebuilt, original);
  // Every option of the strategy table is among them, once.
  std::size_t strategy_options = 0;
  for (const auto& row : tmap::strategy_table()) strategy_options += row.options.size();
  EXPECT_EQ(tmap::option_values(original).size(), strategy_options + 8);
}

TEST(Config, PresetsAreNamedAndDistinct) {
  EXPECT_EQ(tmap::preset("default"), Context{});
  EXPECT_EQ(tmap::preset("quality").strategy, "auto");
  EXPECT_EQ(tmap::preset("quality").refine.kind, tmap::RefineKind::Multilevel);
  EXPECT_EQ(tmap::preset("fast").auto_strategy.treematch, "without-scotch");
  EXPECT_EQ(tmap::preset("quality").auto_strategy.scotch, "scotch+");
  EXPECT_EQ(tmap::Context{}.auto_strategy.scotch, "scotch");
  for (const auto name : tmap::preset_names()) EXPECT_FALSE(tmap::preset_summary(name).empty()) << name;
  EXPECT_THROW((void)tmap::preset("turbo"), tmap::ParameterError);
}

TEST(Config, ReadsTheConfigOfAJsonResultAndLeavesOutMissingKeys) {
  const auto base = everything_changed();
  const auto partial = R"({"tmap_config": 1, "options": {"strategy": "rcm", "seed": 7}})";
  const auto c = tmap::load_config(partial, "p.json", base);
  EXPECT_EQ(c.strategy, "rcm");
  EXPECT_EQ(c.seed, 7U);
  EXPECT_EQ(c.ohtma.loop, base.ohtma.loop);
  const auto result = R"({"strategy": "x", "config": {"tmap_config": 1, "options": {"refine": "swap"}}})";
  EXPECT_EQ(tmap::load_config(result, "r.json").refine.kind, tmap::RefineKind::Swap);
}

std::string load_error(const std::string& text) {
  try {
    (void)tmap::load_config(text, "c.json");
  } catch (const tmap::InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Config, BadFilesNameTheFileAndTheKey) {
  EXPECT_TRUE(load_error("{").starts_with("c.json: not valid JSON")) << load_error("{");
  EXPECT_TRUE(load_error("[1]").starts_with("c.json: neither a tmap configuration")) << load_error("[1]");
  EXPECT_TRUE(load_error(R"({"tmap_config": 2})").starts_with("c.json: tmap_config: this tmap reads version 1"));
  EXPECT_TRUE(load_error(R"({"tmap_config": 1, "options": {"nope": 1}})").starts_with("c.json: unknown option 'nope'"));
  EXPECT_EQ(load_error(R"({"tmap_config": 1, "options": {"threads": 0}})"),
            "c.json: threads: '0' is not a whole number between 1 and 4096");
  EXPECT_EQ(load_error(R"({"tmap_config": 1, "options": {"strategy": "nope"}})").rfind("c.json: strategy: unknown", 0),
            0U);
  EXPECT_EQ(load_error(R"({"tmap_config": 1, "options": {"seed": [1]}})"),
            "c.json: seed: expected a string or a number");
  // A word among a few: every choice named, in order.
  EXPECT_EQ(load_error(R"({"tmap_config": 1, "options": {"treematch-bisection": "half"}})"),
            "c.json: treematch-bisection: 'half' is not auto, flat or multilevel");
  EXPECT_EQ(load_error(R"({"tmap_config": 1, "options": {"auto-scotch": "gmap"}})"),
            "c.json: auto-scotch: 'gmap' is not scotch+ or scotch");
  // A number past a double's range (found by fuzz_config): an input error,
  // not nlohmann's out_of_range escaping as an internal one.
  EXPECT_TRUE(load_error(R"({"tmap_config": 177e777777})").starts_with("c.json: not valid JSON: "))
      << load_error(R"({"tmap_config": 177e777777})");
}

TEST(Errors, EveryCategoryHasItsKindAndName) {
  EXPECT_EQ(tmap::InputError("f", 3, "bad").kind(), tmap::ErrorKind::InvalidInput);
  EXPECT_EQ(tmap::ParameterError("k: bad").kind(), tmap::ErrorKind::InvalidParameter);
  EXPECT_EQ(tmap::UnsupportedError("no").kind(), tmap::ErrorKind::Unsupported);
  EXPECT_EQ(tmap::ResourceError("big").kind(), tmap::ErrorKind::Resource);
  EXPECT_EQ(tmap::SystemError("io").kind(), tmap::ErrorKind::System);
  EXPECT_EQ(tmap::InternalError("bug").kind(), tmap::ErrorKind::Internal);
  EXPECT_EQ(tmap::error_kind_name(tmap::ErrorKind::Resource), "resource");
  EXPECT_STREQ(tmap::InputError("f", 3, "bad").what(), "f:3: bad");
}

// A caller's wrong CSR arrays are its mistake (a parameter), not a bug of tmap's.
TEST(Errors, CallerMistakesInTheApiAreParameterErrors) {
  EXPECT_THROW((void)tmap::CommMatrix::from_csr(2, {0, 1}, {1}, {5}), tmap::ParameterError);
}

}  // namespace
