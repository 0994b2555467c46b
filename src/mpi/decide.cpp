#include "mpi/decide.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mpi/binding.hpp"
#include "mpi/placement.hpp"
#ifdef TMAP_MPI_PTSCOTCH
#include "mpi/distributed.hpp"
#endif
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

namespace tmap::mpi {

namespace {

constexpr int kHostChars = 256;
constexpr int kSiteInts = 6;  // cpu, core, pu, cores, pus, gpu

/// Every process's site, on rank 0 of comm.
std::vector<ProcessSite> gather_sites(const Settings& settings, MPI_Comm comm, int rank, int size) {
  const auto mine = own_site(settings.hwloc_topology);
  char packed[kHostChars + kSiteInts * sizeof(int)] = {0};
  std::strncpy(packed, mine.host.c_str(), kHostChars - 1);
  const int numbers[kSiteInts] = {mine.cpu, mine.core, mine.pu, mine.cores, mine.pus, mine.gpu};
  std::memcpy(packed + kHostChars, numbers, sizeof numbers);
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * sizeof packed : 0);
  PMPI_Gather(packed, sizeof packed, MPI_CHAR, all.data(), sizeof packed, MPI_CHAR, 0, comm);
  std::vector<ProcessSite> sites;
  if (rank != 0) return sites;
  for (int p = 0; p < size; ++p) {
    const char* at = all.data() + static_cast<std::size_t>(p) * sizeof packed;
    ProcessSite s;
    s.host.assign(at, strnlen(at, kHostChars));
    int n[kSiteInts];
    std::memcpy(n, at + kHostChars, sizeof n);
    s.cpu = n[0];
    s.core = n[1];
    s.pu = n[2];
    s.cores = n[3];
    s.pus = n[4];
    s.gpu = n[5];
    sites.push_back(std::move(s));
  }
  return sites;
}

/// A distributed strategy of the table (ptscotch): it maps where the graph lives.
bool maps_where_the_graph_lives(const std::string& strategy) {
  for (const auto& row : strategy_table()) {
    if (row.name == strategy) return row.has(kDistributed);
  }
  return false;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void report(const Settings& settings, const char* routine, int vertices, const tmap::Topology& topology,
            const Assignment& a, const std::string& strategy, double seconds, const std::string& how) {
  if (settings.verbose < 1) return;
  std::fprintf(stderr, "tmap-mpi: %s, %d ranks, %s: hop_bytes %lld -> %lld (%s, %.4f s; %s)\n", routine, vertices,
               topology.description().c_str(), static_cast<long long>(a.identity_hop_bytes),
               static_cast<long long>(a.hop_bytes), strategy.c_str(), seconds, how.c_str());
  // Under the default reading a dist graph's process keeps the edges it
  // declared: the figure after the arrow is what the program gains only if
  // each process takes up the part (data, role) its new rank names.
  if (std::string_view(routine).starts_with("MPI_Dist_graph") && settings.dist_graph == DistGraphEdges::processes) {
    std::fprintf(stderr,
                 "tmap-mpi: %s: the hop_bytes after the arrow hold when each process does the work of its new rank; "
                 "each process keeps the edges it declared (TMAP_DIST_GRAPH=processes), so its traffic moves only "
                 "if the program gives it its new rank's data (docs/mpi.md, what reorder means)\n",
                 routine);
  }
}

/// The process that plays each vertex, decided where the graph lives
/// (TMAP_STRATEGY=ptscotch); empty = do not reorder. Collective.
std::vector<int> decide_distributed(const Settings& settings, MPI_Comm comm, const char* routine,
                                    const GraphSource& source, const std::vector<ProcessSite>& sites) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
#ifndef TMAP_MPI_PTSCOTCH
  (void)source;
  (void)sites;
  if (rank == 0 && settings.verbose >= 1) {
    std::fprintf(stderr, "tmap-mpi: %s not reordered: this libtmap-mpi was built without PT-Scotch\n", routine);
  }
  return {};
#else
  int size = 0;
  PMPI_Comm_size(comm, &size);
  const auto start = std::chrono::steady_clock::now();
  // Rank 0 reads the machine and locates the processes; then every process
  // reads the same description (a spec, or a path all of them can read).
  Settings machine = settings;  // rank 0's machine settings decide
  std::string how;
  std::string error;
  std::vector<long long> pes(static_cast<std::size_t>(size), 0);
  int ok = 1;
  if (rank == 0) {
    try {
      const auto topology = load_settings_machine(machine);
      const auto located = locate_processes(*topology, sites, &how);
      pes.assign(located.begin(), located.end());
    } catch (const std::exception& e) {
      ok = 0;
      error = e.what();
    }
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (ok != 0) {
    for (auto* text : {&machine.topology, &machine.node, &machine.host_names}) {
      int length = static_cast<int>(text->size());
      PMPI_Bcast(&length, 1, MPI_INT, 0, comm);
      text->resize(static_cast<std::size_t>(length));
      PMPI_Bcast(text->data(), length, MPI_CHAR, 0, comm);
    }
    PMPI_Bcast(pes.data(), size, MPI_LONG_LONG, 0, comm);
  }
  std::shared_ptr<const tmap::Topology> topology;
  if (ok != 0) {
    try {
      topology = load_settings_machine(machine);
    } catch (const std::exception& e) {
      ok = 0;
      error = std::string("process ") + std::to_string(rank) + ": " + e.what();
    }
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  }
  Assignment a;
  if (ok != 0) {
    // On a communicator of its own: PT-Scotch's messages never meet the program's.
    MPI_Comm work = MPI_COMM_NULL;
    PMPI_Comm_dup(comm, &work);
    try {
      const std::vector<tmap::PE> pe_of_process(pes.begin(), pes.end());
      a = assign_distributed(work, source.vertices, source.mine(), *topology, pe_of_process);
    } catch (const std::exception& e) {
      ok = 0;
      error = e.what();
    } catch (...) {
      ok = 0;
    }
    // Refusals are the same on every process; this keeps a lone failure from
    // reordering half of the processes.
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, work);
    PMPI_Comm_free(&work);
  }
  if (ok == 0) {
    if (rank == 0 && settings.verbose >= 1) {
      std::fprintf(stderr, "tmap-mpi: %s not reordered: %s\n", routine,
                   error.empty() ? "another process could not take part" : error.c_str());
    }
    return {};
  }
  if (rank == 0) report(settings, routine, source.vertices, *topology, a, "ptscotch", seconds_since(start), how);
  return a.process_of_vertex;
#endif
}

}  // namespace

