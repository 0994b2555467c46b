// Mappings given to the tools: a strategy's refinement reported and
// compared, another mapper's mapping scored (--compare-file), improved
// (--initial) and read back in every format the tools write.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "fixtures.hpp"

using tmap::test::golden;
using tmap::test::Sandbox;

// --refine reports the construction and the refinement; --compare shows a
// strategy with and without it (NAME:REFINE).
TEST(Cli, RefineIsReportedAndComparable) {
  Sandbox box;
  auto r = box.run("tm-gen", {"random", "--ranks", "24", "--degree", "3", "--seed", "3", "--output", "r.mat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = box.run("tm-map",
              {"-t", "tleaf 3 2 100 3 10 4 1", "-c", "r.mat", "-s", "inorder", "--refine", "tabu", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["refine"], "tabu");
  EXPECT_LT(j["hop_bytes"].get<std::int64_t>(), j["construction_hop_bytes"].get<std::int64_t>());
  EXPECT_TRUE(j.contains("refine_time_s"));
  r = box.run("tm-map", {"-t", "tleaf 3 2 100 3 10 4 1", "-c", "r.mat", "--compare",
                         "inorder,inorder:swap,inorder:tabu", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = nlohmann::json::parse(r.out);
  std::map<std::string, std::int64_t> cost;
  for (const auto& result : c["results"]) cost[result["strategy"].get<std::string>()] = result["hop_bytes"];
  ASSERT_EQ(cost.size(), 3U);
  EXPECT_LT(cost["inorder:swap"], cost["inorder"]);
  EXPECT_LE(cost["inorder:tabu"], cost["inorder:swap"]);
  EXPECT_EQ(cost["inorder:tabu"], j["hop_bytes"].get<std::int64_t>());  // same seed, same budget
}

// An external mapping (a Scotch .map, as scotch_gmap writes) joins the
// comparison, scored by the same evaluator: the swapped mapping of
// eval_swap01 costs 100 on the 3x2 mesh, in-order 70.
TEST(Cli, CompareFileScoresExternalMappings) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("m.map", "6\n1\t0\n0\t1\n2\t2\n3\t3\n4\t4\n5\t5\n");
  auto r = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--compare", "inorder", "--compare-file", "gmap=m.map",
                              "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2U);
  EXPECT_EQ(j["results"][0]["strategy"], "inorder");
  EXPECT_EQ(j["results"][0]["hop_bytes"], 70);
  EXPECT_EQ(j["results"][1]["strategy"], "gmap");
  EXPECT_EQ(j["results"][1]["hop_bytes"], 100);
  EXPECT_EQ(j["results"][1]["external"], true);
  EXPECT_NEAR(j["results"][1]["vs_inorder"].get<double>(), 100.0 / 70.0, 1e-12);
  r = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--compare", "inorder", "--compare-file", "gmap=m.map"});
  EXPECT_NE(r.out.find("external"), std::string::npos) << r.out;
}

// --initial: another mapper's mapping improved, never made worse. The 3x2
// stencil's 70 bytes all one hop apart is the lower bound (every byte
// crosses at least one link), reached from the swapped mapping's 100.
TEST(Cli, InitialMappingImprovedToTheBound) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("m.map", "6\n1\t0\n0\t1\n2\t2\n3\t3\n4\t4\n5\t5\n");  // Scotch .map, ranks 0 and 1 swapped
  auto r = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--initial", "m.map", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["strategy"], "initial");
  EXPECT_EQ(j["construction_hop_bytes"], 100);
  EXPECT_EQ(j["hop_bytes"], 70);
  EXPECT_EQ(j["total_bytes"], 70);
  EXPECT_NE(j["refine"].get<std::string>().find("multilevel"), std::string::npos) << j["refine"];
  EXPECT_NE(r.err.find("starting from m.map: hop_bytes 100"), std::string::npos) << r.err;
  // The independent evaluator agrees on the written mapping.
  ASSERT_EQ(box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--initial", "m.map", "--output", "p.perm", "-q"})
                .exit_code,
            0);
  EXPECT_NE(box.run("tm-eval", {"-t", "mesh2D 3 2", "-c", "s.mat", "-m", "p.perm"}).out.find("hop_bytes 70\n"),
            std::string::npos);
  // Without refinement the file's mapping comes back as it was (a launcher
  // file of another mapper's mapping), and any refinement never raises it.
  r = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--initial", "m.map", "--refine", "none", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\n0\n2\n3\n4\n5\n");
  for (const char* refine : {"swap", "tabu", "multilevel"}) {
    r = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--initial", "p.perm", "--refine", refine, "--format",
                           "json", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["hop_bytes"], 70) << refine;
  }
}

// A Scotch .map names nodes on Tianhe-3 (its terminals are nodes); written
// with -o 2 on an allocation, it reads back as written: two ranks a PE on
// the allocation's PEs, the same hop-bytes, for tm-eval, tm-sim's and
// tm-map's readers (--initial, --compare-file).
TEST(Cli, ScotchMapOfAnOversubscribedAllocationReadsBack) {
  Sandbox box;
  ASSERT_EQ(box.run("tm-gen", {"stencil2d", "--dims", "8x8", "--shuffle", "2", "--output", "s.coo"}).exit_code, 0);
  const std::vector<std::string> job{"-t", "tianhe3:1x2,nodes=8,cores=4", "-c", "s.coo", "-o", "2", "--alloc", "2-9"};
  const auto with = [&](std::vector<std::string> extra) {
    auto args = job;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  ASSERT_EQ(box.run("tm-map", with({"-s", "greedy", "--output", "m.perm", "-q"})).exit_code, 0);
  ASSERT_EQ(box.run("tm-map", with({"-s", "greedy", "--format", "scotch", "--output", "m.map", "-q"})).exit_code, 0);
  const auto perm = box.run("tm-eval", with({"-m", "m.perm"}));
  const auto map = box.run("tm-eval", with({"-m", "m.map"}));
  ASSERT_EQ(map.exit_code, 0) << map.err;
  EXPECT_EQ(map.out.substr(0, map.out.find('\n')), perm.out.substr(0, perm.out.find('\n')));
  const auto initial = box.run("tm-map", with({"--initial", "m.map", "--refine", "none", "--format", "json", "-q"}));
  ASSERT_EQ(initial.exit_code, 0) << initial.err;
  EXPECT_NE(perm.out.find("hop_bytes " + std::to_string(nlohmann::json::parse(initial.out)["hop_bytes"].get<long>())),
            std::string::npos)
      << perm.out;
}

TEST(Cli, EvalReadsScotchAndTopoMatchMappings) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("m.map", "6\n1\t0\n0\t1\n2\t2\n3\t3\n4\t4\n5\t5\n");
  box.write("m.tm", "TopoMatch: 1,0,2,3,4,5\n");
  for (const char* file : {"m.map", "m.tm"}) {
    const auto r = box.run("tm-eval", {"-t", "mesh2D 3 2", "-c", "s.mat", "-m", file});
    EXPECT_EQ(r.out, golden("eval_swap01.txt")) << file << r.err;
  }
}
