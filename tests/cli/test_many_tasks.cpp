// Many tasks per PE through tm-map (issue 63): --imbalance balances the
// ranks' weights (a graph's vertex loads), each PE within (1 + EPS) x the
// average; every figure recomputed here from the mapping and the file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using tmap::test::Sandbox;

/// A ring of n ranks in Scotch's .grf, rank i weighing weight(i).
template <typename Weight>
std::string weighted_ring(int n, Weight weight) {
  std::ostringstream out;
  out << "0\n" << n << ' ' << 2 * n << "\n0 011\n";
  for (int i = 0; i < n; ++i) {
    const int left = (i + n - 1) % n;
    const int right = (i + 1) % n;
    out << weight(i) << " 2 10 " << std::min(left, right) << " 10 " << std::max(left, right) << '\n';
  }
  return out.str();
}

/// A ring of n ranks as a .coo, 100 bytes from each to the next.
std::string ring_coo(int n) {
  std::ostringstream coo;
  coo << n << "\n";
  for (int i = 0; i < n; ++i) coo << i << ' ' << (i + 1) % n << " 100\n";
  return coo.str();
}

/// Each PE's load under the JSON's mapping.
std::vector<long long> loads_of(const nlohmann::json& j, const std::vector<long long>& weights, int pes) {
  std::vector<long long> load(static_cast<std::size_t>(pes), 0);
  const auto mapping = j.at("mapping").get<std::vector<int>>();
  for (std::size_t r = 0; r < mapping.size(); ++r) load.at(static_cast<std::size_t>(mapping[r])) += weights[r];
  return load;
}

}  // namespace

TEST(ManyTasks, ImbalanceBalancesVertexLoads) {
  const Sandbox box;
  // 64 ranks of weight 1-4 on 8 PEs: total 160, average 20, limit at EPS
  // 0.05 floor(1.05 x 20) = 21.
  std::vector<long long> weights;
  for (int i = 0; i < 64; ++i) weights.push_back(1 + (i * 5) % 4);
  box.write("ring.grf", weighted_ring(64, [&](int i) { return weights[static_cast<std::size_t>(i)]; }));
  for (const std::string strategy : {"auto", "scotch", "rb"}) {
    const auto out = box.run("tm-map", {"-t", "tleaf 2 2 10 4 1", "-c", "ring.grf", "--imbalance", "0.05", "-s",
                                        strategy, "--format", "json"});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    const auto j = nlohmann::json::parse(out.out);
    EXPECT_EQ(j.at("loads").at("limit"), 21) << strategy;
    EXPECT_DOUBLE_EQ(j.at("loads").at("average").get<double>(), 20.0);
    EXPECT_DOUBLE_EQ(j.at("loads").at("asked").get<double>(), 0.05);
    long long heaviest = 0;
    for (const auto load : loads_of(j, weights, 8)) heaviest = std::max(heaviest, load);
    EXPECT_LE(heaviest, 21) << strategy;
    EXPECT_EQ(j.at("loads").at("max_load"), heaviest) << strategy;
    EXPECT_FALSE(j.contains("fell_back_to")) << strategy;
  }
  // A strategy that cannot balance loads hands the job to auto, and says so.
  const auto greedy = box.run("tm-map", {"-t", "tleaf 2 2 10 4 1", "-c", "ring.grf", "--imbalance", "0.05", "-s",
                                         "greedy", "--format", "json"});
  ASSERT_EQ(greedy.exit_code, 0) << greedy.err;
  const auto j = nlohmann::json::parse(greedy.out);
  EXPECT_EQ(j.at("fell_back_to"), "auto");
  for (const auto load : loads_of(j, weights, 8)) EXPECT_LE(load, 21);
}

