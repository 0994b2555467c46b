#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "sched/slurm_environment.hpp"
#include "tmap/allocation.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/machine.hpp"
#include "tmap/report.hpp"
#include "tmap/scheduler.hpp"
#include "tmap/topology.hpp"

using tmap::expand_hostlist;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tmap::Error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

namespace {

/// The allocation of the scheduler whose job the environment names
/// (Slurm, then PBS, else none), as tm-map --alloc-from-env asks for it.
tmap::Allocation env_allocation(std::optional<int> het_group = {}) {
  tmap::AllocationRequest request;
  request.het_group = het_group;
  return tmap::job_scheduler().allocation(request);
}

}  // namespace

TEST(Allocation, SlurmHostListsExpandWithPaddingAndSeveralPrefixes) {
  const auto hosts = expand_hostlist("cn[0012-0014,0100],gpu[1-3]");
  EXPECT_EQ(hosts, (std::vector<std::string>{"cn0012", "cn0013", "cn0014", "cn0100", "gpu1", "gpu2", "gpu3"}));
  EXPECT_EQ(expand_hostlist("n[1-2]-ib[0-1]"), (std::vector<std::string>{"n1-ib0", "n1-ib1", "n2-ib0", "n2-ib1"}));
  EXPECT_EQ(expand_hostlist("a1, a2,b[07]"), (std::vector<std::string>{"a1", "a2", "b07"}));
  EXPECT_EQ(expand_hostlist("cn[8-11]").back(), "cn11");
}

TEST(Allocation, BadHostListsAreRefused) {
  EXPECT_NE(error_of([] { (void)expand_hostlist("cn[1-3"); }).find("unbalanced '['"), std::string::npos);
  EXPECT_NE(error_of([] { (void)expand_hostlist("cn1]"); }).find("unbalanced ']'"), std::string::npos);
  EXPECT_NE(error_of([] { (void)expand_hostlist("cn[3-1]"); }).find("bad range '3-1'"), std::string::npos);
  EXPECT_NE(error_of([] { (void)expand_hostlist("cn[]"); }).find("empty brackets"), std::string::npos);
  EXPECT_NE(error_of([] { (void)expand_hostlist(","); }).find("no hosts"), std::string::npos);
  // A million hosts of a kilobyte each (2^20 names, within the count's
  // bound) are refused before any is built (the fuzz target machine found
  // a topology.conf that took 3 GB so).
  const std::string long_name = std::string(1000, 'x') + "[0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1]" +
                                "[0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1]";
  EXPECT_NE(error_of([&] { (void)expand_hostlist(long_name); }).find("more than 64 MiB of host names"),
            std::string::npos);
  EXPECT_EQ(expand_hostlist("n[0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1][0-1]").size(), 1024U);
}

TEST(Allocation, NodeIdsFromHostNames) {
  EXPECT_EQ(tmap::node_of_host("cn0012"), 12);
  EXPECT_EQ(tmap::node_of_host("gpu3"), 3);
  EXPECT_EQ(tmap::node_of_host("r2n17", "r\\d+n(\\d+)"), 17);
  EXPECT_NE(error_of([] { (void)tmap::node_of_host("login"); }).find("host 'login' has no trailing number"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)tmap::node_of_host("x7", "cn(\\d+)"); }).find("does not match the host pattern"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)tmap::node_of_host("x7", "cn(("); }).find("not a valid regular expression"),
            std::string::npos);
}

TEST(Allocation, ParseChecksAgainstTheTopology) {
  const auto t = tmap::load_topology("tianhe3:1x1,nodes=8,cores=2");
  const auto ids = tmap::parse_allocation("0-2,5");
  EXPECT_TRUE(ids.hosts.empty());
  EXPECT_EQ(ids.nodes, (std::vector<tmap::NodeId>{0, 1, 2, 5}));
  const auto hosts = tmap::parse_allocation("cn[01-02],cn7");
  EXPECT_EQ(hosts.nodes, (std::vector<tmap::NodeId>{1, 2, 7}));
  EXPECT_NO_THROW(hosts.check(*t));
  EXPECT_NE(error_of([&] {
              tmap::parse_allocation("cn1,cn01").check(*t);
            }).find("--alloc: host cn01 (node 1) is listed twice (also as cn1)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              tmap::parse_allocation("cn[6-9]").check(*t);
            }).find("--alloc: host cn8 (node 8) is outside the topology (nodes 0..7)"),
            std::string::npos);
}

