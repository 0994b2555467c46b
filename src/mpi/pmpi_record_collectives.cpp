// libtmap-mpi's recorder (TMAP_RECORD): collectives, blocking, nonblocking
// and neighbourhood, counted on C lines exactly as Open MPI's coll
// monitoring counts them, so that a recording and monitoring's output
// agree (tests/mpi/recording.sh checks it against the real thing): the
// data a collective moves, between each pair of processes, whatever
// algorithm the MPI library runs underneath (its messages are hidden from
// the profiling interface). A root counts its buffer to every other process
// (bcast, scatter(v); reduce and gather(v) too: monitoring counts a rooted
// collective at its root, the direction of no consequence to a mapping);
// an allreduce, allgather or alltoall counts this process's part to every
// other; a scan to every higher rank; a barrier a message of 0 bytes to
// every other; a neighbourhood collective its block to each out-neighbour.
// Intercommunicators' collectives are not counted.
#include <mpi.h>

#include <vector>

#include "mpi/record_state.hpp"

using tmap::mpi::Traffic;
namespace record = tmap::mpi::record;

namespace {

/// This process in an intracommunicator that is being recorded.
struct Member {
  tmap::mpi::TrafficRecorder* recorder = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  int me = 0;
  int size = 0;

  explicit operator bool() const { return recorder != nullptr; }
  void to(int rank, std::uint64_t bytes) const {
    if (rank != me) recorder->add(Traffic::collective, record::world_rank(comm, rank), bytes);
  }
  void to_every_other(std::uint64_t bytes) const {
    for (int r = 0; r < size; ++r) to(r, bytes);
  }
};

/// `comm`'s member when the call succeeded and recording is on.
Member member(int rc, MPI_Comm comm) {
  Member m;
  auto* recorder = record::active();
  if (rc != MPI_SUCCESS || recorder == nullptr || comm == MPI_COMM_NULL) return m;
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return m;
  PMPI_Comm_rank(comm, &m.me);
  PMPI_Comm_size(comm, &m.size);
  m.comm = comm;
  m.recorder = recorder;
  return m;
}

std::uint64_t bytes(int count, MPI_Datatype type) {
  return record::bytes_of(count, type);
}

bool in_place(const void* sendbuf) {
  return sendbuf == MPI_IN_PLACE;
}

/// The ranks a neighbourhood collective sends to, in its order: a Cartesian
/// grid's -1 then +1 neighbour of each dimension (MPI_PROC_NULL kept, as
/// its block is), a graph's neighbours, a dist graph's destinations.
std::vector<int> out_neighbours(MPI_Comm comm) {
  int kind = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &kind);
  std::vector<int> out;
  if (kind == MPI_CART) {
    int dims = 0;
    PMPI_Cartdim_get(comm, &dims);
    for (int d = 0; d < dims; ++d) {
      int below = MPI_PROC_NULL;
      int above = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &below, &above);
      out.push_back(below);
      out.push_back(above);
    }
  } else if (kind == MPI_GRAPH) {
    int me = 0;
    int count = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Graph_neighbors_count(comm, me, &count);
    out.resize(static_cast<std::size_t>(count));
    PMPI_Graph_neighbors(comm, me, count, out.data());
  } else if (kind == MPI_DIST_GRAPH) {
    int in = 0;
    int outdegree = 0;
    int weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &outdegree, &weighted);
    std::vector<int> sources(static_cast<std::size_t>(in) + 1);
    std::vector<int> source_weights(static_cast<std::size_t>(in) + 1);
    out.resize(static_cast<std::size_t>(outdegree) + 1);
    std::vector<int> out_weights(static_cast<std::size_t>(outdegree) + 1);
    PMPI_Dist_graph_neighbors(comm, in, sources.data(), source_weights.data(), outdegree, out.data(),
                              out_weights.data());
    out.resize(static_cast<std::size_t>(outdegree));
  }
  return out;
}