TEST(ManyTasks, UnitWeightsBecomeACountAndOCapsIt) {
  const Sandbox box;
  // 10 ranks on 4 PEs: the average 2.5, at EPS 0.25 a PE holds
  // max(ceil(2.5), floor(1.25 x 2.5)) = 3.
  box.write("ring.coo", ring_coo(10));
  const auto out =
      box.run("tm-map", {"-t", "tleaf 2 2 10 2 1", "-c", "ring.coo", "--imbalance", "0.25", "--format", "json"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto j = nlohmann::json::parse(out.out);
  EXPECT_LE(j.at("loads").at("max_load").get<long long>(), 3);
  EXPECT_EQ(j.at("loads").at("limit"), 3);
  // At EPS 1 a PE may hold 6, but -o 4 caps the count.
  const auto capped = box.run(
      "tm-map", {"-t", "tleaf 2 2 10 2 1", "-c", "ring.coo", "--imbalance", "1", "-o", "4", "--format", "json"});
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  for (const auto load : loads_of(nlohmann::json::parse(capped.out), std::vector<long long>(10, 1), 4))
    EXPECT_LE(load, 4);
}

TEST(ManyTasks, BadImbalanceIsRefusedWithoutOutput) {
  const Sandbox box;
  box.write("ring.grf", weighted_ring(8, [](int i) { return i == 0 ? 9 : 1; }));
  for (const std::string bad : {"-0.1", "abc", "nan", "2e6"}) {
    const auto out = box.run("tm-map", {"-t", "cmplt 4", "-c", "ring.grf", "--imbalance", bad, "--output", "out.txt"});
    EXPECT_EQ(out.exit_code, 2) << bad << ": " << out.err;
    EXPECT_NE(out.err.find("--imbalance"), std::string::npos) << out.err;
    EXPECT_FALSE(box.exists("out.txt")) << bad;
  }
  // Rank 0 weighs 9: the average is 16 / 4 = 4, a PE may hold floor(4.4) = 4.
  const auto heavy =
      box.run("tm-map", {"-t", "cmplt 4", "-c", "ring.grf", "--imbalance", "0.1", "--output", "out.txt"});
  EXPECT_EQ(heavy.exit_code, 2);
  EXPECT_NE(heavy.err.find("rank 0 weighs 9, more than a PE may hold"), std::string::npos) << heavy.err;
  EXPECT_FALSE(box.exists("out.txt"));
}

TEST(ManyTasks, WeightsFileGivesAnyTrafficWeights) {
  const Sandbox box;
  // A ring of 8 ranks as a matrix, rank 0 weighing 4: on 4 PEs the average
  // is 11 / 4 = 2.75, so at EPS 0.5 a PE holds floor(4.125) = 4 and rank 0 is alone.
  box.write("ring.coo", ring_coo(8));
  box.write("w.txt", "# rank weights\n4 1 1 1\n1 1 1 1\n");
  const auto out = box.run("tm-map", {"-t", "tleaf 2 2 10 2 1", "-c", "ring.coo", "--weights", "w.txt", "--imbalance",
                                      "0.5", "--format", "json"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto j = nlohmann::json::parse(out.out);
  EXPECT_EQ(j.at("loads").at("limit"), 4);
  const auto loads = loads_of(j, {4, 1, 1, 1, 1, 1, 1, 1}, 4);
  for (const auto load : loads) EXPECT_LE(load, 4);
  const auto mapping = j.at("mapping").get<std::vector<int>>();
  for (int r = 1; r < 8; ++r) EXPECT_NE(mapping[static_cast<std::size_t>(r)], mapping[0]) << r;
  // Mistakes name the file and line; nothing is written.
  const std::vector<std::pair<std::string, std::string>> bad{
      {"4 1 1\n", "w.txt: expected 8 weights (one a rank, in rank order), found 3"},
      {"4 1 1 1\n1 1 1 1 1\n", "w.txt:2: more weights than the 8 ranks"},
      {"4 1 1 1\n1 -1 1 1\n", "w.txt:2:"},
      {"4 1 x 1 1 1 1 1\n", "w.txt:1:"},
  };
  for (const auto& [text, message] : bad) {
    box.write("w.txt", text);
    const auto refused = box.run("tm-map", {"-t", "tleaf 2 2 10 2 1", "-c", "ring.coo", "--weights", "w.txt",
                                            "--imbalance", "0.5", "--output", "out.txt"});
    EXPECT_EQ(refused.exit_code, 2) << text;
    EXPECT_NE(refused.err.find(message), std::string::npos) << refused.err;
    EXPECT_FALSE(box.exists("out.txt"));
  }
}
