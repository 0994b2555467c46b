// libtmap-mpi's decisions without MPI: where processes run (host names,
// bindings, launch order) and which process plays each vertex.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "mpi/placement.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

using tmap::mpi::ProcessSite;

TEST(MpiPlacement, HostNamesPutProcessesOnTheirNodes) {
  const auto topology = tmap::load_topology("tleaf 2 2 10 2 1");  // nodes cn0 (PEs 0,1), cn1 (PEs 2,3)
  std::string how;
  const auto pes = tmap::mpi::locate_processes(*topology, {{"cn1"}, {"cn1"}, {"cn0"}, {"cn0"}}, &how);
  EXPECT_EQ(pes, (std::vector<tmap::PE>{2, 3, 0, 1}));
  EXPECT_EQ(how, "processes on the nodes their host names name, bound ones on their logical cores");
  // A process bound to one CPU sits on that PE of its node; the other takes what is left.
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {{"cn0", -1}, {"cn0", 0}, {"cn1", 1}, {"cn1", -1}}),
            (std::vector<tmap::PE>{1, 0, 3, 2}));
  // One host the machine names: its node, by binding (here logical cores 1 and 0).
  ProcessSite a{"cn1"};
  a.core = 1;
  a.cores = 2;
  ProcessSite b{"cn1"};
  b.core = 0;
  b.cores = 2;
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {a, b}, &how), (std::vector<tmap::PE>{3, 2}));
}

// A user's cluster (a network of named nodes, as TMAP_NODE and
// TMAP_HOST_NAMES give it): processes sit on the nodes their hosts name.
TEST(MpiPlacement, NamedClusterNodesTakeTheirHostsProcesses) {
  const auto topology = tmap::load_machine({"fattree:2;2,2;1,1;1,1", "core:2", {"nodeA", "nodeB", "nodeC", "nodeD"}});
  ASSERT_EQ(topology->size(), 8);
  ProcessSite c1{"nodeC"};
  c1.core = 1;
  c1.cores = 2;
  std::string how;
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {{"nodeD"}, c1, {"nodeC"}, {"nodeA"}}, &how),
            (std::vector<tmap::PE>{6, 5, 4, 0}));
  EXPECT_EQ(how, "processes on the nodes their host names name, bound ones on their logical cores");
  // cn<k> names nothing on this machine: launch order.
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {{"cn2"}, {"cn0"}}, &how), (std::vector<tmap::PE>{0, 1}));
}

// GPU PEs (TMAP_PE=gpu): a process sits on the GPU its launcher gave it
// (CUDA_VISIBLE_DEVICES and the like), whatever its CPU binding; a process
// given none takes the node's free GPUs in launch order.
TEST(MpiPlacement, ProcessesSitOnTheGpusTheirLauncherGaveThem) {
  const auto topology = tmap::load_machine({"fattree:1;2;1;1", "gpu:4 link:pairs pu:8", {"g1", "g2"}, {}, {}, "gpu"});
  ASSERT_EQ(topology->size(), 8);
  ProcessSite on_g2_gpu3{"g2"};
  on_g2_gpu3.gpu = 3;
  on_g2_gpu3.core = 0;  // its binding names a core: not what places it
  on_g2_gpu3.cores = 8;
  ProcessSite on_g1_gpu1{"g1"};
  on_g1_gpu1.gpu = 1;
  std::string how;
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {on_g2_gpu3, on_g1_gpu1, {"g1"}, {"g2"}}, &how),
            (std::vector<tmap::PE>{7, 1, 0, 4}));
  EXPECT_EQ(how, "processes on the nodes their host names name, each on the GPU its launcher gave it");
  // What the launcher's variables say: one number is a GPU; a list, a UUID or nothing is none.
  EXPECT_EQ(tmap::mpi::given_gpu("3", nullptr, nullptr), 3);
  EXPECT_EQ(tmap::mpi::given_gpu(nullptr, "5", "1"), 5);
  EXPECT_EQ(tmap::mpi::given_gpu("", nullptr, "2"), 2);
  EXPECT_EQ(tmap::mpi::given_gpu("0,1", nullptr, nullptr), -1);
  EXPECT_EQ(tmap::mpi::given_gpu("GPU-8e3f", nullptr, nullptr), -1);
  EXPECT_EQ(tmap::mpi::given_gpu(nullptr, nullptr, nullptr), -1);
}