// What each collective sends, counted once MPI's call has succeeded; the
// blocking and nonblocking wrappers below share them.
void barrier(const Member& m) {
  if (m) m.to_every_other(0);
}
/// A rooted collective: the root's count to every other process.
void bcast(const Member& m, int count, MPI_Datatype type, int root) {
  if (m && m.me == root) m.to_every_other(bytes(count, type));
}
void allreduce(const Member& m, int count, MPI_Datatype type) {
  if (m) m.to_every_other(bytes(count, type));
}
/// The same, a count for each process.
void scatterv(const Member& m, const int* counts, MPI_Datatype type, int root) {
  if (!m || m.me != root) return;
  for (int r = 0; r < m.size; ++r) m.to(r, bytes(counts[r], type));
}
void scan(const Member& m, int count, MPI_Datatype type) {
  if (!m) return;
  for (int r = m.me + 1; r < m.size; ++r) m.to(r, bytes(count, type));
}
void per_peer(const Member& m, const int* counts, MPI_Datatype type) {
  if (!m) return;
  for (int r = 0; r < m.size; ++r) m.to(r, bytes(counts[r], type));
}
void per_peer_typed(const Member& m, const int* counts, const MPI_Datatype* types) {
  if (!m) return;
  for (int r = 0; r < m.size; ++r) m.to(r, bytes(counts[r], types[r]));
}
void neighbours(const Member& m, int count, MPI_Datatype type) {
  if (!m) return;
  for (const int r : out_neighbours(m.comm)) m.to(r, bytes(count, type));
}
void neighbours_v(const Member& m, const int* counts, MPI_Datatype type) {
  if (!m) return;
  const auto out = out_neighbours(m.comm);
  for (std::size_t k = 0; k < out.size(); ++k) m.to(out[k], bytes(counts[k], type));
}
void neighbours_w(const Member& m, const int* counts, const MPI_Datatype* types) {
  if (!m) return;
  const auto out = out_neighbours(m.comm);
  for (std::size_t k = 0; k < out.size(); ++k) m.to(out[k], bytes(counts[k], types[k]));
}

}  // namespace

// Exported (the library is built hidden): these are what LD_PRELOAD puts
// in front of MPI's own.
#pragma GCC visibility push(default)
extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  const int rc = PMPI_Barrier(comm);
  barrier(member(rc, comm));
  return rc;
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ibarrier(comm, req);
  barrier(member(rc, comm));
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const int rc = PMPI_Bcast(buf, count, type, root, comm);
  bcast(member(rc, comm), count, type, root);
  return rc;
}
int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ibcast(buf, count, type, root, comm, req);
  bcast(member(rc, comm), count, type, root);
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  const int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  bcast(member(rc, comm), count, type, root);
  return rc;
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* req) {
  const int rc = PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, req);
  bcast(member(rc, comm), count, type, root);
  return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  allreduce(member(rc, comm), count, type);
  return rc;
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* req) {
  const int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, req);
  allreduce(member(rc, comm), count, type);
  return rc;
}

int MPI_Gather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
               int root, MPI_Comm comm) {
  const int rc = PMPI_Gather(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
  bcast(member(rc, comm), rcount, rtype, root);
  return rc;
}
int MPI_Igather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                int root, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Igather(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm, req);
  bcast(member(rc, comm), rcount, rtype, root);
  return rc;
}
int MPI_Gatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  const int rc = PMPI_Gatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root, comm);
  scatterv(member(rc, comm), rcounts, rtype, root);
  return rc;
}
int MPI_Igatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Igatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root, comm, req);
  scatterv(member(rc, comm), rcounts, rtype, root);
  return rc;
}

