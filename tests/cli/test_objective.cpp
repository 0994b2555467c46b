// tm-map --objective as a user runs it: the chain worked by hand in
// test_objective (0->3 100 bytes, 1->2 50 bytes on four PEs in a row),
// the report's figures, the configuration round trip and the refusals.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using tmap::test::Sandbox;

namespace {

const char* const kChain = "4\n0 3 100\n1 2 50\n";

}  // namespace

TEST(CliObjective, CongestionTakesTheChainsBusiestLinkFrom150To100) {
  Sandbox box;
  box.write("chain.coo", kChain);
  const std::vector<std::string> base{"-t", "mesh2D 4 1", "-c", "chain.coo", "-s", "inorder", "--format", "json"};
  auto r = box.run("tm-map", base);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mc"], 150.0);
  EXPECT_EQ(j["hop_bytes"], 350);
  EXPECT_FALSE(j.contains("objective"));
  // Predicted time in order: 0->3 alone, 3 hops x 0.5 us then 100 B at 12.5 GB/s.
  EXPECT_DOUBLE_EQ(j["predicted_time_s"].get<double>(), 1.5e-6 + 100 / 12.5e9);

  auto args = base;
  args.insert(args.end(), {"--objective", "congestion"});
  r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mc"], 100.0);  // the optimum: 0->3 crosses one link at least
  EXPECT_EQ(j["hop_bytes"], 150);
  EXPECT_EQ(j["objective"]["name"], "congestion");
  EXPECT_EQ(j["objective"]["before"], 150.0);
  EXPECT_EQ(j["objective"]["after"], 100.0);
  EXPECT_EQ(j["config"]["options"]["objective"], "congestion");
  // The summary names the objective's step.
  args.back() = "time";
  args.erase(args.end() - 4, args.end() - 2);  // text output, summary on stderr
  r = box.run("tm-map", args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("tm-map: objective time: predicted time 1.508e-06 s -> predicted time 5.08e-07 s"),
            std::string::npos)
      << r.err;
}

TEST(CliObjective, ConfigFilesCarryTheObjective) {
  Sandbox box;
  box.write("chain.coo", kChain);
  auto r = box.run("tm-map", {"--objective", "congestion", "-s", "inorder", "--dump-config", "--output", "c.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(box.read("c.json"))["options"]["objective"], "congestion");
  r = box.run("tm-map", {"-t", "mesh2D 4 1", "-c", "chain.coo", "--config", "c.json", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["mc"], 100.0);
}

// No --objective (or --objective auto) on a machine with routes: the
// default keeps its fastest candidate by the flow model; --objective
// hop-bytes keeps the fewest hop-bytes. NPB BT's 64 ranks on mesh2D 8 8
// (test_auto: in-order 4.26 ms predicted, scotch+ 8.52 ms with 1.8 % fewer
// hop-bytes).
TEST(CliObjective, NoneGivenChoosesByPredictedTimeAndHopBytesByHopBytes) {
  Sandbox box;
  ASSERT_EQ(box.run("tm-gen", {"bt", "--ranks", "64", "--output", "bt.mat"}).exit_code, 0);
  const std::vector<std::string> base{"-t", "mesh2D 8 8", "-c", "bt.mat", "--format", "json"};
  const auto run = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = box.run("tm-map", args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const auto unset = run({});
  const auto by_auto = run({"--objective", "auto"});
  // The portfolio (the quality preset's Scotch candidate) finds the fewer
  // hop-bytes; the default's one libscotch run has more than in-order here.
  const auto by_hop_bytes = run({"--objective", "hop-bytes", "--auto-scotch", "scotch+"});
  const auto in_order = run({"-s", "inorder"});
  EXPECT_EQ(unset["mapping"], in_order["mapping"]);
  EXPECT_EQ(by_auto["mapping"], unset["mapping"]);
  EXPECT_EQ(unset["config"]["options"]["objective"], "auto");
  EXPECT_EQ(by_hop_bytes["config"]["options"]["objective"], "hop-bytes");
  EXPECT_EQ(unset["hop_bytes"], 5966069760);
  EXPECT_EQ(by_hop_bytes["hop_bytes"], 5859532800);
  EXPECT_LT(unset["predicted_time_s"].get<double>() * 1.9, by_hop_bytes["predicted_time_s"].get<double>());
}

TEST(CliObjective, RefusedWithAMessageAndNoOutput) {
  Sandbox box;
  box.write("chain.coo", kChain);
  box.write("d.dist", "4\n0 1 1 1\n1 0 1 1\n1 1 0 1\n1 1 1 0\n");
  auto r = box.run("tm-map", {"-t", "d.dist", "-c", "chain.coo", "--objective", "time", "--output", "never"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("objective time: a dist machine has no routes"), std::string::npos) << r.err;
  EXPECT_FALSE(box.exists("never"));
  r = box.run("tm-map", {"-t", "mesh2D 4 1", "-c", "chain.coo", "--objective", "latency"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--objective"), std::string::npos) << r.err;
  box.write("bad.json", R"({"tmap_config": 1, "options": {"objective": "speed"}})");
  r = box.run("tm-map", {"-t", "mesh2D 4 1", "-c", "chain.coo", "--config", "bad.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.json: objective: unknown objective 'speed' (known: auto, hop-bytes, congestion, time)"),
            std::string::npos)
      << r.err;
}