// hwloc's logical index decides, not the OS number: with hwloc, a site's
// OS cpu is ignored; a PE per hardware thread takes the PU's index.
TEST(MpiPlacement, BindingIndexIsLogical) {
  ProcessSite s{"cn0"};
  s.cpu = 1;  // the OS number (sched_getaffinity), used only without hwloc
  EXPECT_EQ(tmap::mpi::bound_pe_index(s, 4), 1);
  s.cores = 4;
  s.pus = 4;
  EXPECT_EQ(tmap::mpi::bound_pe_index(s, 4), -1);  // hwloc saw no single core: unbound
  s.core = 2;
  s.pu = 2;
  EXPECT_EQ(tmap::mpi::bound_pe_index(s, 4), 2);
  s.pus = 8;  // two threads per core
  s.pu = 5;
  EXPECT_EQ(tmap::mpi::bound_pe_index(s, 4), 2);  // a PE per core: the core
  EXPECT_EQ(tmap::mpi::bound_pe_index(s, 8), 5);  // a PE per thread: the PU
}

TEST(MpiPlacement, UnknownHostsOrOneHostMeanLaunchOrder) {
  const auto topology = tmap::load_topology("tleaf 2 2 10 2 1");
  std::string how;
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, {{"a"}, {"b"}, {"a"}}, &how), (std::vector<tmap::PE>{0, 1, 2}));
  EXPECT_EQ(how, "host names are not the machine's: processes on PEs in launch order");
  // Six processes on four PEs wrap around.
  EXPECT_EQ(tmap::mpi::locate_processes(*topology, std::vector<ProcessSite>(6, {"vm"}), &how),
            (std::vector<tmap::PE>{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(how, "one host the machine does not name: processes on PEs in launch order");
}

// A ring of 8 whose heavy edges join i and i+4: the identity puts every
// heavy pair on different nodes; the assignment must bring them together
// and report both costs as the evaluator counts them.
TEST(MpiPlacement, AssignmentBeatsTheIdentityAndIsAPermutation) {
  const auto topology = tmap::load_topology("tleaf 2 4 10 2 1");
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i < 4; ++i) {
    entries.push_back({i, i + 4, 1000});
    entries.push_back({i + 4, i, 1000});
  }
  const auto graph = tmap::CommMatrix::from_entries(8, entries);
  std::vector<tmap::PE> pes(8);
  std::iota(pes.begin(), pes.end(), 0);
  tmap::Context scotch_swap;
  scotch_swap.strategy = "scotch";
  scotch_swap.refine.kind = tmap::RefineKind::Swap;
  const auto a = tmap::mpi::assign_vertices(graph, *topology, pes, scotch_swap);
  auto sorted = a.process_of_vertex;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  tmap::Mapping played(8);
  for (std::size_t k = 0; k < 8; ++k) played[k] = pes[static_cast<std::size_t>(a.process_of_vertex[k])];
  EXPECT_EQ(a.hop_bytes, tmap::evaluate(graph, *topology, played).hop_bytes);
  EXPECT_EQ(a.identity_hop_bytes, tmap::evaluate(graph, *topology, tmap::Mapping(pes.begin(), pes.end())).hop_bytes);
  // Each heavy pair on one node: 8 ordered pairs x 1000 B x the in-node distance.
  EXPECT_EQ(a.hop_bytes, 8000 * topology->distance(0, 1));
  EXPECT_LT(a.hop_bytes, a.identity_hop_bytes);
}

// Fewer vertices than processes (a 2 x 3 grid on 8 processes) and two
// processes per PE: vertices go to distinct processes, at most two per PE.
TEST(MpiPlacement, FewerVerticesAndSharedPEs) {
  const auto topology = tmap::load_topology("tleaf 2 2 10 2 1");
  const auto graph = tmap::CommMatrix::from_entries(6, {{0, 1, 5}, {1, 2, 5}, {3, 4, 5}, {4, 5, 5}, {0, 3, 9}});
  const std::vector<tmap::PE> pes{0, 0, 1, 1, 2, 2, 3, 3};
  tmap::Context greedy;
  greedy.strategy = "greedy";
  const auto a = tmap::mpi::assign_vertices(graph, *topology, pes, greedy);
  ASSERT_EQ(a.process_of_vertex.size(), 6U);
  auto sorted = a.process_of_vertex;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_LE(a.hop_bytes, a.identity_hop_bytes);
}
