#include "replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tmap::cli {

namespace {

struct Pair {
  Rank peer;
  Volume bytes;
  std::int64_t messages;
  std::int64_t first;  ///< the first phase its messages spread over
  std::int64_t span;   ///< how many phases they spread over
};

/// Messages of pair (i, j) in `messages`' row i (1 where it has none).
std::int64_t messages_of(const CommMatrix* messages, Rank i, Rank j) {
  if (messages == nullptr || i >= messages->num_ranks()) return 1;
  const auto targets = messages->targets(i);
  const auto it = std::lower_bound(targets.begin(), targets.end(), j);
  if (it == targets.end() || *it != j) return 1;
  return std::max<std::int64_t>(1, messages->volumes(i)[static_cast<std::size_t>(it - targets.begin())]);
}

}  // namespace

std::string replay_traffic(const CommMatrix& bytes, const CommMatrix* messages) {
  const Rank n = bytes.num_ranks();
  std::vector<std::vector<Pair>> sends(static_cast<std::size_t>(n));
  std::vector<std::vector<Pair>> receives(static_cast<std::size_t>(n));
  // A pair of `traffic` sends `repeat` messages of its bytes over the `span`
  // phases from `first` (repeat 0: the messages recorded, its bytes in all).
  const auto add = [&](const CommMatrix& traffic, std::int64_t repeat, std::int64_t first, std::int64_t span) {
    for (Rank i = 0; i < n; ++i) {
      const auto targets = traffic.targets(i);
      const auto volumes = traffic.volumes(i);
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const Rank j = targets[k];
        if (j == i || volumes[k] <= 0) continue;
        const auto count = repeat > 0 ? repeat : messages_of(messages, i, j);
        const Pair pair{j, volumes[k] * std::max<std::int64_t>(repeat, 1), count, first, span};
        sends[static_cast<std::size_t>(i)].push_back(pair);
        receives[static_cast<std::size_t>(j)].push_back({i, pair.bytes, count, first, span});
      }
    }
  };
  // Phases: a traffic's own, each run `repeat` times (one message of its
  // bytes a run), one after another; else the most messages a pair
  // recorded, each pair's spread evenly over them.
  std::int64_t phases = 0;
  if (!bytes.phases().empty()) {
    for (const auto& phase : bytes.phases()) {
      add(phase.traffic, phase.repeat, phases, phase.repeat);
      phases += phase.repeat;
    }
  } else {
    phases = 1;
    for (Rank i = 0; i < n; ++i) {
      for (const Rank j : bytes.targets(i)) phases = std::max(phases, messages_of(messages, i, j));
    }
    // Messages of 0 bytes (a matrix of bytes keeps no entry for them):
    // monitoring recorded them, so they are sent too (they synchronise).
    std::vector<std::pair<Rank, Pair>> empty;
    for (Rank i = 0; messages != nullptr && i < std::min(n, messages->num_ranks()); ++i) {
      const auto targets = messages->targets(i);
      const auto counts = messages->volumes(i);
      const auto with_bytes = bytes.targets(i);
      for (std::size_t k = 0; k < targets.size(); ++k) {
        const Rank j = targets[k];
        if (j == i || j >= n || counts[k] <= 0 || std::binary_search(with_bytes.begin(), with_bytes.end(), j)) {
          continue;
        }
        phases = std::max(phases, static_cast<std::int64_t>(counts[k]));
        empty.emplace_back(i, Pair{j, 0, counts[k], 0, 0});
      }
    }
    add(bytes, 0, 0, phases);
    for (auto& [i, pair] : empty) {
      pair.span = phases;
      sends[static_cast<std::size_t>(i)].push_back(pair);
      receives[static_cast<std::size_t>(pair.peer)].push_back({i, 0, pair.messages, 0, phases});
    }
  }
  // Receives by source (sends are by destination within a phase already:
  // rows are sorted), in phase order as the sends.
  for (auto& list : sends) {  // the 0-byte pairs were appended
    std::stable_sort(list.begin(), list.end(), [](const Pair& a, const Pair& b) {
      return a.first != b.first ? a.first < b.first : a.peer < b.peer;
    });
  }
  for (auto& list : receives) {
    std::stable_sort(list.begin(), list.end(), [](const Pair& a, const Pair& b) {
      return a.first != b.first ? a.first < b.first : a.peer < b.peer;
    });
  }
  std::string sections;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) {
    const auto& out = sends[static_cast<std::size_t>(r)];
    const auto& in = receives[static_cast<std::size_t>(r)];
    offsets[static_cast<std::size_t>(r)] = sections.size();
    sections += fmt::format("{} {} {}\n", r, out.size(), in.size());
    for (const auto* list : {&out, &in}) {
      for (const auto& p : *list) {
        sections += fmt::format("{} {} {} {} {}\n", p.peer, p.bytes, p.messages, p.first, p.span);
      }
    }
  }
  // The index: 20 digits and a newline per rank (proxies/replay.c seeks to it).
  std::string text = fmt::format("tmap-replay 3 {} {}\n", n, phases);
  const auto base = text.size() + static_cast<std::size_t>(n) * 21;
  for (const auto offset : offsets) text += fmt::format("{:020d}\n", base + offset);
  return text + sections;
}

}  // namespace tmap::cli
