// GPU nodes (--pe gpu): nvidia-smi and rocm-smi text, hwloc XML's GPUs and
// "gpu:N" specs read into one model; distances by link class checked by
// hand; halos mapped onto GPU machines against brute-forced optima; the
// example nodes' XML and text giving the same distances; bad input refused
// with the file and line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/job.hpp"
#include "tmap/machine.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "util/file.hpp"

namespace {

using tmap::CommEntry;
using tmap::CommMatrix;
using tmap::PE;
using tmap::Rank;

// A DGX-1 (V100) as nvidia-smi topo -m prints it (examples/gpu): the hybrid
// cube-mesh, each GPU on NVLink with 4 others (NV1 or NV2), SYS to the other 3.
const std::string kDgx1 = TMAP_EXAMPLES_DIR "/gpu/dgx1.smi.txt";

class GpuFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("tmap_gpu_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

std::unique_ptr<tmap::Topology> machine(const std::string& t, const std::string& node = {},
                                        const std::string& pe = {}) {
  return tmap::load_machine({t, node, {}, {}, {}, pe});
}

/// A 2D halo of rows x cols ranks (4 neighbours, `bytes` each way),
/// its ranks renumbered by `order` (order[k] is the rank of grid cell k).
CommMatrix halo(const std::vector<int>& dims, const std::vector<Rank>& order, tmap::Volume bytes) {
  std::vector<CommEntry> entries;
  const int n = std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  for (int cell = 0; cell < n; ++cell) {
    int stride = 1;
    for (const int d : dims) {
      const int coordinate = (cell / stride) % d;
      if (coordinate + 1 < d) {
        const auto a = order[static_cast<std::size_t>(cell)];
        const auto b = order[static_cast<std::size_t>(cell + stride)];
        entries.push_back({a, b, bytes});
        entries.push_back({b, a, bytes});
      }
      stride *= d;
    }
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

std::vector<Rank> shuffled(int n, unsigned seed) {
  std::vector<Rank> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  return order;
}

/// tm-map's default on `machine_text` (with --node `node`), through the job
/// facade as every front end runs it.
tmap::Mapping map_default(const std::string& machine_text, const std::string& node, const CommMatrix& comm) {
  tmap::JobSpec spec;
  spec.machine.topology = machine_text;
  if (!node.empty()) spec.machine.nodes = {node};
  spec.machine.pe = "gpu";
  spec.traffic.matrix = comm;
  return tmap::Job(spec).run().mapping;
}

std::int64_t cost(const CommMatrix& comm, const tmap::Topology& t, const tmap::Mapping& m) {
  return tmap::evaluate(comm, t, m).hop_bytes;
}

}  // namespace

TEST_F(GpuFiles, NvidiaSmiTextGivesLinkClassesNicExitsAndCpuShares) {
  const auto path = kDgx1;
  const auto node = machine(path);
  ASSERT_EQ(node->size(), 8);
  EXPECT_EQ(node->distance(0, 1), 1);  // NV1
  EXPECT_EQ(node->distance(0, 3), 1);  // NV2: one GPU link, whatever its width
  EXPECT_EQ(node->distance(0, 5), 6);  // SYS
  EXPECT_EQ(node->distance(5, 0), 6);
  EXPECT_EQ(node->max_distance(), 6);
  EXPECT_EQ(node->kind(), "gpu-node");
  // GPUs 0-3 share CPUs 0-19,40-59: a quarter of each run each, in GPU order.
  const auto gpu1 = tmap::device_slot(*node, 1);
  ASSERT_TRUE(gpu1.has_value());
  EXPECT_EQ(gpu1->variable, "CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(gpu1->index, 1);
  EXPECT_EQ(gpu1->cpus, (std::vector<std::int32_t>{5, 6, 7, 8, 9, 45, 46, 47, 48, 49}));
  // Two nodes under one switch: each GPU's way out is its PIX NIC (2 + the
  // NIC itself), then 2 cables: 3 + 3 + 2, farther than SYS inside a node.
  const auto two = machine("fattree:1;2;1;1", path);
  EXPECT_EQ(two->size(), 16);
  EXPECT_EQ(two->distance(0, 8), 8);
  EXPECT_EQ(two->distance(0, 13), 8);  // GPU5's nearest NIC, mlx5_2, is PIX too
  EXPECT_EQ(two->distance(0, 5), 6);
  EXPECT_EQ(tmap::device_slot(*two, 9)->index, 1);
  EXPECT_EQ(tmap::host_name(*two, two->node_of(9)), "cn1");
}

TEST_F(GpuFiles, TwoByFourHaloShuffledOnADgx1PutsEveryPairOnNvlink) {
  const auto path = kDgx1;
  const auto node = machine(path);
  for (const unsigned seed : {1U, 2U, 3U}) {
    const auto comm = halo({4, 2}, shuffled(8, seed), 1000);
    // Brute force over the 8! placements: the least hop-bytes is every one
    // of the 10 halo pairs on an NVLink (1 hop), both ways: 20,000.
    std::vector<PE> m(8);
    std::iota(m.begin(), m.end(), 0);
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    do {
      best = std::min(best, cost(comm, *node, m));
    } while (std::next_permutation(m.begin(), m.end()));
    ASSERT_EQ(best, 20000);
    const auto mapped = map_default(path, {}, comm);
    EXPECT_EQ(cost(comm, *node, mapped), best) << "seed " << seed;
    for (Rank a = 0; a < 8; ++a) {
      for (const auto b : comm.targets(a)) {
        EXPECT_EQ(node->distance(mapped[static_cast<std::size_t>(a)], mapped[static_cast<std::size_t>(b)]), 1)
            << "ranks " << a << " and " << b << " not on NVLink";
      }
    }
  }
}

// 16 ranks of a 4 x 2 x 2 halo on 4 nodes of 4 GPUs joined all to all
// (NVLink), one switch above the nodes. A node holds 4 ranks, and 4 cells
// of a grid share at most 4 halo pairs (a square), so at most 16 of the 28
// pairs stay inside nodes (on NVLink, 1 hop) and at least 12 cross (each
// GPU out through its PIX NIC: 3 + 3 + 2 cables = 8): 2 x 1000 x (16 + 12 x
// 8) = 224,000 hop-bytes, by hand; brute force over the 2,627,625 ways to
// split the ranks into 4 nodes agrees.
TEST(GpuHalo, ThreeDHaloOnFourNodesOfFourGpusKeepsTheMostBytesInsideNodes) {
  const std::string network = "fattree:1;4;1;1";
  const std::string node = "gpu:4 link:all nic:4 pu:16";
  const auto t = machine(network, node);
  ASSERT_EQ(t->size(), 16);
  ASSERT_EQ(t->distance(0, 1), 1);
  ASSERT_EQ(t->distance(0, 4), 8);
  const auto comm = halo({4, 2, 2}, shuffled(16, 7), 1000);
  // Brute force: each rank's node, canonical (a node first used in order).
  std::vector<std::pair<Rank, Rank>> pairs;
  for (Rank a = 0; a < 16; ++a) {
    for (const auto b : comm.targets(a)) {
      if (a < b) pairs.emplace_back(a, b);
    }
  }
  ASSERT_EQ(pairs.size(), 28U);
  std::vector<int> node_of(16, -1);
  std::vector<int> count(4, 0);
  std::int64_t least_cut = std::numeric_limits<std::int64_t>::max();
  const auto cut = [&] {
    std::int64_t c = 0;
    for (const auto& [a, b] : pairs)
      c += node_of[static_cast<std::size_t>(a)] != node_of[static_cast<std::size_t>(b)] ? 1 : 0;
    return c;
  };
  std::int64_t splits = 0;
  const auto place = [&](auto&& self, int rank, int used) -> void {
    if (rank == 16) {
      ++splits;
      least_cut = std::min(least_cut, cut());
      return;
    }
    for (int n = 0; n <= std::min(used, 3); ++n) {
      if (count[static_cast<std::size_t>(n)] == 4) continue;
      node_of[static_cast<std::size_t>(rank)] = n;
      ++count[static_cast<std::size_t>(n)];
      self(self, rank + 1, std::max(used, n + 1));
      --count[static_cast<std::size_t>(n)];
    }
  };
  place(place, 0, 0);
  ASSERT_EQ(splits, 2627625);
  ASSERT_EQ(least_cut, 12);
  const std::int64_t optimum = 2 * 1000 * ((28 - least_cut) * 1 + least_cut * 8);
  ASSERT_EQ(optimum, 224000);
  const auto mapped = map_default(network, node, comm);
  EXPECT_EQ(cost(comm, *t, mapped), optimum);
}

// The three example nodes, as hwloc XML (examples/gpu/make_nodes.py) and as
// their vendor tool's text (written by hand): the same distances between
// GPUs, the same way out and the same CPUs for each GPU.
TEST(GpuSources, ExampleNodesGiveTheSameDistancesFromXmlAndText) {
  const std::string dir = TMAP_EXAMPLES_DIR "/gpu/";
  for (const auto& [xml, text] : {std::pair{"dgx-a100.xml", "dgx-a100.smi.txt"},
                                  {"nvlink4.xml", "nvlink4.smi.txt"},
                                  {"mi250x.xml", "mi250x.rocm.txt"}}) {
    SCOPED_TRACE(xml);
    const auto from_xml = machine(dir + xml, {}, "gpu");
    const auto from_text = machine(dir + text);
    ASSERT_EQ(from_xml->size(), from_text->size());
    const auto two_xml = machine("fattree:1;2;1;1", dir + xml, "gpu");
    const auto two_text = machine("fattree:1;2;1;1", dir + text);
    const PE n = from_xml->size();
    for (PE a = 0; a < n; ++a) {
      for (PE b = 0; b < n; ++b) EXPECT_EQ(from_xml->distance(a, b), from_text->distance(a, b)) << a << " " << b;
      const auto x = tmap::device_slot(*from_xml, a);
      const auto s = tmap::device_slot(*from_text, a);
      ASSERT_TRUE(x && s);
      EXPECT_EQ(x->variable, s->variable);
      EXPECT_EQ(x->index, a);
      if (std::string(text).ends_with(".rocm.txt")) {
        // rocm-smi names no NIC and no CPU: the way out is the host bridge's
        // (PHB + 1 = 5), the XML's the PIX NIC's (3).
        EXPECT_TRUE(s->cpus.empty());
        EXPECT_EQ(two_text->distance(a, n + a) - 2, 10);
        EXPECT_EQ(two_xml->distance(a, n + a) - 2, 6);
      } else {
        EXPECT_EQ(x->cpus, s->cpus);
        EXPECT_EQ(two_xml->distance(a, n + a), two_text->distance(a, n + a));
        EXPECT_EQ(two_xml->distance(a, n + a), 8);  // every example GPU has a PIX NIC
      }
    }
  }
  // A share by hand: Perlmutter-like GPU 0 sits on NUMA node 3, cores
  // 48-63 (threads +64), alone there.
  const auto gpu0 = tmap::device_slot(*machine(dir + "nvlink4.smi.txt"), 0);
  std::vector<std::int32_t> expected(16);
  std::iota(expected.begin(), expected.end(), 48);
  for (int k = 112; k < 128; ++k) expected.push_back(k);
  EXPECT_EQ(gpu0->cpus, expected);
  const auto gcd1 = tmap::device_slot(*machine(dir + "mi250x.xml", {}, "gpu"), 1);
  EXPECT_EQ(gcd1->variable, "ROCR_VISIBLE_DEVICES");
  EXPECT_EQ(gcd1->cpus.front(), 56);  // the second half of NUMA 3's cores
}

// Without its NVLink matrix the DGX-like XML's GPUs are as far apart as
// their PCIe paths: a switch (PIX), two host bridges of one package (NODE),
// two packages (SYS).
TEST_F(GpuFiles, HwlocXmlGivesPcieClassesWhereNoGpuLinkJoins) {
  auto xml = tmap::detail::read_text_file(TMAP_EXAMPLES_DIR "/gpu/dgx-a100.xml");
  const auto begin = xml.find("<distances2hetero");
  const auto end = xml.find("</distances2hetero>");
  ASSERT_NE(begin, std::string::npos);
  xml.erase(begin, end + 19 - begin);
  const auto node = machine(write("pcie.xml", xml), {}, "gpu");
  EXPECT_EQ(node->distance(0, 1), 2);
  EXPECT_EQ(node->distance(0, 2), 5);
  EXPECT_EQ(node->distance(0, 4), 6);
  EXPECT_EQ(tmap::host_name(*node, 0), "localhost");
}

TEST_F(GpuFiles, HandSpecAndRocmText) {
  const auto spec = machine("gpu:8 link:pairs package:2 nic:4 pu:32 vendor:amd");
  EXPECT_EQ(spec->distance(0, 1), 1);  // a pair
  EXPECT_EQ(spec->distance(1, 2), 5);  // one package, two switches
  EXPECT_EQ(spec->distance(0, 4), 6);  // two packages
  EXPECT_EQ(tmap::device_slot(*spec, 5)->variable, "ROCR_VISIBLE_DEVICES");
  EXPECT_EQ(tmap::device_slot(*spec, 5)->cpus, (std::vector<std::int32_t>{20, 21, 22, 23}));
  const auto none = machine("gpu:2 link:none");
  EXPECT_EQ(none->distance(0, 1), 5);
  EXPECT_FALSE(tmap::device_slot(*none, 0)->cpus.size());
}

// Bad input: the file, the line and the problem; nothing mapped.
TEST_F(GpuFiles, RefusesBadTextWithFileAndLine) {
  const auto refused = [&](const std::string& text) {
    const auto path = write("bad.txt", text);
    try {
      (void)machine(path);
    } catch (const tmap::Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string head = "\tGPU0\tGPU1\tCPU Affinity\n";
  EXPECT_EQ(refused(head + "GPU0\t X \tNV2\t0-3\nGPU1\tNV2\t X \t0-3\n"), "accepted");
  EXPECT_NE(
      refused(head + "GPU0\t X \tNVX\t0-3\nGPU1\tNV2\t X \t0-3\n").find("bad.txt:2: GPU0's cell for GPU1 is 'NVX'"),
      std::string::npos);
  EXPECT_NE(refused(head + "GPU0\t X \tNV2\t0-3\nGPU1\tSYS\t X \t0-3\n").find("links go both ways"), std::string::npos);
  EXPECT_NE(refused(head + "GPU0\t X \tNV99999\t0-3\nGPU1\tNV99999\t X \t0-3\n").find("'NV99999': not a link"),
            std::string::npos);
  EXPECT_NE(refused(head + "GPU0\t X \tNV2\t0-3\n").find("no row for GPU1"), std::string::npos);
  EXPECT_NE(refused(head + "GPU0\tNV2\tNV2\t0-3\nGPU1\tNV2\t X \t0-3\n").find("on the diagonal only"),
            std::string::npos);
  EXPECT_NE(refused(head + "GPU0\t X \tNV2\t0-3\nGPU1\tNV2\t X \t0-x\n").find("bad.txt:3:"), std::string::npos);
  EXPECT_NE(refused("\tGPU1\tGPU0\nGPU0\t X \tNV1\n").find("bad.txt:1: column 'GPU1' where GPU0 comes next"),
            std::string::npos);
  EXPECT_NE(refused("=== Link Type between two GPUs ===\n  GPU0 GPU1\nGPU0 0 XGMI\nGPU1 NVLINK 0\n").find("bad.txt:4:"),
            std::string::npos);
  for (const auto* spec :
       {"gpu:0", "gpu:4 link:some", "gpu:4 package:5", "gpu:2 gpu:2", "gpu:4 colour:red", "gpu:4 pu"}) {
    SCOPED_TRACE(spec);
    EXPECT_THROW((void)machine(spec), tmap::InputError);
  }
  EXPECT_THROW((void)machine("tleaf 2 4 10 4 1", {}, "gpu"), tmap::ParameterError);
  EXPECT_THROW((void)machine("fattree:1;2;1;1", "package:2 core:4", "gpu"), tmap::InputError);
  EXPECT_THROW((void)machine(kDgx1, {}, "cpu"), tmap::ParameterError);
  EXPECT_THROW((void)machine(TMAP_EXAMPLES_DIR "/gpu/dgx-a100.xml", {}, "tpu"), tmap::ParameterError);
}

// Launcher files of GPU PEs: the binding gives each rank its GPU and CPUs;
// a rankfile, which cannot, is refused with what to write instead.
TEST(GpuLaunch, BindingNamesEachRanksGpuAndCpusAndRankfileIsRefused) {
  tmap::JobSpec spec;
  spec.machine.topology = "fattree:1;2;1;1";
  spec.machine.nodes = {"gpu:2 package:2 pu:4"};
  spec.machine.host_names = "g[1-2]";
  spec.machine.pe = "gpu";
  spec.traffic.matrix = halo({4}, {0, 1, 2, 3}, 100);
  spec.output.format = tmap::MappingFormat::Binding;
  tmap::Job job(spec);
  const tmap::Mapping in_order{0, 1, 2, 3};
  EXPECT_EQ(job.launch_file(in_order, spec.output),
            "# tmap binding: rank, host, the CPUs near its GPU (OS numbers), the variable that gives it its GPU; "
            "tm-bind FILE -- PROGRAM binds each rank there and sets the variable\n"
            "# tmap binding pe=gpu\n"
            "0 g1 0,1 CUDA_VISIBLE_DEVICES=0\n"
            "1 g1 2,3 CUDA_VISIBLE_DEVICES=1\n"
            "2 g2 0,1 CUDA_VISIBLE_DEVICES=0\n"
            "3 g2 2,3 CUDA_VISIBLE_DEVICES=1\n");
  spec.output.format = tmap::MappingFormat::Rankfile;
  try {
    (void)job.launch_file(in_order, spec.output);
    ADD_FAILURE() << "a rankfile of GPU PEs was written";
  } catch (const tmap::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("write --format binding"), std::string::npos) << e.what();
  }
  // A node of CPUs first, then one of GPUs: ranks on the GPUs alone are
  // bound to their GPUs (PE 0 being a CPU does not decide), ranks on both
  // kinds cannot share one binding file.
  tmap::JobSpec mixed;
  mixed.machine.topology = "fattree:1;2;1;1";
  mixed.machine.nodes = {"core:2", "cn1=gpu:2 pu:4"};  // a gpu: spec is GPUs without --pe gpu
  mixed.output.format = tmap::MappingFormat::Binding;
  tmap::Job mixed_job(mixed);
  EXPECT_EQ(mixed_job.launch_file(tmap::Mapping{3, 2}, mixed.output),
            "# tmap binding: rank, host, the CPUs near its GPU (OS numbers), the variable that gives it its GPU; "
            "tm-bind FILE -- PROGRAM binds each rank there and sets the variable\n"
            "# tmap binding pe=gpu\n"
            "0 cn1 2,3 CUDA_VISIBLE_DEVICES=1\n"
            "1 cn1 0,1 CUDA_VISIBLE_DEVICES=0\n");
  EXPECT_THROW((void)mixed_job.launch_file(tmap::Mapping{0, 2}, mixed.output), tmap::ParameterError);
}

// Routes over a GPU node's own links: every route's hops are the distance,
// on every example node, a cluster of them, and one beside CPU nodes (whose
// PEs of one node share its memory, no link: no route).
TEST_F(GpuFiles, RoutesCrossTheNodesLinksAndCountTheDistance) {
  const std::string dir = TMAP_EXAMPLES_DIR "/gpu/";
  const auto dgx1 = kDgx1;
  const std::vector<std::unique_ptr<tmap::Topology>> machines = [&] {
    std::vector<std::unique_ptr<tmap::Topology>> list;
    list.push_back(machine(dgx1));
    list.push_back(machine("fattree:2;2,2;1,2;1,1", dgx1));
    list.push_back(machine("fattree:1;2;1;1", dir + "dgx-a100.xml", "gpu"));
    list.push_back(machine("torus:2,2", dir + "mi250x.xml", "gpu"));
    list.push_back(machine("fattree:1;2;1;1", dir + "mi250x.rocm.txt"));
    list.push_back(machine("gpu:8 link:switch width:18 package:2 nic:8 pu:16"));
    list.push_back(tmap::load_machine({"fattree:1;3;1;1", "core:2", {}, {}, {{"cn1", "gpu:4 link:pairs nic:2"}}}));
    return list;
  }();
  for (const auto& t : machines) {
    SCOPED_TRACE(t->description());
    const auto routing = tmap::make_routing(*t);
    ASSERT_NE(routing, nullptr);
    std::vector<tmap::LinkId> links;
    for (PE a = 0; a < t->size(); ++a) {
      for (PE b = 0; b < t->size(); ++b) {
        const bool cpu_node = a != b && t->node_of(a) == t->node_of(b) && !tmap::device_slot(*t, a);
        EXPECT_EQ(routing->route_hops(a, b), cpu_node ? 0 : t->distance(a, b)) << a << " -> " << b;
        links.clear();
        routing->route(a, b, links);
        for (const auto l : links) ASSERT_TRUE(l >= 0 && l < routing->num_links());
      }
    }
  }
}

// The links a message loads and its predicted time, by hand.
TEST_F(GpuFiles, LinkLoadsAndPredictedTimeSeeGpuLinksPcieAndNics) {
  const auto t = machine("fattree:1;2;1;1", kDgx1);
  const auto routing = tmap::make_routing(*t);
  const auto names = [&](PE a, PE b) {
    std::vector<tmap::LinkId> links;
    routing->route(a, b, links);
    std::vector<std::string> text;
    for (const auto l : links) {
      text.push_back(routing->link_name(l) + " " +
                     routing->link_kinds()[static_cast<std::size_t>(routing->link_kind(l))]);
    }
    return text;
  };
  EXPECT_EQ(names(0, 3), (std::vector<std::string>{"node 0 GPU0-GPU3 nvlink2"}));
  EXPECT_EQ(names(0, 5),
            (std::vector<std::string>{"node 0 GPU0 pcie pcie", "node 0 smp smp", "node 0 GPU5 pcie pcie"}));
  EXPECT_EQ(names(2, 13),
            (std::vector<std::string>{"node 0 GPU2 pcie pcie", "node 0 mlx5_1 nic", "node 0 - switch(1,0) level1",
                                      "node 1 - switch(1,0) level1", "node 1 mlx5_2 nic", "node 1 GPU5 pcie pcie"}));
  // 1 MB from GPU0 to GPU3 (NV2: 2 x 25 GB/s) and to GPU 0 of the other node
  // (its slowest link a cable of 12.5 GB/s), 0.5 us a hop.
  const auto one = [&](PE b) {
    tmap::Mapping m(2);
    m[0] = 0;
    m[1] = b;
    const auto comm = CommMatrix::from_entries(2, {{0, 1, 1000000}});
    const tmap::ObjectiveMeter time(comm, *t, tmap::Objective::Time);
    return time(m).value;
  };
  EXPECT_NEAR(one(3), 1 * 0.5e-6 + 1e6 / 50e9, 1e-12);
  EXPECT_NEAR(one(8), 8 * 0.5e-6 + 1e6 / 12.5e9, 1e-12);
  // The NVLink's bandwidth set by hand (--link-bw nvlink2=1: one cable).
  const auto comm = CommMatrix::from_entries(2, {{0, 1, 1000000}});
  const tmap::ObjectiveMeter slow(comm, *t, tmap::Objective::Time, "nvlink2=1");
  EXPECT_NEAR(slow(tmap::Mapping{0, 3}).value, 0.5e-6 + 1e6 / 12.5e9, 1e-12);
}

// GPU nodes on a Slurm switch tree, mapped inside an allocation: ranks only
// on the allocated nodes' GPUs, the binding naming those hosts.
TEST_F(GpuFiles, SlurmSwitchTreeAndAnAllocation) {
  const auto conf = write("topology.conf",
                          "SwitchName=s0 Nodes=gpu[1-2]\nSwitchName=s1 Nodes=gpu[3-4]\n"
                          "SwitchName=top Switches=s[0-1]\n");
  tmap::JobSpec spec;
  spec.machine.topology = conf;
  spec.machine.nodes = {TMAP_EXAMPLES_DIR "/gpu/nvlink4.smi.txt"};
  spec.allocation.kind = tmap::AllocationSource::Kind::Hosts;
  spec.allocation.hosts = "gpu[2-3]";
  spec.traffic.matrix = halo({4, 2}, shuffled(8, 5), 1000);
  spec.output.format = tmap::MappingFormat::Binding;
  tmap::Job job(spec);
  ASSERT_EQ(job.machine().size(), 16);
  auto result = job.run();
  job.prepare_output(result);
  const auto binding = job.output(result);
  for (const PE pe : result.mapping) {
    const auto host = tmap::host_name(job.machine(), job.machine().node_of(pe));
    EXPECT_TRUE(host == "gpu2" || host == "gpu3") << host;
  }
  EXPECT_NE(binding.find(" gpu2 48-63,112-127 CUDA_VISIBLE_DEVICES=0\n"), std::string::npos) << binding;
  // Two nodes under different leaf switches: 3 + 3 + 4 cables apart; the
  // halo's 4 x 2 grid splits into two 2 x 2 blocks of NVLinked GPUs.
  EXPECT_EQ(job.machine().distance(4, 8), 10);
  EXPECT_EQ(tmap::evaluate(*spec.traffic.matrix, job.machine(), result.mapping).hop_bytes, 2 * 1000 * (8 * 1 + 2 * 10));
}
