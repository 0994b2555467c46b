// libtmap-mpi's recorder inside a process: whether TMAP_RECORD is on, each
// communicator's and window's ranks translated to MPI_COMM_WORLD's (cached
// as an MPI attribute), and the file written at MPI_Finalize. The wrappers
// (pmpi_record*.cpp) call `count_*`; without TMAP_RECORD each costs one load.
#pragma once

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "mpi/recorder.hpp"

namespace tmap::mpi::record {

// What every counted call reads, inline (a send costs a few loads, not
// calls): set by start() before the recorder is published.
namespace hot {
struct BasicSize {
  MPI_Datatype type;
  int size;
};
inline constexpr std::size_t kMostBasicTypes = 16;
extern std::atomic<TrafficRecorder*> active;
extern std::array<BasicSize, kMostBasicTypes> basic_sizes;
extern std::size_t basic_count;
[[nodiscard]] int other_world_rank(MPI_Comm comm, int rank) noexcept;
[[nodiscard]] std::uint64_t other_bytes(std::int64_t count, MPI_Datatype type) noexcept;
}  // namespace hot

/// The process's recorder, or null when TMAP_RECORD is not set (or MPI is
/// not initialised yet).
[[nodiscard]] inline TrafficRecorder* active() noexcept {
  return hot::active.load(std::memory_order_acquire);
}

/// Starts recording when TMAP_RECORD is set (from MPI_Init/MPI_Init_thread,
/// after MPI's own): every process checks that PREFIX.<rank>.prof can be
/// written; when it cannot, nothing is recorded and the process says so.
void start() noexcept;

/// Writes PREFIX.<rank>.prof (whole or not at all) and stops recording;
/// called before MPI_Finalize. A file that cannot be written is said on
/// standard error: the recording was asked for.
void finish() noexcept;

/// The bytes of `count` elements of `type` (0 for an undefined size).
[[nodiscard]] inline std::uint64_t bytes_of(std::int64_t count, MPI_Datatype type) noexcept {
  if (count <= 0) return 0;
  for (std::size_t k = 0; k < hot::basic_count; ++k) {
    const auto& basic = hot::basic_sizes[k];
    if (basic.type == type) return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(basic.size);
  }
  return hot::other_bytes(count, type);
}

/// The world rank of `rank` in `comm` (its remote group for an
/// intercommunicator); -1 for MPI_PROC_NULL, a negative rank or a process
/// outside MPI_COMM_WORLD (spawned).
[[nodiscard]] inline int world_rank(MPI_Comm comm, int rank) noexcept {
  if (comm == MPI_COMM_WORLD) return rank >= 0 ? rank : -1;
  return hot::other_world_rank(comm, rank);
}
/// The same for a window's group (a name of its own: MPICH's handles are
/// all ints).
[[nodiscard]] int window_world_rank(MPI_Win win, int rank) noexcept;

/// One message of `count` `type`s from this process to `rank` of `comm`.
inline void count(Traffic kind, MPI_Comm comm, int rank, std::int64_t count, MPI_Datatype type) noexcept {
  if (auto* recorder = active()) recorder->add(kind, world_rank(comm, rank), bytes_of(count, type));
}

/// A one-sided message to or from `rank` of the window.
inline void count_one_sided(Traffic kind, MPI_Win win, int rank, std::int64_t count, MPI_Datatype type) noexcept {
  if (auto* recorder = active()) recorder->add(kind, window_world_rank(win, rank), bytes_of(count, type));
}

/// Persistent sends: what MPI_Start will send, kept from MPI_Send_init.
void remember_persistent(MPI_Request request, MPI_Comm comm, int rank, int count, MPI_Datatype type) noexcept;
void started(MPI_Request request) noexcept;
void forget(MPI_Request request) noexcept;

}  // namespace tmap::mpi::record
