// The graphs of MPI's topology constructors and tmap's order for them, shared
// by the preload library (pmpi_reorder.cpp) and Open MPI's topo component
// (src/ompi): both renumber with the same decision.
#include "mpi/orders.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

#include "mpi/decide.hpp"
#include "mpi/orders.h"

namespace tmap::mpi {

/// Whether reordering is asked for and possible on this communicator (the
/// same answer on every process: reorder and the settings as rank 0 has them).
Wanted wanted(MPI_Comm comm, int reorder, const Settings& settings) {
  if (comm == MPI_COMM_NULL) return {};
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter != 0) return {};
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  int answer[2] = {0, 0};
  if (rank == 0) {
    answer[0] = reorder != 0 && !settings.topology.empty() && settings.error.empty() ? 1 : 0;
    answer[1] = settings.dist_graph == DistGraphEdges::ranks ? 1 : 0;
    // Who asked for output learns why nothing was done.
    if (reorder != 0 && !settings.error.empty() && settings.verbose >= 1)
      std::fprintf(stderr, "tmap-mpi: not reordered: %s\n", settings.error.c_str());
    if (reorder != 0 && settings.topology.empty() && settings.error.empty() && settings.verbose >= 1)
      std::fprintf(stderr,
                   "tmap-mpi: not reordered: no machine is set (TMAP_TOPOLOGY, or Open MPI's "
                   "topo_tmap_machine)\n");
  }
  PMPI_Bcast(answer, 2, MPI_INT, 0, comm);
  return {answer[0] != 0, answer[1] != 0 ? DistGraphEdges::ranks : DistGraphEdges::processes};
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

std::vector<int> cart_order(const Settings& settings, MPI_Comm comm_old, int ndims, const int dims[],
                            const int periods[], int reorder) {
  if (!wanted(comm_old, reorder, settings).yes || ndims < 1) return {};
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
  return decide(settings, comm_old, "MPI_Cart_create", source);
}

int new_rank(MPI_Comm comm, const std::vector<int>& process_of_vertex) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  for (std::size_t k = 0; k < process_of_vertex.size(); ++k) {
    if (process_of_vertex[k] == rank) return static_cast<int>(k);
  }
  return MPI_UNDEFINED;
}

std::vector<int> new_ranks(const std::vector<int>& process_of_vertex, int size) {
  std::vector<int> result(static_cast<std::size_t>(size), MPI_UNDEFINED);
  for (std::size_t k = 0; k < process_of_vertex.size(); ++k)
    result[static_cast<std::size_t>(process_of_vertex[k])] = static_cast<int>(k);
  return result;
}

std::vector<int> graph_order(const Settings& settings, MPI_Comm comm_old, int nnodes, const int index[],
                             const int edges[], int reorder) {
  int size = 0;
  if (comm_old != MPI_COMM_NULL) PMPI_Comm_size(comm_old, &size);
  if (!wanted(comm_old, reorder, settings).yes || nnodes < 1 || nnodes > size) return {};
  // Vertices [first, last) with their edges (MPI's index/edges arrays).
  const auto graph_part = [&](int first, int last) {
    Graph g;
    g.vertices = nnodes;
    for (int v = first; v < last; ++v) {
      for (int e = v == 0 ? 0 : index[v - 1]; e < index[v]; ++e) {
        if (edges[e] >= 0 && edges[e] < nnodes) add_edge(g, v, edges[e], 1);
      }
    }
    return g;
  };
  GraphSource source;
  source.vertices = nnodes;
  source.gather = on_rank_zero(comm_old, [&] { return graph_part(0, nnodes); });
  source.mine = [&] {
    const auto [first, last] = own_block(comm_old, nnodes);
    return graph_part(first, last).edges;
  };
  return decide(settings, comm_old, "MPI_Graph_create", source);
}

namespace {

/// A rank as the renumbered communicator knows it (MPI's special values kept).
int renumber(const std::vector<int>& new_rank_of, int rank) {
  return rank >= 0 && static_cast<std::size_t>(rank) < new_rank_of.size() ? new_rank_of[static_cast<std::size_t>(rank)]
                                                                          : rank;
}

}  // namespace

