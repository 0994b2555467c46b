#include "distributed/ptscotch_map.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

extern "C" {
#include <scotch.h>
// PT-Scotch's header extends scotch.h, which must come first.
#include <ptscotch.h>
}

#include "strategies/scotch/face.hpp"
#include "strategies/scotch/libscotch.hpp"
#include "tmap/error.hpp"
#include "util/int128.hpp"

namespace tmap::dist {

namespace {

using detail::Int128;

struct Dgraph {
  SCOTCH_Dgraph a{};
  explicit Dgraph(MPI_Comm comm) {
    if (SCOTCH_dgraphInit(&a, comm) != 0) throw InternalError("ptscotch: SCOTCH_dgraphInit failed");
  }
  ~Dgraph() { SCOTCH_dgraphExit(&a); }
  Dgraph(const Dgraph&) = delete;
  Dgraph& operator=(const Dgraph&) = delete;
};

/// The ranks PT-Scotch put beyond a terminal's capacity move, highest
/// rank first, to the terminal with room nearest along `order`.
void repair_along_order(const scotchmap::Terminals& terminals, const std::vector<std::int64_t>& order,
                        std::vector<std::int64_t>& terminal_of) {
  const auto count = static_cast<std::size_t>(terminals.size());
  std::vector<std::int64_t> load(count, 0);
  for (const auto t : terminal_of) ++load[static_cast<std::size_t>(t)];
  std::vector<std::int64_t> position(count, 0);
  for (std::size_t k = 0; k < order.size(); ++k)
    position[static_cast<std::size_t>(order[k])] = static_cast<std::int64_t>(k);
  std::set<std::int64_t> room;  // positions of terminals with room
  for (std::size_t t = 0; t < count; ++t) {
    if (load[t] < terminals.capacity[t]) room.insert(position[t]);
  }
  for (auto r = static_cast<std::int64_t>(terminal_of.size()); r-- > 0;) {
    const auto from = terminal_of[static_cast<std::size_t>(r)];
    if (load[static_cast<std::size_t>(from)] <= terminals.capacity[static_cast<std::size_t>(from)]) continue;
    if (room.empty()) throw InternalError("ptscotch: no room left for an overfilled terminal's ranks");
    const auto here = position[static_cast<std::size_t>(from)];
    auto after = room.lower_bound(here);
    auto pick = after;
    if (after == room.end() || (after != room.begin() && here - *std::prev(after) <= *after - here)) {
      pick = std::prev(after);
    }
    const auto to = order[static_cast<std::size_t>(*pick)];
    --load[static_cast<std::size_t>(from)];
    if (++load[static_cast<std::size_t>(to)] >= terminals.capacity[static_cast<std::size_t>(to)]) room.erase(pick);
    terminal_of[static_cast<std::size_t>(r)] = to;
  }
}

}  // namespace

namespace {

/// Terminals per block: each block's own mapping uses a distance table.
constexpr std::int64_t kBlockTerminals = 256;

/// Rounds of refinement across block borders, at most.
constexpr int kHaloRounds = 4;

/// libscotch's terminals for a small graph given as (a, b, load) triples
/// over vertices 0..count-1 (both directions present).
std::vector<std::int64_t> map_small_graph(Rank count, std::vector<CommEntry> entries, const Topology& topology,
                                          const scotchmap::Terminals& target, const Context& context,
                                          scotchmap::TerminalsEffort effort) {
  const auto sym = CommMatrix::from_entries(count, std::move(entries));
  return scotchmap::map_onto_terminals(sym, topology, target, context, effort);
}

}  // namespace

Mapping map_ptscotch(MPI_Comm comm, const LocalGraph& graph, const Topology& topology, const Constraints& constraints,
                     const Context& context, HaloStats* stats) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const Rank n = graph.n;
  if (n > std::numeric_limits<SCOTCH_Num>::max() / 4) {
    throw InputError("ptscotch: the graph is too large for this libscotch's 32-bit SCOTCH_Num");
  }
  if (n > constraints.num_slots()) {
    throw InputError(std::to_string(n) + " ranks do not fit: " + std::to_string(constraints.num_slots()) + " slots");
  }
  const auto terminals = scotchmap::make_terminals(topology, constraints);
  const auto order = scotchmap::bisection_order(topology, terminals);