TEST(Allocation, FromSlurmAndPbsEnvironments) {
  EXPECT_EQ(tmap::job_scheduler().name(), "none");
  EXPECT_FALSE(tmap::job_scheduler().in_job());
  ::setenv("SLURM_JOB_NODELIST", "cn[3-4]", 1);
  EXPECT_EQ(tmap::job_scheduler().name(), "slurm");
  auto a = env_allocation();
  EXPECT_EQ(a.origin, "SLURM_JOB_NODELIST");
  EXPECT_EQ(a.hosts, (std::vector<std::string>{"cn3", "cn4"}));
  ::unsetenv("SLURM_JOB_NODELIST");
  const auto file = (std::filesystem::temp_directory_path() / "tmap_pbs_nodes").string();
  std::ofstream(file) << "cn9\ncn9\ncn2\ncn2\n";
  ::setenv("PBS_NODEFILE", file.c_str(), 1);
  EXPECT_EQ(tmap::job_scheduler().name(), "pbs");
  a = env_allocation();
  EXPECT_EQ(a.nodes, (std::vector<tmap::NodeId>{9, 2}));
  EXPECT_EQ(a.cpus, (std::vector<std::int64_t>{2, 2}));  // a line per slot
  ::unsetenv("PBS_NODEFILE");
  EXPECT_THROW((void)env_allocation(), tmap::NoSchedulerError);
  EXPECT_NE(error_of([] { (void)env_allocation(); }).find("neither SLURM_JOB_NODELIST nor PBS_NODEFILE"),
            std::string::npos);
  std::filesystem::remove(file);
}