AdjacentOrder adjacent_order(const Settings& settings, MPI_Comm comm_old, int indegree, const int sources[],
                             const int sourceweights[], int outdegree, const int destinations[],
                             const int destweights[], int reorder) {
  const auto asked = wanted(comm_old, reorder, settings);
  if (!asked.yes) return {};
  int rank = 0;
  int size = 0;
  PMPI_Comm_rank(comm_old, &rank);
  PMPI_Comm_size(comm_old, &size);
  // Every process's out-edges (its in-edges are another's out-edges).
  std::vector<int> mine;
  for (int k = 0; k < outdegree; ++k) mine.insert(mine.end(), {rank, destinations[k], weight_at(destweights, k)});
  AdjacentOrder order;
  order.process_of_vertex = decide(settings, comm_old, "MPI_Dist_graph_create_adjacent", edge_source(comm_old, mine));
  if (order.process_of_vertex.empty()) return order;
  const bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
  const int flag = !weighted ? 0
                             : TMAP_WEIGHTED | (sourceweights == MPI_WEIGHTS_EMPTY ? TMAP_WEIGHTS_EMPTY : 0) |
                                   (destweights == MPI_WEIGHTS_EMPTY ? TMAP_DEST_WEIGHTS_EMPTY : 0);
  std::vector<int> out{flag, indegree, outdegree};
  for (int k = 0; k < indegree; ++k) out.push_back(sources[k]);
  for (int k = 0; k < indegree; ++k) out.push_back(weighted ? weight_at(sourceweights, k) : 1);
  for (int k = 0; k < outdegree; ++k) out.push_back(destinations[k]);
  for (int k = 0; k < outdegree; ++k) out.push_back(weighted ? weight_at(destweights, k) : 1);
  if (asked.edges == DistGraphEdges::processes) {
    // This process keeps its edges; the ranks they name are renumbered.
    const auto new_rank_of = new_ranks(order.process_of_vertex, size);
    // out: flag, degrees, sources, source weights, destinations, destination weights.
    const auto in = static_cast<std::size_t>(indegree);
    for (std::size_t k = 0; k < in; ++k) out[3 + k] = renumber(new_rank_of, sources[k]);
    for (std::size_t k = 0; k < static_cast<std::size_t>(outdegree); ++k)
      out[3 + 2 * in + k] = renumber(new_rank_of, destinations[k]);
    order.neighbourhood.data = std::move(out);
    return order;
  }
  // Vertex k's neighbourhood goes from old rank k to the process that plays k.
  const int my_vertex = new_rank(comm_old, order.process_of_vertex);
  const int to = order.process_of_vertex[static_cast<std::size_t>(rank)];
  int out_size = static_cast<int>(out.size());
  int in_size = 0;
  PMPI_Sendrecv(&out_size, 1, MPI_INT, to, 0, &in_size, 1, MPI_INT, my_vertex, 0, comm_old, MPI_STATUS_IGNORE);
  order.neighbourhood.data.resize(static_cast<std::size_t>(in_size));
  PMPI_Sendrecv(out.data(), out_size, MPI_INT, to, 1, order.neighbourhood.data.data(), in_size, MPI_INT, my_vertex, 1,
                comm_old, MPI_STATUS_IGNORE);
  return order;
}