int MPI_Scatter(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                int root, MPI_Comm comm) {
  const int rc = PMPI_Scatter(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
  bcast(member(rc, comm), scount, stype, root);
  return rc;
}
int MPI_Iscatter(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                 int root, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Iscatter(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm, req);
  bcast(member(rc, comm), scount, stype, root);
  return rc;
}
int MPI_Scatterv(const void* sendbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* recvbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  const int rc = PMPI_Scatterv(sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root, comm);
  scatterv(member(rc, comm), scounts, stype, root);
  return rc;
}
int MPI_Iscatterv(const void* sendbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* recvbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Iscatterv(sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root, comm, req);
  scatterv(member(rc, comm), scounts, stype, root);
  return rc;
}

// MPI_IN_PLACE: this process's part is in the receive buffer.
int MPI_Allgather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm) {
  const int rc = PMPI_Allgather(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);
  in_place(sendbuf) ? allreduce(member(rc, comm), rcount, rtype) : allreduce(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Iallgather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Iallgather(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, req);
  in_place(sendbuf) ? allreduce(member(rc, comm), rcount, rtype) : allreduce(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Allgatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Allgatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm);
  const auto m = member(rc, comm);
  if (m) in_place(sendbuf) ? allreduce(m, rcounts[m.me], rtype) : allreduce(m, scount, stype);
  return rc;
}
int MPI_Iallgatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Iallgatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm, req);
  const auto m = member(rc, comm);
  if (m) in_place(sendbuf) ? allreduce(m, rcounts[m.me], rtype) : allreduce(m, scount, stype);
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  const int rc = PMPI_Alltoall(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);
  in_place(sendbuf) ? allreduce(member(rc, comm), rcount, rtype) : allreduce(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Ialltoall(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ialltoall(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, req);
  in_place(sendbuf) ? allreduce(member(rc, comm), rcount, rtype) : allreduce(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Alltoallv(const void* sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* recvbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Alltoallv(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, comm);
  in_place(sendbuf) ? per_peer(member(rc, comm), rcounts, rtype) : per_peer(member(rc, comm), scounts, stype);
  return rc;
}
int MPI_Ialltoallv(const void* sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* recvbuf,
                   const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ialltoallv(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, comm, req);
  in_place(sendbuf) ? per_peer(member(rc, comm), rcounts, rtype) : per_peer(member(rc, comm), scounts, stype);
  return rc;
}
int MPI_Alltoallw(const void* sendbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                  void* recvbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm) {
  const int rc = PMPI_Alltoallw(sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes, comm);
  in_place(sendbuf) ? per_peer_typed(member(rc, comm), rcounts, rtypes)
                    : per_peer_typed(member(rc, comm), scounts, stypes);
  return rc;
}
int MPI_Ialltoallw(const void* sendbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                   void* recvbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request* req) {
  const int rc = PMPI_Ialltoallw(sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes, comm, req);
  in_place(sendbuf) ? per_peer_typed(member(rc, comm), rcounts, rtypes)
                    : per_peer_typed(member(rc, comm), scounts, stypes);
  return rc;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  const int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, rcounts, type, op, comm);
  per_peer(member(rc, comm), rcounts, type);
  return rc;
}
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, rcounts, type, op, comm, req);
  per_peer(member(rc, comm), rcounts, type);
  return rc;
}
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int rcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  const int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, rcount, type, op, comm);
  allreduce(member(rc, comm), rcount, type);
  return rc;
}
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int rcount, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, rcount, type, op, comm, req);
  allreduce(member(rc, comm), rcount, type);
  return rc;
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  scan(member(rc, comm), count, type);
  return rc;
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              MPI_Request* req) {
  const int rc = PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, req);
  scan(member(rc, comm), count, type);
  return rc;
}
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  scan(member(rc, comm), count, type);
  return rc;
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* req) {
  const int rc = PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, req);
  scan(member(rc, comm), count, type);
  return rc;
}

// Neighbourhood collectives: this process's block to each out-neighbour.
int MPI_Neighbor_allgather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Neighbor_allgather(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Ineighbor_allgather(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ineighbor_allgather(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, req);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Neighbor_allgatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                            const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Neighbor_allgatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Ineighbor_allgatherv(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, const int rcounts[],
                             const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ineighbor_allgatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm, req);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Neighbor_alltoall(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Neighbor_alltoall(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Ineighbor_alltoall(const void* sendbuf, int scount, MPI_Datatype stype, void* recvbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  const int rc = PMPI_Ineighbor_alltoall(sendbuf, scount, stype, recvbuf, rcount, rtype, comm, req);
  neighbours(member(rc, comm), scount, stype);
  return rc;
}
int MPI_Neighbor_alltoallv(const void* sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                           void* recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  const int rc = PMPI_Neighbor_alltoallv(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, comm);
  neighbours_v(member(rc, comm), scounts, stype);
  return rc;
}
int MPI_Ineighbor_alltoallv(const void* sendbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                            void* recvbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request* req) {
  const int rc =
      PMPI_Ineighbor_alltoallv(sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, comm, req);
  neighbours_v(member(rc, comm), scounts, stype);
  return rc;
}
int MPI_Neighbor_alltoallw(const void* sendbuf, const int scounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype stypes[], void* recvbuf, const int rcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype rtypes[], MPI_Comm comm) {
  const int rc = PMPI_Neighbor_alltoallw(sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes, comm);
  neighbours_w(member(rc, comm), scounts, stypes);
  return rc;
}
int MPI_Ineighbor_alltoallw(const void* sendbuf, const int scounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype stypes[], void* recvbuf, const int rcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request* req) {
  const int rc =
      PMPI_Ineighbor_alltoallw(sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes, comm, req);
  neighbours_w(member(rc, comm), scounts, stypes);
  return rc;
}

}  // extern "C"
#pragma GCC visibility pop
