#include "mpi/recorder.hpp"

#include <fmt/format.h>

#include <atomic>
#include <iterator>

namespace tmap::mpi {

TrafficRecorder::TrafficRecorder(int world_rank, int world_size, bool threads)
    : rank_(world_rank), size_(world_size), threads_(threads) {}

TrafficRecorder::Cell* TrafficRecorder::allocated(Traffic kind) noexcept {
  auto& counts = counts_[static_cast<std::size_t>(kind)];
  if (auto* cells = counts.cells.load(std::memory_order_acquire)) return cells;
  try {
    // A kind's first messages may come from several threads.
    const std::lock_guard lock(allocating_);
    if (!counts.owned) {
      counts.owned = std::make_unique<Cell[]>(static_cast<std::size_t>(size_));
      counts.cells.store(counts.owned.get(), std::memory_order_release);
    }
    return counts.owned.get();
  } catch (...) {
    return nullptr;
  }
}

std::string TrafficRecorder::monitoring_text() const {
  std::string text;
  auto out = std::back_inserter(text);
  fmt::format_to(out, "{} version=1 rank={} size={} collectives=C\n", kRecordMarker, rank_, size_);
  const auto lines = [&](Traffic kind, char letter, std::string_view verb) {
    const auto& cells = counts_[static_cast<std::size_t>(kind)].owned;
    if (!cells) return;
    for (int peer = 0; peer < size_; ++peer) {
      const auto& cell = cells[static_cast<std::size_t>(peer)];
      if (cell.messages == 0) continue;
      fmt::format_to(out, "{}\t{}\t{}\t{} bytes\t{} msgs {}\n", letter, rank_, peer, cell.bytes, cell.messages, verb);
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
