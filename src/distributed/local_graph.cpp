#include "distributed/local_graph.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap::dist {

namespace {

using detail::Int128;

/// Each process's displacement in a gathered buffer: the counts before it.
std::vector<int> exclusive_sums(const std::vector<int>& counts) {
  std::vector<int> sums(counts.size(), 0);
  for (std::size_t p = 1; p < counts.size(); ++p) sums[p] = sums[p - 1] + counts[p - 1];
  return sums;
}

}  // namespace

std::vector<long long> send_to_owners(MPI_Comm comm, const std::vector<std::vector<long long>>& outgoing) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<int> send_counts(static_cast<std::size_t>(size));
  std::vector<int> send_displs(static_cast<std::size_t>(size));
  std::vector<long long> send;
  for (int p = 0; p < size; ++p) {
    send_displs[static_cast<std::size_t>(p)] = static_cast<int>(send.size());
    send_counts[static_cast<std::size_t>(p)] = static_cast<int>(outgoing[static_cast<std::size_t>(p)].size());
    send.insert(send.end(), outgoing[static_cast<std::size_t>(p)].begin(), outgoing[static_cast<std::size_t>(p)].end());
  }
  std::vector<int> recv_counts(static_cast<std::size_t>(size));
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  const auto recv_displs = exclusive_sums(recv_counts);
  std::vector<long long> recv(static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_LONG_LONG, recv.data(), recv_counts.data(),
                recv_displs.data(), MPI_LONG_LONG, comm);
  return recv;
}

std::vector<long long> all_gather(MPI_Comm comm, const std::vector<long long>& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  const auto displs = exclusive_sums(counts);
  std::vector<long long> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_LONG_LONG, all.data(), counts.data(), displs.data(), MPI_LONG_LONG, comm);
  return all;
}

Rank block_first(Rank n, int rank, int size) {
  return static_cast<Rank>((static_cast<Int128>(n) * rank) / size);
}

LocalGraph local_graph_from_entries(MPI_Comm comm, Rank n, const std::vector<CommEntry>& entries) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<Rank> firsts(static_cast<std::size_t>(size) + 1);
  for (int p = 0; p <= size; ++p) firsts[static_cast<std::size_t>(p)] = block_first(n, p, size);
  const auto owner = [&](long long v) {
    return static_cast<int>(std::upper_bound(firsts.begin(), firsts.end(), v) - firsts.begin()) - 1;
  };
  std::vector<std::vector<long long>> outgoing(static_cast<std::size_t>(size));
  for (const auto& e : entries) {
    for (const auto& [a, b] : {std::pair{e.from, e.to}, std::pair{e.to, e.from}}) {
      auto& buffer = outgoing[static_cast<std::size_t>(owner(a))];
      buffer.insert(buffer.end(), {a, b, e.bytes});
    }
  }
  const auto recv = send_to_owners(comm, outgoing);

  // Rows of this block, repeated pairs summed.
  std::vector<std::tuple<long long, long long, long long>> rows;
  for (std::size_t k = 0; k + 2 < recv.size(); k += 3) rows.emplace_back(recv[k], recv[k + 1], recv[k + 2]);
  std::sort(rows.begin(), rows.end());
  LocalGraph graph;
  graph.n = n;
  graph.first = firsts[static_cast<std::size_t>(rank)];
  const auto count = firsts[static_cast<std::size_t>(rank) + 1] - graph.first;
  graph.offsets.assign(static_cast<std::size_t>(count) + 1, 0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto [a, b, v] = rows[k];
    if (k > 0 && std::get<0>(rows[k - 1]) == a && std::get<1>(rows[k - 1]) == b) {
      graph.volumes.back() += v;
      continue;
    }
    graph.targets.push_back(b);
    graph.volumes.push_back(v);
    ++graph.offsets[static_cast<std::size_t>(a - graph.first) + 1];
  }
  for (std::size_t v = 0; v < static_cast<std::size_t>(count); ++v) graph.offsets[v + 1] += graph.offsets[v];
  return graph;
}

std::int64_t distributed_hop_bytes(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                   const Mapping& mapping) {
  Int128 sum = 0;
  for (Rank v = 0; v < graph.count(); ++v) {
    const auto pe = mapping[static_cast<std::size_t>(graph.first + v)];
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      sum += static_cast<Int128>(graph.volumes[static_cast<std::size_t>(e)]) *
             topology.distance(pe, mapping[static_cast<std::size_t>(graph.targets[static_cast<std::size_t>(e)])]);
    }
  }
  // Each pair is counted from both ends with the symmetrised volume.
  auto local = static_cast<long long>(sum);
  long long total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return total / 2;
}

}  // namespace tmap::dist
