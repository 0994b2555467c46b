#include "strategies/umpa/refine_mc.hpp"

#include <algorithm>

#include "strategies/umpa/refine_state.hpp"
#include "strategies/umpa/umpa.hpp"
#include "util/int128.hpp"

namespace tmap::strategies::umpa {

namespace {

/// Per-resource loads with the busiest one (a max segment tree of bytes
/// over bandwidth, ties to the lower id) and the exact bytes per kind (for
/// the average congestion).
class LinkLoads {
 public:
  explicit LinkLoads(const BottleneckModel& model)
      : model_(model),
        bytes_(static_cast<std::size_t>(model.num_resources()), 0),
        messages_(bytes_.size(), 0),
        kind_bytes_(static_cast<std::size_t>(model.num_kinds()), 0) {
    leaves_ = 1;
    while (leaves_ < static_cast<LinkId>(bytes_.size())) leaves_ *= 2;
    tree_.assign(static_cast<std::size_t>(2 * leaves_), {-1.0, -1});
  }
  void add(LinkId l, Volume bytes, std::int64_t messages) {
    const auto i = static_cast<std::size_t>(l);
    if (messages_[i] == 0 && messages > 0) ++used_;
    bytes_[i] += bytes;
    messages_[i] += messages;
    if (messages_[i] == 0) --used_;
    kind_bytes_[static_cast<std::size_t>(model_.kind(l))] += bytes;
    auto node = static_cast<std::size_t>(leaves_ + l);
    tree_[node] = {messages_[i] > 0 ? static_cast<double>(bytes_[i]) / model_.bandwidth(l) : -1.0, l};
    for (node /= 2; node >= 1; node /= 2) {
      const auto& a = tree_[2 * node];
      const auto& b = tree_[2 * node + 1];
      tree_[node] = (b.first > a.first) ? b : a;
    }
  }
  [[nodiscard]] double max_congestion() const { return std::max(tree_[1].first, 0.0); }
  [[nodiscard]] LinkId most_congested() const { return tree_[1].second; }
  [[nodiscard]] double average_congestion() const {
    if (used_ == 0) return 0.0;
    double sum = 0.0;
    for (std::size_t k = 0; k < kind_bytes_.size(); ++k) {
      sum += static_cast<double>(kind_bytes_[k]) / model_.bandwidth_of_kind(static_cast<int>(k));
    }
    return sum / static_cast<double>(used_);
  }

