#include "mpi/recorder.hpp"

#include <fmt/format.h>

#include <atomic>
#include <iterator>

namespace tmap::mpi {

TrafficRecorder::TrafficRecorder(int world_rank, int world_size, bool threads)
    : rank_(world_rank), size_(world_size), threads_(threads) {}

TrafficRecorder::Counts& TrafficRecorder::counts_of(Traffic kind) {
  const auto k = static_cast<std::size_t>(kind);
  // call_once: a kind's first messages may come from several threads.
  std::call_once(allocated_[k], [&] {
    const auto n = static_cast<std::size_t>(size_);
    counts_[k].bytes = std::make_unique<std::uint64_t[]>(n);
    counts_[k].messages = std::make_unique<std::uint64_t[]>(n);
  });
  return counts_[k];
}

void TrafficRecorder::add(Traffic kind, int peer, std::uint64_t bytes) noexcept {
  if (peer < 0 || peer >= size_) return;
  Counts* counts = nullptr;
  try {
    counts = &counts_of(kind);
  } catch (...) {  // out of memory: the message goes uncounted, the program runs on
    return;
  }
  const auto at = static_cast<std::size_t>(peer);
  if (threads_) {
    std::atomic_ref<std::uint64_t>(counts->bytes[at]).fetch_add(bytes, std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(counts->messages[at]).fetch_add(1, std::memory_order_relaxed);
  } else {
    counts->bytes[at] += bytes;
    counts->messages[at] += 1;
  }
}

std::string TrafficRecorder::monitoring_text() const {
  std::string text;
  auto out = std::back_inserter(text);
  fmt::format_to(out, "{} version=1 rank={} size={} collectives=C\n", kRecordMarker, rank_, size_);
  const auto lines = [&](Traffic kind, char letter, std::string_view verb) {
    const auto& counts = counts_[static_cast<std::size_t>(kind)];
    if (!counts.bytes) return;
    for (int peer = 0; peer < size_; ++peer) {
      const auto at = static_cast<std::size_t>(peer);
      if (counts.messages[at] == 0) continue;
      fmt::format_to(out, "{}\t{}\t{}\t{} bytes\t{} msgs {}\n", letter, rank_, peer, counts.bytes[at],
                     counts.messages[at], verb);
    }
  };
  text += "# POINT TO POINT\n";
  lines(Traffic::point_to_point, 'E', "sent");
  text += "# OSC\n";
  lines(Traffic::put, 'S', "sent");
  lines(Traffic::got, 'R', "received");
  text += "# COLLECTIVES\n";
  lines(Traffic::collective, 'C', "sent");
  return text;
}

}  // namespace tmap::mpi
