#include "mpi/binding.hpp"

#include <unistd.h>

#include <cstdlib>

#if TMAP_HAVE_HWLOC
#include <hwloc.h>
#else
#include <sched.h>
#endif

namespace tmap::mpi {

#if TMAP_HAVE_HWLOC

void describe_binding(void* topology, const void* cpuset, ProcessSite& site) {
  auto* topo = static_cast<hwloc_topology_t>(topology);
  const auto* set = static_cast<hwloc_const_cpuset_t>(cpuset);
  site.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  site.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  if (site.cores <= 0) site.cores = site.pus;  // machines hwloc finds no cores in
  hwloc_const_cpuset_t complete = hwloc_topology_get_complete_cpuset(topo);
  if (hwloc_bitmap_iszero(set) || hwloc_bitmap_isincluded(complete, set)) return;  // unbound
  if (hwloc_bitmap_weight(set) == 1) {
    if (hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, static_cast<unsigned>(hwloc_bitmap_first(set))))
      site.pu = static_cast<int>(pu->logical_index);
  }
  // The one core holding the whole binding (bound to a core or to one of its PUs).
  if (hwloc_obj_t core = hwloc_get_next_obj_covering_cpuset_by_type(topo, set, HWLOC_OBJ_CORE, nullptr);
      core != nullptr && hwloc_get_next_obj_covering_cpuset_by_type(topo, set, HWLOC_OBJ_CORE, core) == nullptr) {
    site.core = static_cast<int>(core->logical_index);
  } else if (hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) == 0) {
    site.core = site.pu;  // no cores: a PU is a core
  }
}

namespace {

void own_binding(void* given, ProcessSite& site) {
  auto topology = static_cast<hwloc_topology_t>(given);
  hwloc_topology_t loaded = nullptr;
  if (topology == nullptr) {
    if (hwloc_topology_init(&loaded) != 0) return;
    if (hwloc_topology_load(loaded) != 0) {
      hwloc_topology_destroy(loaded);
      return;
    }
    topology = loaded;
  }
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (set != nullptr && hwloc_get_cpubind(topology, set, 0) == 0) describe_binding(topology, set, site);
  hwloc_bitmap_free(set);
  if (loaded != nullptr) hwloc_topology_destroy(loaded);
}

}  // namespace

#else

void describe_binding(void*, const void*, ProcessSite&) {}

namespace {

void own_binding(void*, ProcessSite& site) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) site.cpu = c;
    }
  }
}

}  // namespace

#endif

ProcessSite own_site(void* hwloc_topology) {
  ProcessSite site;
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) == 0) site.host = host;
  own_binding(hwloc_topology, site);
  site.gpu = given_gpu(std::getenv("CUDA_VISIBLE_DEVICES"), std::getenv("ROCR_VISIBLE_DEVICES"),
                       std::getenv("ZE_AFFINITY_MASK"));
  return site;
}

}  // namespace tmap::mpi