 private:
  const BottleneckModel& model_;
  std::vector<Volume> bytes_;
  std::vector<std::int64_t> messages_;
  std::vector<detail::Int128> kind_bytes_;
  std::int64_t used_ = 0;
  LinkId leaves_ = 1;
  std::vector<std::pair<double, LinkId>> tree_;
};

struct Message {
  Rank from, to;
  Volume bytes;
};

}  // namespace

McResult refine_congestion(const CommMatrix& comm, const CommMatrix& sym, const SiteSpace& sites,
                           const BottleneckModel& model, std::vector<Site>& site_of, const McOptions& options) {
  const Rank n = comm.num_ranks();
  std::vector<Message> messages;
  std::vector<std::vector<std::int64_t>> of_rank(static_cast<std::size_t>(n));
  for (Rank i = 0; i < n; ++i) {
    const auto cols = comm.targets(i);
    const auto vols = comm.volumes(i);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      of_rank[static_cast<std::size_t>(i)].push_back(static_cast<std::int64_t>(messages.size()));
      of_rank[static_cast<std::size_t>(cols[k])].push_back(static_cast<std::int64_t>(messages.size()));
      messages.push_back({i, cols[k], vols[k]});
    }
  }
  RefineState state(sym, sites, site_of);
  LinkLoads loads(model);
  std::vector<std::vector<LinkId>> routes(messages.size());
  const auto route_of = [&](const Message& m, std::vector<LinkId>& out) {
    out.clear();
    model.resources(sites.representative(state.site_of(m.from)), sites.representative(state.site_of(m.to)), out);
  };
  for (std::size_t m = 0; m < messages.size(); ++m) {
    route_of(messages[m], routes[m]);
    for (const auto l : routes[m]) loads.add(l, messages[m].bytes, 1);
  }
  McResult result;
  result.mc_before = loads.max_congestion();
  result.ac_before = loads.average_congestion();
  std::vector<std::int64_t> stamp(messages.size(), -1);
  std::vector<std::int64_t> affected;
  std::vector<std::vector<LinkId>> fresh;
  // Reroutes the messages of t and c's rank after a change of their sites.
  const auto reroute = [&](Rank t, Rank u, std::int64_t round) {
    affected.clear();
    for (const Rank r : {t, u}) {
      if (r < 0) continue;
      for (const auto m : of_rank[static_cast<std::size_t>(r)]) {
        if (stamp[static_cast<std::size_t>(m)] != round) {
          stamp[static_cast<std::size_t>(m)] = round;
          affected.push_back(m);
        }
      }
    }
    fresh.resize(affected.size());
    for (std::size_t k = 0; k < affected.size(); ++k) {
      const auto m = static_cast<std::size_t>(affected[k]);
      for (const auto l : routes[m]) loads.add(l, -messages[m].bytes, -1);
      route_of(messages[m], fresh[k]);
      for (const auto l : fresh[k]) loads.add(l, messages[m].bytes, 1);
      std::swap(routes[m], fresh[k]);
    }
  };
  std::int64_t round = 0;
  constexpr std::size_t kMaxTasks = 64;
  constexpr std::size_t kCrossTasks = 16;
  // Accepted swaps: at most n; and the search ends once MC has not dropped
  // for n / 4 + 16 swaps that only lowered AC (each costs a scan).
  const std::int64_t max_swaps = options.max_swaps >= 0 ? options.max_swaps : n + 16;
  const std::int64_t max_stall = n / 4 + 16;
  std::int64_t stall = 0;
  // commTasks[hot]: the messages through the hottest link, kept up to date
  // while the hottest link stays the same (only rerouted messages change).
  LinkId hot = -1;
  std::vector<char> through_hot(messages.size(), 0);
  std::vector<std::int64_t> hot_messages;  ///< every message through it (and some that left)
  std::vector<char> listed(messages.size(), 0);
  const auto crosses = [&](std::size_t m, LinkId link) {
    return std::find(routes[m].begin(), routes[m].end(), link) != routes[m].end();
  };
  while (result.swaps < max_swaps && stall < max_stall) {
    const double mc = loads.max_congestion();
    const double ac = loads.average_congestion();
    if (mc <= 0.0) break;
    if (loads.most_congested() != hot) {
      hot = loads.most_congested();
      hot_messages.clear();
      for (std::size_t m = 0; m < messages.size(); ++m) {
        through_hot[m] = crosses(m, hot) ? 1 : 0;
        listed[m] = through_hot[m];
        if (through_hot[m]) hot_messages.push_back(static_cast<std::int64_t>(m));
      }
    }
    // The tasks by the bytes they put on the hottest link (most first, then
    // lower id); the kMaxTasks heaviest are tried.
    std::vector<std::pair<Volume, Rank>> load_of;
    for (const auto m : hot_messages) {
      const auto& msg = messages[static_cast<std::size_t>(m)];
      if (!through_hot[static_cast<std::size_t>(m)]) continue;
      load_of.emplace_back(msg.bytes, msg.from);
      load_of.emplace_back(msg.bytes, msg.to);
    }
    std::sort(load_of.begin(), load_of.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<std::pair<Volume, Rank>> per_task;  // (-bytes, rank)
    for (const auto& [bytes, r] : load_of) {
      if (!per_task.empty() && per_task.back().second == r) {
        per_task.back().first -= bytes;
      } else {
        per_task.emplace_back(-bytes, r);
      }
    }
    std::sort(per_task.begin(), per_task.end());
    std::vector<Rank> tasks;
    for (std::size_t k = 0; k < per_task.size() && k < kMaxTasks; ++k) tasks.push_back(per_task[k].second);
    bool improved = false;
    for (const Rank t : tasks) {
      auto tries = state.candidates(t, kDelta);
      if (options.cross_swaps) {
        // The other heavy tasks of the busiest link: where t's partners
        // sit across the link from t and theirs across from them, their
        // swap takes both off it (the paper's list holds only sites near
        // t's partners, which on a cut such as Tianhe-3's side link are
        // the partners' own node).
        for (std::size_t k = 0; k < tasks.size() && k < kCrossTasks; ++k) {
          if (tasks[k] != t && state.site_of(tasks[k]) != state.site_of(t)) {
            tries.push_back({tasks[k], state.site_of(tasks[k])});
          }
        }
      }
      for (const auto& c : tries) {
        const Site from = state.site_of(t);
        const auto hop_bytes_change = options.tiebreak == Tiebreak::HopBytes ? state.delta(t, c) : 0;
        state.apply(t, c);
        reroute(t, c.rank, round++);
        const double new_mc = loads.max_congestion();
        const bool tie_better =
            options.tiebreak == Tiebreak::HopBytes ? hop_bytes_change < 0 : loads.average_congestion() < ac;
        if (new_mc < mc || (new_mc == mc && tie_better)) {
          improved = true;
          stall = new_mc < mc ? 0 : stall + 1;
          break;
        }
        // Undo: a swap is its own inverse; a move goes back to its site.
        state.apply(t, c.rank < 0 ? Candidate{-1, from} : c);
        reroute(t, c.rank, round++);
      }
      if (improved) break;
    }
    if (!improved) break;
    ++result.swaps;
    // The rerouted messages may have joined or left the hottest link.
    for (const auto m : affected) {
      const auto i = static_cast<std::size_t>(m);
      const char now = crosses(i, hot) ? 1 : 0;
      if (now && !listed[i]) {
        listed[i] = 1;
        hot_messages.push_back(m);
      }
      through_hot[i] = now;
    }
  }
  result.mc_after = loads.max_congestion();
  result.ac_after = loads.average_congestion();
  site_of = state.site_of_rank();
  return result;
}

}  // namespace tmap::strategies::umpa
