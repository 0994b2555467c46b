// The graphs of MPI's topology constructors and tmap's order for them, shared
// by the preload library (pmpi_reorder.cpp) and Open MPI's topo component
// (src/ompi): both renumber with the same decision.
#include "mpi/orders.hpp"

#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

#include "mpi/decide.hpp"
#include "mpi/orders.h"

namespace tmap::mpi {

/// Whether reordering is asked for and possible on this communicator
/// (the same answer on every process: reorder and TMAP_TOPOLOGY as rank 0 has them).
bool wanted(MPI_Comm comm, int reorder) {
  if (comm == MPI_COMM_NULL) return false;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter != 0) return false;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  int yes = 0;
  if (rank == 0) {
    const char* machine = std::getenv("TMAP_TOPOLOGY");
    yes = reorder != 0 && machine != nullptr && *machine != '\0' ? 1 : 0;
  }
  PMPI_Bcast(&yes, 1, MPI_INT, 0, comm);
  return yes != 0;
}

void add_edge(Graph& g, int from, int to, int weight) {
  if (from != to && weight > 0) g.edges.push_back({from, to, weight});
}

/// The Cartesian grid as a graph: each vertex exchanges one unit with each
/// neighbour along each dimension (wrapped where periodic); rank order is
/// row-major (the last dimension varies fastest), as MPI numbers grids.
/// Vertices [first, last) only.
Graph cartesian_graph(int ndims, const int dims[], const int periods[], int first, int last) {
  Graph g;
  long long n = 1;
  for (int d = 0; d < ndims; ++d) n *= dims[d];
  g.vertices = static_cast<int>(n);
  std::vector<int> coords(static_cast<std::size_t>(ndims));
  for (int v = first; v < last; ++v) {
    int rest = v;
    for (int d = ndims - 1; d >= 0; --d) {
      coords[static_cast<std::size_t>(d)] = rest % dims[d];
      rest /= dims[d];
    }
    for (int d = 0; d < ndims; ++d) {
      for (const int step : {-1, 1}) {
        auto c = coords;
        c[static_cast<std::size_t>(d)] += step;
        if (c[static_cast<std::size_t>(d)] < 0 || c[static_cast<std::size_t>(d)] >= dims[d]) {
          if (periods[d] == 0) continue;
          c[static_cast<std::size_t>(d)] = (c[static_cast<std::size_t>(d)] + dims[d]) % dims[d];
        }
        int w = 0;
        for (int e = 0; e < ndims; ++e) w = w * dims[e] + c[static_cast<std::size_t>(e)];
        add_edge(g, v, w, 1);
      }
    }
  }
  return g;
}

/// This process's block of `vertices` (blocks in process order, as the
/// distributed path owns them).
std::pair<int, int> own_block(MPI_Comm comm, int vertices) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const auto at = [&](int p) { return static_cast<int>(static_cast<long long>(vertices) * p / size); };
  return {at(rank), at(rank + 1)};
}

/// A graph built on rank 0 alone (the others need none to gather).
std::function<Graph()> on_rank_zero(MPI_Comm comm, std::function<Graph()> build) {
  return [comm, build = std::move(build)] {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    return rank == 0 ? build() : Graph{};
  };
}

int weight_at(const int weights[], int k) {
  return weights == MPI_UNWEIGHTED || weights == MPI_WEIGHTS_EMPTY ? 1 : weights[k];
}

/// Every process's edges as (from, to, weight) triples, gathered into a
/// graph of `size` vertices on rank 0 (empty elsewhere). Collective.
Graph gather_edges(MPI_Comm comm, int rank, int size, const std::vector<int>& mine) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
  PMPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(counts.size() + 1, 0);
  for (std::size_t p = 0; p < counts.size(); ++p) offsets[p + 1] = offsets[p] + counts[p];
  std::vector<int> all(rank == 0 ? static_cast<std::size_t>(offsets.back()) : 0);
  PMPI_Gatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), offsets.data(), MPI_INT, 0, comm);
  Graph g;
  g.vertices = size;
  for (std::size_t k = 0; k + 2 < all.size(); k += 3) {
    if (all[k] >= 0 && all[k] < size && all[k + 1] >= 0 && all[k + 1] < size)
      add_edge(g, all[k], all[k + 1], all[k + 2]);
  }
  return g;
}

/// The dist-graph constructors' graph: (from, to, weight) triples each
/// process gives, over the communicator's processes as vertices.
GraphSource edge_source(MPI_Comm comm, const std::vector<int>& mine) {
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  GraphSource source;
  source.vertices = size;
  source.gather = [comm, rank, size, &mine] { return gather_edges(comm, rank, size, mine); };
  source.mine = [size, &mine] {
    Graph g;
    for (std::size_t k = 0; k + 2 < mine.size(); k += 3) {
      if (mine[k] >= 0 && mine[k] < size && mine[k + 1] >= 0 && mine[k + 1] < size)
        add_edge(g, mine[k], mine[k + 1], mine[k + 2]);
    }
    return g.edges;
  };
  return source;
}

std::vector<int> cart_order(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder) {
  if (!wanted(comm_old, reorder) || ndims < 1) return {};
  int size = 0;
  PMPI_Comm_size(comm_old, &size);
  long long cells = 1;
  for (int d = 0; d < ndims; ++d) cells *= dims[d] > 0 ? dims[d] : size + 1LL;
  if (cells > size) return {};  // MPI reports the error
  GraphSource source;
  source.vertices = static_cast<int>(cells);
  source.gather = on_rank_zero(comm_old, [&] { return cartesian_graph(ndims, dims, periods, 0, source.vertices); });
  source.mine = [&] {
    const auto [first, last] = own_block(comm_old, source.vertices);
    return cartesian_graph(ndims, dims, periods, first, last).edges;
  };
  return decide(comm_old, "MPI_Cart_create", source);
}

int new_rank(MPI_Comm comm, const std::vector<int>& process_of_vertex) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  for (std::size_t k = 0; k < process_of_vertex.size(); ++k) {
    if (process_of_vertex[k] == rank) return static_cast<int>(k);
  }
  return MPI_UNDEFINED;
}

}  // namespace tmap::mpi

extern "C" int tmap_orders_cart(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                                int* key) {
  try {
    const auto process_of_vertex = tmap::mpi::cart_order(comm, ndims, dims, periods, reorder);
    if (process_of_vertex.empty()) return 0;
    *key = tmap::mpi::new_rank(comm, process_of_vertex);
    return 1;
  } catch (...) {  // nothing may escape into Open MPI
    return 0;
  }
}
