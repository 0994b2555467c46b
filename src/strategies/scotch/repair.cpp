#include "strategies/scotch/repair.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "refine/rank_costs.hpp"
#include "util/int128.hpp"

namespace tmap::scotchmap {

namespace {

/// Up to this many terminals repair_on_machine keeps the distances it
/// reads, a column per partner's terminal (8 MB at most).
constexpr std::int64_t kTabulatedTerminals = 1024;

using detail::Int128;
using Distances = std::function<Distance(std::int64_t, std::int64_t)>;

class Repair {
 public:
  Repair(const CommMatrix& sym, const Terminals& terminals, std::vector<std::int64_t>& terminal_of,
         const Distances& distance, const std::function<std::vector<std::int64_t>()>& order_of,
         std::int64_t exact_pairs, std::int64_t window)
      : sym_(sym),
        terminals_(terminals),
        costs_(sym, terminal_of, distance),
        load_(static_cast<std::size_t>(terminals.size()), 0),
        best_(terminal_of.size()),
        window_(window) {
    for (const auto t : terminal_of) ++load_[static_cast<std::size_t>(t)];
    std::int64_t checked = 0;
    for (Rank r = 0; r < static_cast<Rank>(terminal_of.size()); ++r) {
      if (!overfull(costs_.place(r))) continue;
      members_[costs_.place(r)].push_back(r);
      ++checked;
    }
    for (std::int64_t t = 0; t < terminals.size(); ++t) {
      if (has_room(t)) room_.insert(t);
    }
    if (order_of && checked * static_cast<std::int64_t>(room_.size()) > exact_pairs) {
      const auto order = order_of();
      position_.assign(static_cast<std::size_t>(terminals.size()), 0);
      for (std::size_t k = 0; k < order.size(); ++k)
        position_[static_cast<std::size_t>(order[k])] = static_cast<std::int64_t>(k);
      order_.assign(order.begin(), order.end());
      for (const auto t : room_) room_by_position_.insert(position_[static_cast<std::size_t>(t)]);
    }
    for (const auto& [t, ranks] : members_) {
      for (const auto r : ranks) rescore(r);
    }
  }

  std::int64_t run(std::vector<std::int64_t>& terminal_of) {
    std::int64_t moved = 0;
    while (!queue_.empty()) {
      const auto [delta, r, to] = *queue_.begin();
      const auto from = costs_.place(r);
      costs_.move(r, to);
      --load_[static_cast<std::size_t>(from)];
      ++load_[static_cast<std::size_t>(to)];
      ++moved;
      if (!has_room(to)) close(to);
      if (has_room(from) && room_.insert(from).second && !position_.empty()) {
        room_by_position_.insert(position_[static_cast<std::size_t>(from)]);
      }
      // Who to rescore: r itself, its partners (their gains changed), the
      // ranks of `from` when it stopped being overfull (no longer
      // candidates), and those whose best target just filled.
      rescore(r);
      for (const auto partner : sym_.targets(r)) rescore(partner);
      if (!overfull(from)) {
        for (const auto rank : members_[from]) rescore(rank);
      }
      if (!has_room(to)) {
        const auto waiting = waiting_for_[static_cast<std::size_t>(to)];
        for (const auto rank : waiting) rescore(rank);
      }
    }
    terminal_of = costs_.places();
    return moved;
  }

 private:
  struct Best {
    bool queued = false;
    Int128 delta = 0;
    std::int64_t to = -1;
  };

  [[nodiscard]] bool overfull(std::int64_t t) const {
    return load_[static_cast<std::size_t>(t)] > terminals_.capacity[static_cast<std::size_t>(t)];
  }
  [[nodiscard]] bool has_room(std::int64_t t) const {
    return load_[static_cast<std::size_t>(t)] < terminals_.capacity[static_cast<std::size_t>(t)];
  }

  void close(std::int64_t t) {
    room_.erase(t);
    if (!position_.empty()) room_by_position_.erase(position_[static_cast<std::size_t>(t)]);
  }