DistGraphOrder dist_graph_order(const Settings& settings, MPI_Comm comm_old, int n, const int sources[],
                                const int degrees[], const int destinations[], const int weights[], int reorder) {
  const auto asked = wanted(comm_old, reorder, settings);
  if (!asked.yes) return {};
  // Every process may give any edges: gather them all as (from, to, weight).
  std::vector<int> mine;
  int edges = 0;
  for (int i = 0, at = 0; i < n; ++i) {
    for (int k = 0; k < degrees[i]; ++k, ++at) {
      mine.push_back(sources[i]);
      mine.push_back(destinations[at]);
      mine.push_back(weight_at(weights, at));
    }
    edges += degrees[i];
  }
  DistGraphOrder order;
  order.process_of_vertex = decide(settings, comm_old, "MPI_Dist_graph_create", edge_source(comm_old, mine));
  if (order.process_of_vertex.empty()) return order;
  int size = 0;
  PMPI_Comm_size(comm_old, &size);
  const auto new_rank_of = new_ranks(order.process_of_vertex, size);
  const bool keep = asked.edges == DistGraphEdges::processes;
  const auto rank_of = [&](int r) { return keep ? renumber(new_rank_of, r) : r; };
  // MPI_WEIGHTS_EMPTY is a weighted graph with no edges here: declared again as such.
  const bool weighted = weights != MPI_UNWEIGHTED;
  const bool empty = weights == MPI_WEIGHTS_EMPTY;
  auto& d = order.declared.data;
  d = {weighted ? TMAP_WEIGHTED | (empty ? TMAP_WEIGHTS_EMPTY : 0) : 0, n, edges};
  for (int i = 0; i < n; ++i) d.push_back(rank_of(sources[i]));
  for (int i = 0; i < n; ++i) d.push_back(degrees[i]);
  for (int k = 0; k < edges; ++k) d.push_back(rank_of(destinations[k]));
  if (weighted && !empty) d.insert(d.end(), weights, weights + edges);
  return order;
}

}  // namespace tmap::mpi

namespace {

/// The C entry points' shape: an order or nothing, never an exception.
/// `order(settings)` returns the process that plays each vertex (empty: MPI's
/// own behaviour) and fills `declared` when the caller needs it.
template <typename Order>
int c_order(const tmap_orders_settings* given, MPI_Comm comm, int* key, int** declared, Order&& order) {
  try {
    std::vector<int> data;
    const std::vector<int> process_of_vertex = order(tmap::mpi::settings_from(given), data);
    if (process_of_vertex.empty()) return 0;
    if (declared != nullptr) {
      auto* copy = static_cast<int*>(std::malloc(sizeof(int) * (data.size() + 1)));
      if (copy == nullptr) return 0;
      std::copy(data.begin(), data.end(), copy);
      *declared = copy;
    }
    *key = tmap::mpi::new_rank(comm, process_of_vertex);
    return 1;
  } catch (...) {  // nothing may escape into Open MPI
    return 0;
  }
}

}  // namespace

extern "C" int tmap_orders_cart(const tmap_orders_settings* settings, MPI_Comm comm, int ndims, const int dims[],
                                const int periods[], int reorder, int* key) {
  return c_order(settings, comm, key, nullptr, [&](const tmap::mpi::Settings& s, std::vector<int>&) {
    return tmap::mpi::cart_order(s, comm, ndims, dims, periods, reorder);
  });
}

extern "C" int tmap_orders_graph(const tmap_orders_settings* settings, MPI_Comm comm, int nnodes, const int index[],
                                 const int edges[], int reorder, int* key) {
  return c_order(settings, comm, key, nullptr, [&](const tmap::mpi::Settings& s, std::vector<int>&) {
    return tmap::mpi::graph_order(s, comm, nnodes, index, edges, reorder);
  });
}

extern "C" int tmap_orders_dist_graph(const tmap_orders_settings* settings, MPI_Comm comm, int n, const int sources[],
                                      const int degrees[], const int destinations[], const int weights[], int reorder,
                                      int* key, int** declared) {
  return c_order(settings, comm, key, declared, [&](const tmap::mpi::Settings& s, std::vector<int>& data) {
    auto order = tmap::mpi::dist_graph_order(s, comm, n, sources, degrees, destinations, weights, reorder);
    data = std::move(order.declared.data);
    return order.process_of_vertex;
  });
}

extern "C" int tmap_orders_dist_graph_adjacent(const tmap_orders_settings* settings, MPI_Comm comm, int indegree,
                                               const int sources[], const int sourceweights[], int outdegree,
                                               const int destinations[], const int destweights[], int reorder, int* key,
                                               int** declared) {
  return c_order(settings, comm, key, declared, [&](const tmap::mpi::Settings& s, std::vector<int>& data) {
    auto order = tmap::mpi::adjacent_order(s, comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, reorder);
    data = std::move(order.neighbourhood.data);
    return order.process_of_vertex;
  });
}

extern "C" void tmap_orders_free(int* declared) {
  std::free(declared);
}