  // Blocks: runs of about kBlockTerminals terminals in bisection order
  // (compact regions), as even as the count allows.
  const auto t_count = terminals.size();
  const auto k = std::max<std::int64_t>(1, (t_count + kBlockTerminals - 1) / kBlockTerminals);
  if (k > scotchmap::max_mapped_terminals()) {
    throw InputError("ptscotch: " + std::to_string(t_count) + " terminals make more blocks than this strategy maps");
  }
  std::vector<std::vector<std::int64_t>> block_terminals(static_cast<std::size_t>(k));
  std::vector<SCOTCH_Num> block_capacity(static_cast<std::size_t>(k), 0);
  for (std::int64_t i = 0; i < t_count; ++i) {
    const auto b = static_cast<std::size_t>(static_cast<Int128>(i) * k / t_count);
    block_terminals[b].push_back(order[static_cast<std::size_t>(i)]);
    block_capacity[b] +=
        static_cast<SCOTCH_Num>(terminals.capacity[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);
  }

  // Level 1 (distributed): PT-Scotch cuts the graph into k parts sized as
  // the blocks (a weighted complete target: partitioning, which PT-Scotch
  // 7.0.3 does; its static mapping onto other targets is not implemented).
  long long local_total = 0;
  for (const auto v : graph.volumes) local_total += v;
  long long total = 0;
  MPI_Allreduce(&local_total, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  const Int128 scale = scotchmap::load_divisor(total);
  std::vector<SCOTCH_Num> vertloctab(graph.offsets.begin(), graph.offsets.end());
  std::vector<SCOTCH_Num> edgeloctab(graph.targets.begin(), graph.targets.end());
  std::vector<SCOTCH_Num> edloloctab(graph.volumes.size());
  std::transform(graph.volumes.begin(), graph.volumes.end(), edloloctab.begin(),
                 [&](Volume v) { return static_cast<SCOTCH_Num>(std::max<Int128>(1, (v + scale / 2) / scale)); });
  const auto local = static_cast<SCOTCH_Num>(graph.count());
  std::vector<SCOTCH_Num> parts(static_cast<std::size_t>(local) + 1, 0);
  if (k > 1) {
    Dgraph dgraph(comm);
    if (SCOTCH_dgraphBuild(&dgraph.a, 0, local, local, vertloctab.data(), nullptr, nullptr, nullptr,
                           static_cast<SCOTCH_Num>(edgeloctab.size()), static_cast<SCOTCH_Num>(edgeloctab.size()),
                           edgeloctab.data(), nullptr, edloloctab.data()) != 0) {
      throw InternalError("ptscotch: SCOTCH_dgraphBuild failed");
    }
    // A deterministic context of its own, seeded: the same parts for the
    // same input, seed and number of processes.
    scotchmap::ScotchContext scontext;
    SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    SCOTCH_contextOptionSetNum(&scontext.a, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
    if (SCOTCH_contextRandomClone(&scontext.a) != 0) throw InternalError("ptscotch: SCOTCH_contextRandomClone failed");
    SCOTCH_contextRandomSeed(&scontext.a, static_cast<SCOTCH_Num>(context.seed & 0x7fffffff));
    SCOTCH_contextThreadSpawn(&scontext.a, 1, nullptr);
    Dgraph bound(comm);
    if (SCOTCH_contextBindDgraph(&scontext.a, &dgraph.a, &bound.a) != 0) {
      throw InternalError("ptscotch: SCOTCH_contextBindDgraph failed");
    }
    scotchmap::Arch parts_arch;
    if (SCOTCH_archCmpltw(&parts_arch.a, static_cast<SCOTCH_Num>(k), block_capacity.data()) != 0) {
      throw InternalError("ptscotch: SCOTCH_archCmpltw failed");
    }
    scotchmap::Strat strat;
    if (SCOTCH_stratDgraphMapBuild(&strat.a, SCOTCH_STRATBALANCE, static_cast<SCOTCH_Num>(size),
                                   static_cast<SCOTCH_Num>(k), 0.01) != 0) {
      throw InternalError("ptscotch: SCOTCH_stratDgraphMapBuild failed");
    }
    if (SCOTCH_dgraphMap(&bound.a, &parts_arch.a, &strat.a, parts.data()) != 0) {
      throw InternalError("ptscotch: SCOTCH_dgraphMap failed");
    }
  }
  std::vector<int> counts(static_cast<std::size_t>(size));
  std::vector<int> displs(static_cast<std::size_t>(size));
  for (int p = 0; p < size; ++p) {
    displs[static_cast<std::size_t>(p)] = static_cast<int>(block_first(n, p, size));
    counts[static_cast<std::size_t>(p)] = static_cast<int>(block_first(n, p + 1, size) - block_first(n, p, size));
  }
  std::vector<SCOTCH_Num> part_of(static_cast<std::size_t>(n), 0);
  MPI_Allgatherv(parts.data(), static_cast<int>(local), MPI_INT, part_of.data(), counts.data(), displs.data(), MPI_INT,
                 comm);
  for (const auto p : part_of) {
    if (p < 0 || p >= k) throw InternalError("ptscotch: libscotch returned an unknown part");
  }

  // Level 2 (sequential, small): the parts' traffic (k vertices) mapped onto
  // the blocks, one part per block, with exact distances between blocks.
  std::map<std::pair<long long, long long>, long long> quotient;
  for (Rank v = 0; v < graph.count(); ++v) {
    const auto pu = part_of[static_cast<std::size_t>(graph.first + v)];
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto pv = part_of[static_cast<std::size_t>(graph.targets[static_cast<std::size_t>(e)])];
      if (pu != pv) quotient[{pu, pv}] += graph.volumes[static_cast<std::size_t>(e)];
    }
  }
  std::vector<long long> flat;
  for (const auto& [key, volume] : quotient) flat.insert(flat.end(), {key.first, key.second, volume});
  const auto all_quotient = all_gather(comm, flat);
  std::vector<std::int64_t> block_of_part(static_cast<std::size_t>(k), 0);
  {
    // Every process computes the same (deterministic) answer: no broadcast.
    std::vector<CommEntry> entries;
    for (std::size_t i = 0; i + 2 < all_quotient.size(); i += 3) {
      entries.push_back({all_quotient[i], all_quotient[i + 1], all_quotient[i + 2]});
    }
    scotchmap::Terminals blocks;
    for (std::int64_t b = 0; b < k; ++b) {
      const auto& mine = block_terminals[static_cast<std::size_t>(b)];
      blocks.pes.push_back({terminals.representative[static_cast<std::size_t>(mine[mine.size() / 2])]});
      blocks.capacity.push_back(1);
      blocks.representative.push_back(blocks.pes.back().front());
    }
    if (k > 1) {
      block_of_part =
          map_small_graph(k, std::move(entries), topology, blocks, context, scotchmap::TerminalsEffort::Quality);
    }
  }

  // Level 3 (sequential, per part): each part's ranks onto its block's
  // terminals, on process part % size, from the part's own edges.
  std::vector<std::vector<long long>> outgoing(static_cast<std::size_t>(size));
  for (Rank v = 0; v < graph.count(); ++v) {
    const auto u = graph.first + v;
    const auto pu = part_of[static_cast<std::size_t>(u)];
    auto& buffer = outgoing[static_cast<std::size_t>(pu % size)];
    buffer.insert(buffer.end(), {u, -1, 0});  // the vertex itself, edges or not
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto w = graph.targets[static_cast<std::size_t>(e)];
      if (part_of[static_cast<std::size_t>(w)] == pu)
        buffer.insert(buffer.end(), {u, w, graph.volumes[static_cast<std::size_t>(e)]});
    }
  }
  const auto received = send_to_owners(comm, outgoing);
  std::map<std::int64_t, std::vector<long long>> by_part;  // part -> triples
  for (std::size_t i = 0; i + 2 < received.size(); i += 3) {
    auto& triples = by_part[part_of[static_cast<std::size_t>(received[i])]];
    triples.insert(triples.end(), {received[i], received[i + 1], received[i + 2]});
  }
  std::vector<long long> placed;  // (vertex, terminal) pairs
  for (auto& [part, triples] : by_part) {
    std::vector<long long> vertices;
    for (std::size_t i = 0; i + 2 < triples.size(); i += 3) {
      if (triples[i + 1] < 0) vertices.push_back(triples[i]);
    }
    std::sort(vertices.begin(), vertices.end());
    const auto& mine = block_terminals[static_cast<std::size_t>(block_of_part[static_cast<std::size_t>(part)])];
    const auto block = scotchmap::subset(terminals, mine);
    std::vector<std::int64_t> local_terminal(vertices.size(), 0);
    if (vertices.size() > 1 && mine.size() > 1) {
      const auto index = [&](long long v) {
        return static_cast<Rank>(std::lower_bound(vertices.begin(), vertices.end(), v) - vertices.begin());
      };
      std::vector<CommEntry> entries;
      for (std::size_t i = 0; i + 2 < triples.size(); i += 3) {
        if (triples[i + 1] >= 0) entries.push_back({index(triples[i]), index(triples[i + 1]), triples[i + 2]});
      }
      local_terminal = map_small_graph(static_cast<Rank>(vertices.size()), std::move(entries), topology, block, context,
                                       scotchmap::TerminalsEffort::Portfolio);
    }
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      placed.insert(placed.end(), {vertices[i], mine[static_cast<std::size_t>(local_terminal[i])]});
    }
  }
  const auto all_placed = all_gather(comm, placed);
  std::vector<std::int64_t> terminal_of(static_cast<std::size_t>(n), -1);
  for (std::size_t i = 0; i + 1 < all_placed.size(); i += 2) {
    terminal_of[static_cast<std::size_t>(all_placed[i])] = all_placed[i + 1];
  }
  for (const auto t : terminal_of) {
    if (t < 0) throw InternalError("ptscotch: a rank was not placed");
  }
  // What a block could not hold moves along the machine (every process the same).
  repair_along_order(terminals, order, terminal_of);
  auto mapping = scotchmap::expand(terminals, terminal_of, constraints.capacity());
  const auto pes = constraints.allowed_pes();

  // Level 4: each block's ranks refined with their neighbours in other
  // blocks fixed where they are (halo_refine.hpp).
  std::vector<std::int64_t> region_of_pe(pes.size(), 0);
  for (std::int64_t b = 0; b < k; ++b) {
    for (const auto t : block_terminals[static_cast<std::size_t>(b)]) {
      for (const auto pe : terminals.pes[static_cast<std::size_t>(t)]) {
        region_of_pe[static_cast<std::size_t>(std::lower_bound(pes.begin(), pes.end(), pe) - pes.begin())] = b;
      }
    }
  }
  const auto halo = refine_across_regions(comm, graph, topology, constraints, region_of_pe, mapping, kHaloRounds);
  if (stats != nullptr) *stats = halo;
  return mapping;
}

}  // namespace tmap::dist
