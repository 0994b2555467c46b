// The launch module's pieces on their own: hosts files, launcher files,
// rank slots and Slurm's order (tm-map's use of them is tested in tests/cli).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/launch.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology.hpp"

namespace {

TEST(Launch, HostsFilesListOneHostALineInNodeOrder) {
  EXPECT_EQ(tmap::parse_hosts_file("a # first\n\n  b\t\nc\n", "hosts", 3), (std::vector<std::string>{"a", "b", "c"}));
  const auto refused = [](const std::string& text, const std::string& says) {
    try {
      (void)tmap::parse_hosts_file(text, "hosts", 2);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const tmap::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused("a b\nc\n", "hosts:1: expected one host name per line");
  refused("a\na\n", "hosts:2: host a is listed twice (first on line 1)");
  refused("a\n", "lists 1 hosts but the machine has 2 nodes");
  refused("a\nb\x01\n", "hosts:2: the control byte 0x01 inside a host name");
  refused("a\nrank=b\n", "hosts:2: '=' inside a host name");
  refused("a\nb,c\n", "hosts:2: ',' inside a host name");
}

TEST(Launch, LauncherFilesByHand) {
  const std::vector<tmap::PE> mapping = {3, 2, 0, 1, 2};
  const auto host = [](tmap::PE pe) { return pe < 2 ? std::string("n0") : std::string("n1"); };
  const auto slot = [](tmap::PE pe) { return std::to_string(pe % 2); };
  EXPECT_EQ(tmap::format_launch_file(tmap::MappingFormat::Rankfile, mapping, host, slot, ""),
            "rank 0=n1 slot=1\nrank 1=n1 slot=0\nrank 2=n0 slot=0\nrank 3=n0 slot=1\nrank 4=n1 slot=0\n");
  EXPECT_EQ(tmap::format_launch_file(tmap::MappingFormat::Hostfile, mapping, host, slot, ""), "n1\nn1\nn0\nn0\nn1\n");
  // Runs of consecutive ranks on one host, as MPICH places them.
  EXPECT_EQ(tmap::format_launch_file(tmap::MappingFormat::Machinefile, mapping, host, slot, ""), "n1:2\nn0:2\nn1:1\n");
  EXPECT_EQ(tmap::format_launch_file(tmap::MappingFormat::Hydra, mapping, host, slot, "./a.out 1"),
            "-n 2 -host n1 ./a.out 1\n-n 2 -host n0 ./a.out 1\n-n 1 -host n1 ./a.out 1\n");
  EXPECT_THROW((void)tmap::format_launch_file(tmap::MappingFormat::Hydra, mapping, host, slot, ""),
               tmap::ParameterError);
  EXPECT_FALSE(tmap::is_launch_format(tmap::MappingFormat::Perm));
}

TEST(Launch, SlurmOrderPutsANodesRanksOnItsCpusInRankOrder) {
  // One node of 4 interchangeable PEs (cmplt 1 of weight 4 would do; a
  // tleaf whose node is the whole leaf level): the job holds CPUs 1-3.
  const auto t = tmap::load_topology("tleaf 1 4 1");
  tmap::Allocation allocation;
  allocation.nodes = {0};
  allocation.hosts = {"cn0"};
  allocation.cpu_ids = {{1, 2, 3}};
  const auto slots = tmap::job_rank_slots(*t, &allocation, 1);
  ASSERT_EQ(slots.cpus_of.size(), 3U);
  EXPECT_EQ(slots.slot_text(2), "2");
  // Ranks 0, 1, 2 mapped on PEs 3, 1, 2: srun binds rank 0 to CPU 1, rank 1
  // to 2, rank 2 to 3, so the mapping becomes 1, 2, 3 (same cost).
  tmap::Mapping mapping = {3, 1, 2};
  tmap::keep_launch_order(mapping, *t, slots);
  EXPECT_EQ(mapping, (tmap::Mapping{1, 2, 3}));
  // Two CPUs a rank: groups 1-2 (then 3 is left over).
  const auto pairs = tmap::job_rank_slots(*t, &allocation, 2);
  ASSERT_EQ(pairs.cpus_of.size(), 1U);
  EXPECT_EQ(pairs.slot_text(1), "1-2");
  // Whole nodes, one CPU a rank: no slots (every PE of the nodes).
  allocation.cpu_ids.clear();
  EXPECT_TRUE(tmap::job_rank_slots(*t, &allocation, 1).cpus_of.empty());
  EXPECT_EQ(tmap::cpu_list_text({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
}

}  // namespace
