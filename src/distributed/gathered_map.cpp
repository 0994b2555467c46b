#include "distributed/gathered_map.hpp"

#include <exception>
#include <string>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"

namespace tmap::dist {

std::int64_t total_entries(MPI_Comm comm, const LocalGraph& graph) {
  auto mine = static_cast<long long>(graph.targets.size());
  long long all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return all;
}

CommMatrix gather_matrix(MPI_Comm comm, const LocalGraph& graph) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // (from, to, bytes) triples, each pair once (from its lower end), halved.
  std::vector<std::vector<long long>> outgoing(static_cast<std::size_t>(size));
  auto& to_root = outgoing[0];
  for (Rank v = 0; v < graph.count(); ++v) {
    const Rank from = graph.first + v;
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const Rank to = graph.targets[static_cast<std::size_t>(e)];
      if (to <= from) continue;
      const Volume bytes = graph.volumes[static_cast<std::size_t>(e)];
      const Volume half = bytes / 2;
      to_root.insert(to_root.end(), {from, to, bytes - half});
      if (half > 0) to_root.insert(to_root.end(), {to, from, half});
    }
  }
  const auto gathered = send_to_owners(comm, outgoing);
  if (rank != 0) return CommMatrix::from_entries(graph.n, {});
  std::vector<CommEntry> entries;
  entries.reserve(gathered.size() / 3);
  for (std::size_t k = 0; k + 2 < gathered.size(); k += 3) {
    entries.push_back(
        {static_cast<Rank>(gathered[k]), static_cast<Rank>(gathered[k + 1]), static_cast<Volume>(gathered[k + 2])});
  }
  return CommMatrix::from_entries(graph.n, std::move(entries));
}

Mapping map_gathered(MPI_Comm comm, const LocalGraph& graph, const Topology& topology, const Constraints& constraints,
                     const Context& context) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto gathered = gather_matrix(comm, graph);
  Mapping mapping(static_cast<std::size_t>(graph.n));
  std::string error;
  std::exception_ptr failure;
  if (rank == 0) {
    try {
      mapping = map(Problem{gathered, topology, constraints}, context);
    } catch (const std::exception& e) {
      failure = std::current_exception();
      error = e.what();
      if (error.empty()) error = "mapping the gathered graph failed";
    }
  }
  int failed = error.empty() ? 0 : 1;
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  if (failed != 0) {
    int length = static_cast<int>(error.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, comm);
    error.resize(static_cast<std::size_t>(length));
    MPI_Bcast(error.data(), length, MPI_CHAR, 0, comm);
    if (failure) std::rethrow_exception(failure);  // process 0: the error as it was
    throw InternalError("the sequential mapping of the gathered graph on process 0: " + error);
  }
  static_assert(sizeof(PE) == sizeof(std::int64_t));
  MPI_Bcast(mapping.data(), static_cast<int>(mapping.size()), MPI_INT64_T, 0, comm);
  return mapping;
}

}  // namespace tmap::dist