  /// The terminals rank r may move to: all with room, or its window.
  template <typename Visit>
  void candidates(Rank r, Visit&& visit) const {
    if (position_.empty()) {
      for (const auto t : room_) visit(t);
      return;
    }
    const auto here = room_by_position_.lower_bound(position_[static_cast<std::size_t>(costs_.place(r))]);
    auto up = here;
    for (std::int64_t k = 0; k < window_ && up != room_by_position_.end(); ++k, ++up) {
      visit(order_[static_cast<std::size_t>(*up)]);
    }
    auto down = here;
    for (std::int64_t k = 0; k < window_ && down != room_by_position_.begin(); ++k) {
      --down;
      visit(order_[static_cast<std::size_t>(*down)]);
    }
  }

  void rescore(Rank r) {
    auto& best = best_[static_cast<std::size_t>(r)];
    if (best.queued) {
      queue_.erase({best.delta, r, best.to});
      auto& waiting = waiting_for_[static_cast<std::size_t>(best.to)];
      waiting.erase(std::find(waiting.begin(), waiting.end(), r));
      best.queued = false;
    }
    if (!overfull(costs_.place(r))) return;
    Int128 low = 0;
    std::int64_t to = -1;
    candidates(r, [&](std::int64_t t) {
      const Int128 delta = -costs_.move_gain(r, t);
      if (to < 0 || delta < low || (delta == low && t < to)) {
        low = delta;
        to = t;
      }
    });
    if (to < 0) return;  // no terminal with room: nothing can move
    best = Best{true, low, to};
    queue_.insert({low, r, to});
    waiting_for_[static_cast<std::size_t>(to)].push_back(r);
  }

  const CommMatrix& sym_;
  const Terminals& terminals_;
  refine::RankCosts<Distances> costs_;
  std::vector<std::int64_t> load_;
  std::vector<Best> best_;
  std::int64_t window_;
  /// Terminals with room, by index (exact mode) and by bisection position.
  std::set<std::int64_t> room_;
  std::set<std::int64_t> room_by_position_;
  std::vector<std::int64_t> position_;
  std::vector<std::int64_t> order_;
  /// Each candidate rank's best move, least loss first, then lowest rank.
  std::set<std::tuple<Int128, Rank, std::int64_t>> queue_;
  /// The ranks first found on each overfull terminal (only they can be
  /// candidates: moves go to terminals with room, which never overfill).
  std::map<std::int64_t, std::vector<Rank>> members_;
  /// The ranks whose best move goes to each terminal.
  std::map<std::int64_t, std::vector<Rank>> waiting_for_;
};

}  // namespace

std::int64_t repair_overfull(const CommMatrix& sym, const Terminals& terminals, std::vector<std::int64_t>& terminal_of,
                             const Distances& distance, const std::function<std::vector<std::int64_t>()>& order_of,
                             std::int64_t exact_pairs, std::int64_t window) {
  Repair repair(sym, terminals, terminal_of, distance, order_of, exact_pairs, window);
  return repair.run(terminal_of);
}

std::int64_t repair_on_machine(const Topology& topology, const CommMatrix& sym, const Terminals& terminals,
                               std::vector<std::int64_t>& terminal_of) {
  const auto between = [&](std::int64_t a, std::int64_t b) {
    return topology.distance(terminals.representative[static_cast<std::size_t>(a)],
                             terminals.representative[static_cast<std::size_t>(b)]);
  };
  const auto order = [&] { return bisection_order(topology, terminals); };
  if (terminals.size() > kTabulatedTerminals) return repair_overfull(sym, terminals, terminal_of, between, order);
  // Each distance asked of the machine once, when first needed: rescoring a
  // rank reads, for every terminal with room, the distance to each
  // partner's terminal, again each time a partner moves (the machine's
  // distance was 7 % of `-P quality`'s time at 4,096 random ranks on
  // Tianhe-3's 96 nodes, from here). Kept by the partner's terminal, a
  // column made when first read (filling whole columns at once cost more
  // than it saved where few terminals have room: 1,024 ranks on a torus).
  constexpr Distance kUnread = -1;
  std::vector<std::vector<Distance>> to(static_cast<std::size_t>(terminals.size()));
  return repair_overfull(
      sym, terminals, terminal_of,
      [&](std::int64_t a, std::int64_t b) {
        auto& column = to[static_cast<std::size_t>(b)];
        if (column.empty()) column.assign(static_cast<std::size_t>(terminals.size()), kUnread);
        auto& d = column[static_cast<std::size_t>(a)];
        if (d == kUnread) d = between(a, b);
        return d;
      },
      order);
}

}  // namespace tmap::scotchmap
