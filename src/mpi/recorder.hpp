// What one MPI process sent, peer by peer, for TMAP_RECORD: the counts
// behind libtmap-mpi's recorder (pmpi_record.cpp), written at MPI_Finalize
// in Open MPI monitoring's format so that `-c PREFIX` reads a recording as
// it reads monitoring. No MPI here: the wrappers translate every peer to
// its rank in MPI_COMM_WORLD and hand over the bytes of one message.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace tmap::mpi {

/// Which line of monitoring's format a message is counted on.
enum class Traffic : unsigned char {
  point_to_point,  ///< E: the application's sends
  collective,      ///< C: a collective's data, per peer, as Open MPI's coll monitoring counts it
  put,             ///< S: one-sided data put (or accumulated) into the peer's window
  got,             ///< R: one-sided data got from the peer's window
};

/// The first line of every file the recorder writes, before its version,
/// rank and size: how the reader tells a recording from Open MPI's output.
inline constexpr std::string_view kRecordMarker = "# tmap-record";

class TrafficRecorder {
 public:
  /// `threads`: other threads may count at the same time (MPI_THREAD_MULTIPLE):
  /// every count is then an atomic add.
  TrafficRecorder(int world_rank, int world_size, bool threads);

  /// One message of `bytes` to world rank `peer` (out of range: ignored).
  void add(Traffic kind, int peer, std::uint64_t bytes) noexcept {
    if (peer < 0 || peer >= size_) return;
    auto* cells = counts_[static_cast<std::size_t>(kind)].cells.load(std::memory_order_acquire);
    if (cells == nullptr && (cells = allocated(kind)) == nullptr) return;
    auto& cell = cells[static_cast<std::size_t>(peer)];
    if (threads_) {
      std::atomic_ref<std::uint64_t>(cell.bytes).fetch_add(bytes, std::memory_order_relaxed);
      std::atomic_ref<std::uint64_t>(cell.messages).fetch_add(1, std::memory_order_relaxed);
    } else {
      cell.bytes += bytes;
      cell.messages += 1;
    }
  }

  /// The file's text: the marker line, then Open MPI monitoring's sections
  /// (POINT TO POINT with E lines, OSC with S and R, COLLECTIVES with C), a
  /// line per peer with traffic, tab separated as Open MPI writes them.
  [[nodiscard]] std::string monitoring_text() const;

  [[nodiscard]] int world_rank() const noexcept { return rank_; }
  [[nodiscard]] int world_size() const noexcept { return size_; }

 private:
  /// What this process sent to one peer.
  struct Cell {
    std::uint64_t bytes = 0;
    std::uint64_t messages = 0;
  };
  /// A kind's cells, a peer each, allocated at the kind's first message;
  /// `cells` is what the hot path loads.
  struct Counts {
    std::atomic<Cell*> cells{nullptr};
    std::unique_ptr<Cell[]> owned;
  };
  /// `kind`'s cells, allocated now if they are not yet; null when memory
  /// runs out (the message goes uncounted, the program runs on).
  Cell* allocated(Traffic kind) noexcept;

  int rank_;
  int size_;
  bool threads_;
  std::array<Counts, 4> counts_;
  std::mutex allocating_;
};

}  // namespace tmap::mpi
