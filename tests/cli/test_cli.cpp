// Golden outputs and end-to-end behaviour of the tools. Golden files are
// written by hand, not captured from the tools: see the derivations below.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli_runner.hpp"
#include "fixtures.hpp"

using tmap::test::golden;
using tmap::test::Sandbox;

TEST(Cli, HelpAndVersionExitZero) {
  Sandbox box;
  const auto help = box.run("tm-map", {"--help"});
  EXPECT_EQ(help.exit_code, 0);
  // The strategy help is generated from the strategy table.
  for (const char* name : {"inorder", "roundrobin", "random"}) EXPECT_NE(help.out.find(name), std::string::npos);
  const auto version = box.run("tm-map", {"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("tm-map 0."), std::string::npos);
  for (const char* tool : {"tm-eval", "tm-gen"}) EXPECT_EQ(box.run(tool, {"--help"}).exit_code, 0);
}

TEST(Cli, EmbeddedExampleHasTheHandComputedHopBytes) {
  // 8x8 stencil (1000 B each way), in order onto tianhe3:1x2,nodes=8,cores=4:
  // a grid row fills two 4-core nodes. Horizontal: 8 node-crossing edges at
  // 1 hop = 16,000. Vertical rows y->y+1: 8 edges each, hops 1,2,1,4,1,2,1
  // (side changes at rows 1-2 and 5-6, chip change at 3-4 with a side change)
  // = 2000*8*12 = 192,000. Total 208,000.
  Sandbox box;
  const auto r = box.run("tm-map", {"--example", "-s", "inorder"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string expected;
  for (int i = 0; i < 64; ++i) expected += std::to_string(i) + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_NE(r.err.find("hop_bytes 208000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bytes by distance (distance:bytes): 0:96000 1:80000 2:32000 4:16000"), std::string::npos)
      << r.err;
}

TEST(Cli, GenWritesTheHandWrittenStencilInEveryFormat) {
  // 3x2 grid, ranks 0 1 2 / 3 4 5, 5 bytes to each neighbour.
  Sandbox box;
  auto mat = box.run("tm-gen", {"stencil2d", "--dims", "3x2", "--volume", "5"});
  ASSERT_EQ(mat.exit_code, 0) << mat.err;
  EXPECT_EQ(mat.out, golden("stencil3x2.mat"));
  EXPECT_EQ(box.run("tm-gen", {"stencil2d", "--dims", "3x2", "--volume", "5", "--format", "coo"}).out,
            golden("stencil3x2.coo"));
  ASSERT_EQ(box.run("tm-gen", {"stencil2d", "--dims", "3x2", "--volume", "5", "--output", "s.grf"}).exit_code, 0);
  EXPECT_EQ(box.read("s.grf"), golden("stencil3x2.grf"));
}

TEST(Cli, MapFormatsAreGolden) {
  // In order on mesh2D 3 2 every stencil edge is 1 hop: 7 edges * 10 B = 70.
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const std::vector<std::string> base{"-t", "mesh2D 3 2", "-c", "s.mat", "-s", "inorder", "-q"};
  auto with = [&](const std::string& format) {
    auto args = base;
    args.insert(args.end(), {"--format", format});
    return box.run("tm-map", args);
  };
  EXPECT_EQ(with("perm").out, golden("inorder6.perm"));
  EXPECT_EQ(with("topomatch").out, golden("inorder6.topomatch"));
  EXPECT_EQ(with("scotch").out, golden("inorder6.map"));
  const auto json = nlohmann::json::parse(with("json").out);
  EXPECT_EQ(json["strategy"], "inorder");
  EXPECT_EQ(json["n"], 6);
  EXPECT_EQ(json["pes"], 6);
  EXPECT_EQ(json["hop_bytes"], 70);
  EXPECT_EQ(json["avg_hops"], 1.0);
  EXPECT_EQ(json["max_com"], 5);
  EXPECT_TRUE(json["time_s"].is_number());
  EXPECT_EQ(json["mapping"], nlohmann::json::parse("[0,1,2,3,4,5]"));
}

TEST(Cli, EvalIsGolden) {
  // Ranks 0 and 1 swapped on mesh2D 3 2 (PE p at (p%3, p/3)): edges 0-1:1,
  // 0-3:2, 1-2:2, 1-4:2, 2-5:1, 3-4:1, 4-5:1 hops -> 10 hops * 10 B = 100;
  // 40 B travel 1 hop, 30 B travel 2; max_com = 5 B * 2 hops.
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("m.perm", "1\n0\n2\n3\n4\n5\n");
  const auto r = box.run("tm-eval", {"-t", "mesh2D 3 2", "-c", "s.mat", "-m", "m.perm"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("eval_swap01.txt"));
}

TEST(Cli, EvalAgreesWithMapOnEveryInputFormat) {
  Sandbox box;
  std::int64_t first = -1;
  for (const std::string ext : {"mat", "csv", "coo", "mtx", "grf", "graph"}) {
    const std::string comm = "traffic." + ext;
    ASSERT_EQ(
        box.run("tm-gen", {"random", "--ranks", "40", "--degree", "3", "--seed", "4", "--output", comm}).exit_code, 0);
    for (const std::string strategy : {"inorder", "roundrobin", "random"}) {
      const auto map = box.run("tm-map", {"-t", "tianhe3:1x2,nodes=4,cores=8", "-c", comm, "-s", strategy, "--seed",
                                          "3", "--format", "json", "--output", "m.json", "-q"});
      ASSERT_EQ(map.exit_code, 0) << map.err;
      const auto reported = nlohmann::json::parse(box.read("m.json"))["hop_bytes"].get<std::int64_t>();
      const auto eval =
          box.run("tm-eval", {"-t", "tianhe3:1x2,nodes=4,cores=8", "-c", comm, "-m", "m.json", "--format", "json"});
      ASSERT_EQ(eval.exit_code, 0) << eval.err;
      EXPECT_EQ(nlohmann::json::parse(eval.out)["hop_bytes"].get<std::int64_t>(), reported) << ext << " " << strategy;
      if (strategy == "random") {
        // Same traffic in every format: the same mapping scores the same.
        if (first < 0) first = reported;
        EXPECT_EQ(reported, first) << ext;
      }
    }
  }
}

// The same swapped mapping routed dimension-ordered (x first; link id =
// PE * 2 + dimension, from a PE to its +1 neighbour). 14 messages of 5 B:
// 0-1 (PEs 1,0) both ways on link 0; 1->3 over links 0, 1 and 3->1 over 6, 3;
// 0<->2 both over links 0, 2; 0->4 over 0, 3 and 4->0 over 6, 1; 2-5 on 5;
// 3-4 on 6; 4-5 on 8. Link 0 carries 6 messages (30 B), link 6 four, the
// other five links two: TH 20, MMC 6, MC 30, AMC 20/7, AC 100/7.
TEST(Cli, EvalReportsLinkMetricsAndWritesLinkLoads) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("m.perm", "1\n0\n2\n3\n4\n5\n");
  auto r = box.run("tm-eval", {"-t", "mesh2D 3 2", "-c", "s.mat", "-m", "m.perm", "--link-loads", "loads.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(box.read("loads.csv"),
            "link,name,kind,bandwidth,messages,bytes,congestion\n"
            "0,0-1,dim0,1,6,30,30\n"
            "1,0-3,dim1,1,2,10,10\n"
            "2,1-2,dim0,1,2,10,10\n"
            "3,1-4,dim1,1,2,10,10\n"
            "5,2-5,dim1,1,2,10,10\n"
            "6,3-4,dim0,1,4,20,20\n"
            "8,4-5,dim0,1,2,10,10\n");
  // Twice the bandwidth along x: link 0 drops to 15, the y links stay at 10.
  r = box.run("tm-eval",
              {"-t", "mesh2D 3 2", "-c", "s.mat", "-m", "m.perm", "--link-bw", "dim0=2", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["mc"].get<double>(), 15.0);
  EXPECT_EQ(j["th"], 20);
  EXPECT_EQ(j["wh"], 100);
}

TEST(Cli, MapReportsLinkMetricsOnlyWhereARoutingModelExists) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  auto r = box.run("tm-map", {"-t", "tianhe3:1x2,nodes=4", "-c", "s.mat", "-s", "greedy", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"th", "wh", "mmc", "mc", "amc", "ac", "used_links"}) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["wh"], j["hop_bytes"]);  // Tianhe-3 routes count the hop table
  box.write("d.dist", "6\n0 1 1 1 1 1\n1 0 1 1 1 1\n1 1 0 1 1 1\n1 1 1 0 1 1\n1 1 1 1 0 1\n1 1 1 1 1 0\n");
  r = box.run("tm-map", {"-t", "d.dist", "-c", "s.mat", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("mc"));
}

// grid2d in the comparison report on a 2D stencil with asymmetric halos.
TEST(Cli, Grid2dJoinsTheComparisonOnAsymmetricHalos) {
  Sandbox box;
  auto r = box.run("tm-gen", {"stencil2d", "--dims", "8x6", "--axis-volumes", "4000,1000", "--output", "s.mat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = box.run("tm-map", {"-t", "tianhe3:2x2,nodes=4,cores=3", "-c", "s.mat", "--compare", "all", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::int64_t grid = -1;
  std::int64_t inorder = -1;
  const auto json = nlohmann::json::parse(r.out);
  for (const auto& result : json["results"]) {
    if (result["strategy"] == "grid2d") grid = result["hop_bytes"].get<std::int64_t>();
    if (result["strategy"] == "inorder") inorder = result["hop_bytes"].get<std::int64_t>();
  }
  ASSERT_GE(grid, 0);
  EXPECT_LE(grid, inorder);
  EXPECT_NE(r.err.find("grid2d: 6 x 8 arrangement"), std::string::npos) << r.err;
}

// The paper's four clusters (3, 4, 2 and 3 nodes; -b picks them from a tree
// of 4 x 4) with Table 1's bandwidths as a --grid2d-bw table and MPDATA's
// domain: grid2d chooses one column of 12 (the slow horizontal halos vanish).
TEST(Cli, Grid2dChoosesTheShapeFromABandwidthTable) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("b.txt", "0 1 2  4 5 6 7  8 9  12 13 14\n");
  box.write("bw.txt",
            "# Malik et al., Table 1 (GB/s): horizontal vertical\n"
            "0 0 0.03963 0.48068\n0 1 0.00007 0.00056\n0 2 0.03889 0.49341\n0 3 0.00007 0.00056\n"
            "1 1 0.03876 0.48858\n1 2 0.00007 0.00056\n1 3 0.03732 0.45943\n"
            "2 2 0.03834 0.48916\n2 3 0.00007 0.00056\n3 3 0.03920 0.46808\n");
  auto r = box.run("tm-gen", {"stencil2d", "--dims", "4x3", "--output", "s12.mat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = box.run("tm-map", {"-t", "tleaf 2 4 10 4 1", "-b", "b.txt", "-c", "s12.mat", "-s", "grid2d", "--grid2d-bw",
                         "bw.txt", "--grid2d-domain", "262144x262144"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("grid2d: 12 x 1 arrangement"), std::string::npos) << r.err;
}

TEST(Cli, OutputFileAndDeterminismAcrossThreads) {
  Sandbox box;
  ASSERT_EQ(box.run("tm-gen", {"stencil3d", "--dims", "4x4x4", "--shuffle", "5", "--output", "s.coo"}).exit_code, 0);
  // The strategies with threads of their own (libscotch's, scotch+'s workers,
  // treematch's two groupings, OpenMP in ohtma and the refinements, best's
  // portfolio) give the same file at -p 1 and -p 2.
  const std::vector<std::pair<std::string, std::string>> runs{
      {"random", "torus3D 4 4 4"},           {"scotch", "torus3D 4 4 4"}, {"scotch+", "torus3D 4 4 4"},
      {"treematch", "tleaf 3 4 10 4 5 4 1"}, {"ohtma", "torus3D 4 4 4"},  {"ohtma+", "torus3D 4 4 4"},
      {"best", "tleaf 3 4 10 4 5 4 1"}};
  for (const auto& [strategy, machine] : runs) {
    const std::vector<std::string> base{"-t", machine, "-c", "s.coo", "-s", strategy, "--seed", "11", "-q"};
    auto one = base;
    one.insert(one.end(), {"-p", "1", "--output", "one.txt"});
    auto two = base;
    two.insert(two.end(), {"-p", "2", "--output", "two.txt"});
    // (Under the sanitizers without the tabu search, 40x slower there; its
    // thread counts are Best.NoWorseThanEachConstructionAndDeterministic's.)
    if (strategy == "best" && !tmap::test::kSanitized) {
      for (auto* args : {&one, &two}) args->insert(args->end(), {"--refine", "tabu"});
    }
    const auto r1 = box.run("tm-map", one);
    EXPECT_EQ(r1.exit_code, 0) << strategy << r1.err;
    EXPECT_TRUE(r1.out.empty()) << strategy;
    EXPECT_EQ(box.run("tm-map", two).exit_code, 0) << strategy;
    EXPECT_EQ(box.read("one.txt"), box.read("two.txt")) << strategy;
    EXPECT_FALSE(box.read("one.txt").empty()) << strategy;
  }
  // A mapping improved from a file (--initial: the multilevel refinement of a random placement) too.
  ASSERT_EQ(box.run("tm-map", {"-t", "torus3D 4 4 4", "-c", "s.coo", "-s", "random", "-q", "--output", "start.txt"})
                .exit_code,
            0);
  for (const char* threads : {"1", "2"}) {
    EXPECT_EQ(box.run("tm-map", {"-t", "torus3D 4 4 4", "-c", "s.coo", "--initial", "start.txt", "-p", threads, "-q",
                                 "--output", std::string("initial") + threads + ".txt"})
                  .exit_code,
              0);
  }
  EXPECT_EQ(box.read("initial1.txt"), box.read("initial2.txt"));
  EXPECT_NE(box.read("initial1.txt"), box.read("start.txt"));
}

// tm-map uses the machine's cores unless told; the default is the run's,
// not the configuration's: --dump-config writes one thread (a file the MPI
// layer may read inside every rank), a --config file's count is kept, and
// -p wins over both. The mapping is the same whatever the count.
TEST(Cli, ThreadsDefaultToTheMachinesCoresInTheToolOnly) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const std::vector<std::string> job{"-t", "tleaf 2 2 10 4 1", "-c", "s.mat", "--format", "json", "-q"};
  const auto json_of = [&](std::vector<std::string> extra) {
    auto args = job;
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = box.run("tm-map", args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const auto cores = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1U, 4096U));
  const auto by_default = json_of({});
  EXPECT_EQ(by_default["threads"], cores);
  const auto dumped = box.run("tm-map", {"-t", "tleaf 2 2 10 4 1", "--dump-config"});
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  EXPECT_EQ(nlohmann::json::parse(dumped.out)["options"]["threads"], "1");
  box.write("run.json", dumped.out);
  EXPECT_EQ(json_of({"--config", "run.json"})["threads"], 1);
  const auto given = json_of({"--config", "run.json", "-p", "1"});
  EXPECT_EQ(given["threads"], 1);
  EXPECT_EQ(given["mapping"], by_default["mapping"]);
}

TEST(Cli, ConstraintsAndOversubscription) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  box.write("allowed.txt", "# two PEs, three ranks each\n7 2\n");
  const auto r =
      box.run("tm-map", {"-t", "cmplt 8", "-c", "s.mat", "-b", "allowed.txt", "-o", "3", "-s", "inorder", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2\n2\n2\n7\n7\n7\n");
  const auto alloc = box.run("tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=2", "-c", "s.mat", "--alloc", "1,3-3", "-s",
                                        "roundrobin", "-o", "2", "-q"});
  ASSERT_EQ(alloc.exit_code, 0) << alloc.err;
  EXPECT_EQ(alloc.out, "2\n6\n2\n6\n3\n7\n");
}

TEST(Cli, CompareTableAndJson) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const auto table = box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--compare", "all"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("* inorder"), std::string::npos) << table.out;  // 70 is optimal here
  EXPECT_NE(table.out.find("roundrobin"), std::string::npos);
  const auto json =
      box.run("tm-map", {"-t", "mesh2D 3 2", "-c", "s.mat", "--compare", "random,inorder", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["results"].size(), 2U);
  EXPECT_EQ(j["results"][0]["strategy"], "inorder");
  EXPECT_EQ(j["results"][0]["vs_inorder"], 1.0);
  EXPECT_EQ(j["best"], "inorder");
  for (const char* key : {"strategy", "n", "pes", "hop_bytes", "avg_hops", "max_com", "time_s", "mapping"}) {
    EXPECT_TRUE(j["results"][1].contains(key)) << key;
  }
  // The ratios divide by plain Scotch's and in-order's hop-bytes as their
  // own runs give them, and the rows are sorted by hop-bytes.
  box.write("t.tgt", "tleaf 2 2 10 4 1\n");
  box.write("r.coo", "6\n0 1 50\n1 2 7\n2 3 40\n3 4 9\n4 5 30\n5 0 3\n0 3 11\n");
  const auto alone = [&](const char* strategy) {
    const auto r = box.run("tm-map", {"-t", "t.tgt", "-c", "r.coo", "-s", strategy, "--format", "json", "-q"});
    return nlohmann::json::parse(r.out)["hop_bytes"].get<double>();
  };
  const double scotch = alone("scotch");
  const double inorder = alone("inorder");
  const auto cmp =
      box.run("tm-map", {"-t", "t.tgt", "-c", "r.coo", "--compare", "roundrobin,ohtma,rcm", "--format", "json", "-q"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const auto c = nlohmann::json::parse(cmp.out);
  double previous = 0;
  for (const auto& row : c["results"]) {
    const double hop = row["hop_bytes"].get<double>();
    EXPECT_GE(hop, previous) << row["strategy"];
    previous = hop;
    EXPECT_DOUBLE_EQ(row["vs_scotch"].get<double>(), hop / scotch) << row["strategy"];
    EXPECT_DOUBLE_EQ(row["vs_inorder"].get<double>(), hop / inorder) << row["strategy"];
  }
}

TEST(Cli, ExampleWithTheDefaultStrategyBeatsInOrder) {
  Sandbox box;
  const auto r = box.run("tm-map", {"--example", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["strategy"], "auto");
  EXPECT_LT(j["hop_bytes"].get<std::int64_t>(), 208000);
}

TEST(Cli, HwlocXmlTopologyWithDashX) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const auto xml = std::string(TMAP_ARCH_DIR) + "/ft2000plus-node.xml";
  const auto a = box.run("tm-map", {"-x", xml, "-c", "s.mat", "-s", "inorder", "--format", "json", "-q"});
  const auto b = box.run("tm-map", {"-t", xml, "-c", "s.mat", "-s", "inorder", "--format", "json", "-q"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(nlohmann::json::parse(a.out)["pes"], 64);
  // PUs 0-5 in order: cores 0-3 share an L2 (4 apart), 4-5 another L2 of the
  // same NUMA group (6 apart). Edges: 0-1, 1-2 at 4; 3-4 at 6; 4-5 at 4;
  // 0-3, 1-4, 2-5 at 4, 6, 6: (4+4+6+4+4+6+6) * 10 B = 340.
  EXPECT_EQ(nlohmann::json::parse(a.out)["hop_bytes"], 340);
  EXPECT_EQ(nlohmann::json::parse(a.out)["hop_bytes"], nlohmann::json::parse(b.out)["hop_bytes"]);
}

TEST(Cli, LauncherFilesUseTheAllocationsSpelling) {
  // 6 ranks (3x2 stencil) on nodes 1 and 3 of tianhe3:1x1,nodes=4,cores=3,
  // spelled cn[01,03]; in order: ranks 0-2 on cn01 cores 0-2, 3-5 on cn03.
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const std::vector<std::string> base{
      "-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "--alloc", "cn[01,03]", "-s", "inorder", "-q", "--format"};
  auto with = [&](const std::string& format) {
    auto args = base;
    args.push_back(format);
    return box.run("tm-map", args);
  };
  EXPECT_EQ(with("rankfile").out,
            "rank 0=cn01 slot=0\nrank 1=cn01 slot=1\nrank 2=cn01 slot=2\n"
            "rank 3=cn03 slot=0\nrank 4=cn03 slot=1\nrank 5=cn03 slot=2\n");
  EXPECT_EQ(with("hostfile").out, "cn01\ncn01\ncn01\ncn03\ncn03\ncn03\n");
  EXPECT_EQ(with("machinefile").out, "cn01:3\ncn03:3\n");
  // Without an allocation, Tianhe-3 hosts are cn<node>.
  const auto plain = box.run("tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "-s", "roundrobin", "-q",
                                        "--format", "machinefile"});
  EXPECT_EQ(plain.out, "cn0:1\ncn1:1\ncn2:1\ncn3:1\ncn0:1\ncn1:1\n");
}

TEST(Cli, AllocationFromTheSlurmEnvironment) {
  Sandbox box;
  box.write("s.mat", golden("stencil3x2.mat"));
  const auto r = box.run("tm-map",
                         {"-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "--alloc-from-env", "-s", "inorder", "-q",
                          "--format", "hostfile"},
                         {{"SLURM_JOB_NODELIST", "cn[2-3]"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "cn2\ncn2\ncn2\ncn3\ncn3\ncn3\n");
  // More CPUs than the model's node has: capped, and said so.
  const auto more = box.run("tm-map",
                            {"-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "--alloc-from-env", "-s", "inorder",
                             "-q", "--format", "hostfile"},
                            {{"SLURM_JOB_NODELIST", "cn[2-3]"}, {"SLURM_JOB_CPUS_PER_NODE", "8(x2)"}});
  ASSERT_EQ(more.exit_code, 0) << more.err;
  EXPECT_EQ(more.out, "cn2\ncn2\ncn2\ncn3\ncn3\ncn3\n");
  EXPECT_NE(more.err.find(
                "tm-map: note: SLURM_JOB_CPUS_PER_NODE gave 8 CPUs on cn2, the machine model says 3 per node: using 3"),
            std::string::npos)
      << more.err;
  // Too few of the model's PEs: the refusal says what Slurm gave against what the model says.
  const auto short_of = box.run("tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "--alloc-from-env"},
                                {{"SLURM_JOB_NODELIST", "cn2"}, {"SLURM_JOB_CPUS_PER_NODE", "8"}});
  EXPECT_EQ(short_of.exit_code, 2);
  EXPECT_NE(short_of.err.find("= 3 slots: SLURM_JOB_CPUS_PER_NODE gave 8 CPUs on cn2, the machine model says 3 per "
                              "node"),
            std::string::npos)
      << short_of.err;
  // A hybrid job (salloc -N3 -n6 -c2 on 4-CPU nodes): two ranks per node,
  // each on two CPUs; the hostfile srun -c2 accepts, the rankfile's ranges.
  const auto hybrid =
      box.run("tm-map",
              {"-t", "tianhe3:1x1,nodes=4,cores=4", "-c", "s.mat", "--alloc-from-env", "-s", "inorder", "-q",
               "--format", "rankfile"},
              {{"SLURM_JOB_NODELIST", "cn[1-3]"}, {"SLURM_JOB_CPUS_PER_NODE", "4(x3)"}, {"SLURM_CPUS_PER_TASK", "2"}});
  ASSERT_EQ(hybrid.exit_code, 0) << hybrid.err;
  EXPECT_EQ(hybrid.out,
            "rank 0=cn1 slot=0-1\nrank 1=cn1 slot=2-3\nrank 2=cn2 slot=0-1\nrank 3=cn2 slot=2-3\nrank 4=cn3 "
            "slot=0-1\nrank 5=cn3 slot=2-3\n");
  // --cpus-per-rank over SLURM_CPUS_PER_TASK: 3 CPUs a rank leaves one per node unused, and 6 ranks no room.
  const auto wide = box.run(
      "tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=4", "-c", "s.mat", "--alloc-from-env", "--cpus-per-rank", "3"},
      {{"SLURM_JOB_NODELIST", "cn[1-3]"}, {"SLURM_CPUS_PER_TASK", "2"}});
  EXPECT_EQ(wide.exit_code, 2) << wide.err;
  EXPECT_NE(wide.err.find("do not fit"), std::string::npos) << wide.err;
  // A heterogeneous job: every group (a host in two groups once, CPUs added), or the one named.
  const std::vector<std::pair<std::string, std::string>> het = {{"SLURM_JOB_NODELIST_HET_GROUP_0", "cn1"},
                                                                {"SLURM_JOB_CPUS_PER_NODE_HET_GROUP_0", "2"},
                                                                {"SLURM_JOB_NODELIST_HET_GROUP_1", "cn[1-2]"},
                                                                {"SLURM_JOB_CPUS_PER_NODE_HET_GROUP_1", "1,3"}};
  const auto both = box.run("tm-map",
                            {"-t", "tianhe3:1x1,nodes=4,cores=4", "-c", "s.mat", "--alloc-from-env", "-s", "inorder",
                             "-q", "--format", "hostfile"},
                            het);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.out, "cn1\ncn1\ncn1\ncn2\ncn2\ncn2\n");
  const auto group = box.run("tm-map",
                             {"-t", "tianhe3:1x1,nodes=4,cores=4", "-c", "s.mat", "--alloc-from-env", "--het-group",
                              "1", "-s", "inorder", "-q", "--format", "hostfile"},
                             het);
  EXPECT_EQ(group.exit_code, 2) << group.err;  // 1 + 3 CPUs for 6 ranks
  EXPECT_NE(group.err.find("do not fit"), std::string::npos) << group.err;
  const auto no_group = box.run(
      "tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=4", "-c", "s.mat", "--alloc-from-env", "--het-group", "2"}, het);
  EXPECT_EQ(no_group.exit_code, 2);
  EXPECT_NE(no_group.err.find("--het-group: 2 is not a group of this job"), std::string::npos) << no_group.err;
  const auto missing = box.run("tm-map", {"-t", "tianhe3:1x1,nodes=4,cores=3", "-c", "s.mat", "--alloc-from-env"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("neither SLURM_JOB_NODELIST nor PBS_NODEFILE is set"), std::string::npos);
}

// -q and -v count against each other: -q -v is the normal level (the
// summary), -q alone prints nothing, -q -q -v still nothing.
TEST(Cli, QuietAndVerboseCombine) {
  Sandbox box;
  const auto normal = box.run("tm-map", {"--example"});
  const auto both = box.run("tm-map", {"--example", "-q", "-v"});
  const auto quiet = box.run("tm-map", {"--example", "-q"});
  const auto quieter = box.run("tm-map", {"--example", "-q", "-q", "-v"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_NE(both.err.find("hop_bytes 144000"), std::string::npos) << both.err;
  EXPECT_EQ(both.out, normal.out);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quieter.err, "");
}
