// What one MPI process sent, peer by peer, for TMAP_RECORD: the counts
// behind libtmap-mpi's recorder (pmpi_record.cpp), written at MPI_Finalize
// in Open MPI monitoring's format so that `-c PREFIX` reads a recording as
// it reads monitoring. No MPI here: the wrappers translate every peer to
// its rank in MPI_COMM_WORLD and hand over the bytes of one message.
#pragma once

#include <array>
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
  void add(Traffic kind, int peer, std::uint64_t bytes) noexcept;

  /// The file's text: the marker line, then Open MPI monitoring's sections
  /// (POINT TO POINT with E lines, OSC with S and R, COLLECTIVES with C), a
  /// line per peer with traffic, tab separated as Open MPI writes them.
  [[nodiscard]] std::string monitoring_text() const;

  [[nodiscard]] int world_rank() const noexcept { return rank_; }
  [[nodiscard]] int world_size() const noexcept { return size_; }

 private:
  /// Bytes and messages per peer, allocated at a kind's first message.
  struct Counts {
    std::unique_ptr<std::uint64_t[]> bytes;
    std::unique_ptr<std::uint64_t[]> messages;
  };
  Counts& counts_of(Traffic kind);

  int rank_;
  int size_;
  bool threads_;
  std::array<Counts, 4> counts_;
  std::array<std::once_flag, 4> allocated_;
};

}  // namespace tmap::mpi
