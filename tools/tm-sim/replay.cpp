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
  for (Rank i = 0; i < n; ++i) {
    const auto targets = bytes.targets(i);
    const auto volumes = bytes.volumes(i);
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const Rank j = targets[k];
      if (j == i || volumes[k] <= 0) continue;
      const auto count = messages_of(messages, i, j);
      sends[static_cast<std::size_t>(i)].push_back({j, volumes[k], count});
      receives[static_cast<std::size_t>(j)].push_back({i, volumes[k], count});
    }
  }
  // Receives by source (sends are by destination already: rows are sorted).
  for (auto& list : receives) {
    std::sort(list.begin(), list.end(), [](const Pair& a, const Pair& b) { return a.peer < b.peer; });
  }
  // Phases: the most messages a pair recorded (proxies/replay.c spreads
  // each pair's evenly over them).
  std::int64_t phases = 1;
  for (const auto& list : sends) {
    for (const auto& p : list) phases = std::max(phases, p.messages);
  }
  std::string sections;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) {
    const auto& out = sends[static_cast<std::size_t>(r)];
    const auto& in = receives[static_cast<std::size_t>(r)];
    offsets[static_cast<std::size_t>(r)] = sections.size();
    sections += fmt::format("{} {} {}\n", r, out.size(), in.size());
    for (const auto* list : {&out, &in}) {
      for (const auto& p : *list) sections += fmt::format("{} {} {}\n", p.peer, p.bytes, p.messages);
    }
  }
  // The index: 20 digits and a newline per rank (proxies/replay.c seeks to it).
  std::string text = fmt::format("tmap-replay 2 {} {}\n", n, phases);
  const auto base = text.size() + static_cast<std::size_t>(n) * 21;
  for (const auto offset : offsets) text += fmt::format("{:020d}\n", base + offset);
  return text + sections;
}

}  // namespace tmap::cli
