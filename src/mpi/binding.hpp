// Where this process runs, as the placement needs it: host name and the
// binding in hwloc's logical numbering (cores and PUs in hardware order,
// however the OS numbers them), read from a given hwloc topology (Open
// MPI's own, for the component) or one loaded here.
#pragma once

#include "mpi/placement.hpp"

namespace tmap::mpi {

/// This process's site. `hwloc_topology`: an hwloc_topology_t of this
/// machine, or null (one is loaded and dropped). Without hwloc built in,
/// the binding is the one OS CPU of sched_getaffinity.
[[nodiscard]] ProcessSite own_site(void* hwloc_topology);

/// The logical core and PU that a binding (an hwloc cpuset of `topology`)
/// lies in, and the machine's core and PU counts, written into `site`.
/// Both arguments are hwloc types (hwloc_topology_t, hwloc_const_cpuset_t),
/// passed untyped so this header stays free of hwloc. No-op without hwloc.
void describe_binding(void* topology, const void* cpuset, ProcessSite& site);

}  // namespace tmap::mpi