/// The process that plays each vertex (empty = do not reorder), decided on
/// rank 0 from the gathered graph, or where the graph lives for ptscotch.
/// Collective: every process calls it; every process gets the answer.
std::vector<int> decide(const Settings& settings, MPI_Comm comm, const char* routine, const GraphSource& source) {
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const auto sites = gather_sites(settings, comm, rank, size);
  int distributed = rank == 0 && maps_where_the_graph_lives(settings.context.strategy) ? 1 : 0;
  PMPI_Bcast(&distributed, 1, MPI_INT, 0, comm);
  if (distributed != 0) return decide_distributed(settings, comm, routine, source, sites);
  const Graph graph = source.gather();
  std::vector<int> process_of_vertex;
  int vertices = 0;
  if (rank == 0) {
    try {
      const auto start = std::chrono::steady_clock::now();
      const auto topology = load_settings_machine(settings);
      std::string how;
      const auto pes = locate_processes(*topology, sites, &how);
      const auto chosen = strategy_label(settings.context);
      const auto matrix = CommMatrix::from_entries(graph.vertices, graph.edges);
      const auto a = assign_vertices(matrix, *topology, pes, settings.context);
      process_of_vertex = a.process_of_vertex;
      vertices = static_cast<int>(process_of_vertex.size());
      report(settings, routine, graph.vertices, *topology, a, chosen, seconds_since(start), how);
    } catch (const std::exception& e) {
      if (settings.verbose >= 1) std::fprintf(stderr, "tmap-mpi: %s not reordered: %s\n", routine, e.what());
      process_of_vertex.clear();
      vertices = 0;
    } catch (...) {  // nothing may escape into the MPI program
      process_of_vertex.clear();
      vertices = 0;
    }
  }
  PMPI_Bcast(&vertices, 1, MPI_INT, 0, comm);
  process_of_vertex.resize(static_cast<std::size_t>(vertices));
  if (vertices > 0) PMPI_Bcast(process_of_vertex.data(), vertices, MPI_INT, 0, comm);
  return process_of_vertex;
}

}  // namespace tmap::mpi