// Issue 30: cpus-per-task, job ids and heterogeneous jobs from Slurm's environment.
TEST(Allocation, SlurmCpusPerTaskAndHeterogeneousJobs) {
  ::setenv("SLURM_JOB_NODELIST", "cn[1-2]", 1);
  ::setenv("SLURM_CPUS_PER_TASK", "4", 1);
  ::setenv("SLURM_JOB_ID", "812", 1);
  auto a = env_allocation();
  EXPECT_EQ(a.cpus_per_rank, 4);
  EXPECT_EQ(a.cpus_per_rank_origin, "SLURM_CPUS_PER_TASK");
  EXPECT_EQ(a.jobs, (std::vector<std::string>{"812"}));
  for (const char* bad : {"abc", "0", "-2", "4x"}) {
    ::setenv("SLURM_CPUS_PER_TASK", bad, 1);
    EXPECT_NE(error_of([] {
                (void)env_allocation();
              }).find("SLURM_CPUS_PER_TASK '" + std::string(bad) + "': expected a positive number"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(error_of([] { (void)env_allocation(1); }).find("not a heterogeneous Slurm job"), std::string::npos);
  ::unsetenv("SLURM_CPUS_PER_TASK");
  ::unsetenv("SLURM_JOB_ID");
  ::unsetenv("SLURM_JOB_NODELIST");
  // Two groups sharing cn2: once, with both groups' CPUs; or group 1 alone.
  ::setenv("SLURM_JOB_NODELIST_HET_GROUP_0", "cn[1-2]", 1);
  ::setenv("SLURM_JOB_CPUS_PER_NODE_HET_GROUP_0", "2(x2)", 1);
  ::setenv("SLURM_JOB_ID_HET_GROUP_0", "40", 1);
  ::setenv("SLURM_JOB_NODELIST_HET_GROUP_1", "cn[2-3]", 1);
  ::setenv("SLURM_JOB_CPUS_PER_NODE_HET_GROUP_1", "1,3", 1);
  ::setenv("SLURM_JOB_ID_HET_GROUP_1", "41", 1);
  a = env_allocation();
  EXPECT_EQ(a.hosts, (std::vector<std::string>{"cn1", "cn2", "cn3"}));
  EXPECT_EQ(a.cpus, (std::vector<std::int64_t>{2, 3, 3}));
  EXPECT_EQ(a.jobs, (std::vector<std::string>{"40", "41"}));
  a = env_allocation(1);
  EXPECT_EQ(a.hosts, (std::vector<std::string>{"cn2", "cn3"}));
  EXPECT_EQ(a.cpus, (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(a.origin, "SLURM_JOB_NODELIST_HET_GROUP_1");
  EXPECT_NE(error_of([] { (void)env_allocation(2); }).find("2 is not a group of this job"), std::string::npos);
  ::setenv("SLURM_CPUS_PER_TASK_HET_GROUP_1", "2", 1);
  EXPECT_NE(error_of([] { (void)env_allocation(); }).find("map each group with --het-group N"), std::string::npos);
  for (const char* name :
       {"SLURM_JOB_NODELIST_HET_GROUP_0", "SLURM_JOB_CPUS_PER_NODE_HET_GROUP_0", "SLURM_JOB_ID_HET_GROUP_0",
        "SLURM_JOB_NODELIST_HET_GROUP_1", "SLURM_JOB_CPUS_PER_NODE_HET_GROUP_1", "SLURM_JOB_ID_HET_GROUP_1",
        "SLURM_CPUS_PER_TASK_HET_GROUP_1"}) {
    ::unsetenv(name);
  }
}

// Issue 16: parts of nodes, white-space lists, deco labels as node ids.
TEST(Allocation, PartialNodesAndLabels) {
  EXPECT_EQ(tmap::sched::expand_slurm_counts("72(x2),36", "S"), (std::vector<std::int64_t>{72, 72, 36}));
  EXPECT_NE(error_of([] { (void)tmap::sched::expand_slurm_counts("4(x", "S"); }).find("S: bad repetition"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)tmap::sched::expand_slurm_counts("0", "S"); }).find("S: bad CPU count"),
            std::string::npos);
  ::setenv("SLURM_JOB_NODELIST", "cn[3-5]", 1);
  ::setenv("SLURM_JOB_CPUS_PER_NODE", "2(x2),1", 1);
  const auto a = env_allocation();
  EXPECT_EQ(a.cpus, (std::vector<std::int64_t>{2, 2, 1}));
  ::setenv("SLURM_JOB_CPUS_PER_NODE", "2", 1);
  EXPECT_NE(error_of([] { (void)env_allocation(); }).find("gives 1 counts for the 3 nodes"), std::string::npos);
  ::unsetenv("SLURM_JOB_CPUS_PER_NODE");
  ::unsetenv("SLURM_JOB_NODELIST");
  // PBS repeats a host once per CPU.
  const auto file = (std::filesystem::temp_directory_path() / "tmap_pbs_cpus").string();
  std::ofstream(file) << "cn9\ncn2\ncn9\ncn9\n";
  ::setenv("PBS_NODEFILE", file.c_str(), 1);
  EXPECT_EQ(env_allocation().cpus, (std::vector<std::int64_t>{3, 1}));
  ::unsetenv("PBS_NODEFILE");
  std::filesystem::remove(file);
  // Hosts pasted with spaces or newlines are separate hosts.
  EXPECT_EQ(tmap::parse_allocation("cn1 cn2\ncn[4-5]").hosts, (std::vector<std::string>{"cn1", "cn2", "cn4", "cn5"}));
  EXPECT_NE(error_of([] { (void)tmap::parse_allocation(""); }).find("--alloc"), std::string::npos);
  // A deco target's terminal labels are its node ids.
  const auto deco = tmap::parse_tgt("deco 0 2 3  40 2 2  7 3 3  5", "d.tgt");
  auto labelled = tmap::parse_allocation("cn40,cn7");
  labelled.resolve(*deco);
  EXPECT_EQ(labelled.nodes, (std::vector<tmap::NodeId>{1, 0}));  // nodes in label order: 7, 40
  EXPECT_EQ(deco->size(), 5);
  EXPECT_EQ(host_name(*deco, 1), "cn40");
  EXPECT_NE(error_of([&] {
              tmap::parse_allocation("cn8").check(*deco);
            }).find("--alloc: host cn8 (node 8) is outside the topology (2 nodes numbered 7..40 with gaps)"),
            std::string::npos);
}

TEST(Allocation, LauncherFormats) {
  tmap::MappingReport report;
  report.host_of = [](tmap::PE pe) { return "cn" + std::to_string(pe / 2); };
  report.slot_of = [](tmap::PE pe) { return std::to_string(pe % 2); };
  const tmap::Mapping m{0, 1, 3, 2, 0};
  EXPECT_EQ(tmap::format_mapping(tmap::MappingFormat::Rankfile, m, report),
            "rank 0=cn0 slot=0\nrank 1=cn0 slot=1\nrank 2=cn1 slot=1\nrank 3=cn1 slot=0\nrank 4=cn0 slot=0\n");
  EXPECT_EQ(tmap::format_mapping(tmap::MappingFormat::Hostfile, m, report), "cn0\ncn0\ncn1\ncn1\ncn0\n");
  EXPECT_EQ(tmap::format_mapping(tmap::MappingFormat::Machinefile, m, report), "cn0:2\ncn1:2\ncn0:1\n");
}
