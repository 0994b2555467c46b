// A process's binding in hwloc's logical numbering (src/mpi/binding.cpp):
// on a machine whose OS numbers CPUs across packages (0,2 on the first,
// 1,3 on the second, as many two-socket servers do), OS CPU 1 is the third
// core in hardware order, not the second.
#include <gtest/gtest.h>
#include <hwloc.h>

#include "mpi/binding.hpp"

namespace {

struct Machine {
  hwloc_topology_t topology = nullptr;
  explicit Machine(const char* synthetic) {
    hwloc_topology_init(&topology);
    hwloc_topology_set_synthetic(topology, synthetic);
    hwloc_topology_load(topology);
  }
  ~Machine() { hwloc_topology_destroy(topology); }
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
};

tmap::mpi::ProcessSite bound_to(const Machine& m, const char* os_cpus) {
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_bitmap_list_sscanf(set, os_cpus);
  tmap::mpi::ProcessSite site;
  tmap::mpi::describe_binding(m.topology, set, site);
  hwloc_bitmap_free(set);
  return site;
}

}  // namespace

TEST(MpiBinding, ScatteredOsNumbersBecomeLogicalCores) {
  const Machine m("pack:2 core:2 pu:1(indexes=0,2,1,3)");
  const auto site = bound_to(m, "1");
  EXPECT_EQ(site.cores, 4);
  EXPECT_EQ(site.pus, 4);
  EXPECT_EQ(site.core, 2);  // OS CPU 1 sits on the second package
  EXPECT_EQ(site.pu, 2);
  EXPECT_EQ(bound_to(m, "2").core, 1);
  EXPECT_EQ(tmap::mpi::bound_pe_index(site, 4), 2);
}

TEST(MpiBinding, HyperthreadsAndUnboundProcesses) {
  const Machine m("core:2 pu:2");  // OS PUs 0,1 on core 0; 2,3 on core 1
  const auto core = bound_to(m, "2-3");
  EXPECT_EQ(core.core, 1);
  EXPECT_EQ(core.pu, -1);  // two PUs: no single one
  const auto thread = bound_to(m, "3");
  EXPECT_EQ(thread.core, 1);
  EXPECT_EQ(thread.pu, 3);
  EXPECT_EQ(tmap::mpi::bound_pe_index(thread, 2), 1);  // a PE per core
  EXPECT_EQ(tmap::mpi::bound_pe_index(thread, 4), 3);  // a PE per thread
  const auto across = bound_to(m, "1-2");              // across two cores
  EXPECT_EQ(across.core, -1);
  const auto all = bound_to(m, "0-3");  // the whole machine: unbound
  EXPECT_EQ(all.core, -1);
  EXPECT_EQ(all.pu, -1);
  EXPECT_EQ(tmap::mpi::bound_pe_index(all, 2), -1);
}
