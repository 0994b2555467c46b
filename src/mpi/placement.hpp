// The MPI library's decisions, apart from MPI itself (testable without it):
// where each process of a communicator runs on the TMAP_TOPOLOGY machine,
// and which process plays each vertex of the communicator's graph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::mpi {

/// What a process knows of where it runs: its host, and its binding in
/// hwloc's logical numbering (the order of the hardware, whatever the OS
/// numbers; the OS number only where hwloc is not built in).
struct ProcessSite {
  std::string host;  ///< its host name
  int cpu = -1;      ///< the one OS CPU it is bound to when hwloc is absent, or -1
  int core = -1;     ///< the logical index of the one core its binding lies in, or -1
  int pu = -1;       ///< the logical index of the one PU it is bound to, or -1
  int cores = 0;     ///< cores of its host (hwloc), 0 when unknown
  int pus = 0;       ///< PUs of its host (hwloc), 0 when unknown
  /// The one GPU its launcher gave it (the single index of
  /// CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or ZE_AFFINITY_MASK), or -1.
  int gpu = -1;
};

/// The GPU a process's environment gives it (ProcessSite::gpu): the first
/// set of the values of CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES and
/// ZE_AFFINITY_MASK (null: unset) when it is one number, else -1 (a list,
/// a UUID, none set).
[[nodiscard]] int given_gpu(const char* cuda, const char* rocr, const char* ze);

/// The index among its node's PEs that a process's binding names, or -1:
/// the logical PU when the node has a PE per hardware thread (as many PEs
/// as PUs, more PUs than cores), else the logical core, else (no hwloc)
/// the OS CPU.
[[nodiscard]] int bound_pe_index(const ProcessSite& site, std::size_t node_pes);

/// Each process's PE, in communicator order. Hosts that are all host names
/// of the machine's nodes (Topology::host_name, e.g. cn12) put a process
/// on its node; within a node a bound process sits on the PE its binding
/// names (bound_pe_index; where PEs are GPUs, the GPU it was given) when
/// that is free, the others on the node's free
/// PEs in launch order. Otherwise (unknown host names, or one host the
/// machine does not name) the processes sit on PEs in launch order: process
/// i on PE i. More processes than PEs wrap around (oversubscription). `how`
/// says which rule was used.
[[nodiscard]] std::vector<PE> locate_processes(const Topology& topology, const std::vector<ProcessSite>& sites,
                                               std::string* how = nullptr);

struct Assignment {
  /// process_of_vertex[k]: the process (rank in the old communicator) that
  /// plays vertex k, i.e. becomes rank k of the new communicator.
  std::vector<int> process_of_vertex;
  std::int64_t identity_hop_bytes = 0;  ///< vertex k on process k's PE
  std::int64_t hop_bytes = 0;           ///< after the mapping
};

/// Maps the graph's vertices (graph.num_ranks() <= processes) onto the
/// processes' PEs as tmap::map does with `context` (tm-map's run); never
/// worse than the identity (kept when it is better).
[[nodiscard]] Assignment assign_vertices(const CommMatrix& graph, const Topology& topology,
                                         const std::vector<PE>& pe_of_process, const Context& context);

/// Where the processes sit as constraints: their distinct PEs, each holding
/// as many vertices as the most processes on one PE.
[[nodiscard]] Constraints process_constraints(const Topology& topology, const std::vector<PE>& pe_of_process);

/// The assignment for a mapping of the vertices onto the processes' PEs
/// with its hop-bytes and the identity's: the mapping when it can be played
/// (no PE holds more vertices than processes sit there) and beats the
/// identity, the identity otherwise; a PE's vertices take its processes in
/// order.
[[nodiscard]] Assignment settle(const Mapping& mapping, std::int64_t hop_bytes, std::int64_t identity_hop_bytes,
                                const std::vector<PE>& pe_of_process);

}  // namespace tmap::mpi
