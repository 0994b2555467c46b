// libtmap-mpi's recorder inside a process: whether TMAP_RECORD is on, each
// communicator's and window's ranks translated to MPI_COMM_WORLD's (cached
// as an MPI attribute), and the file written at MPI_Finalize. The wrappers
// (pmpi_record*.cpp) call `count_*`; without TMAP_RECORD each costs one load.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "mpi/recorder.hpp"

namespace tmap::mpi::record {

/// The process's recorder, or null when TMAP_RECORD is not set (or MPI is
/// not initialised yet). The first call after MPI_Init reads the variable.
[[nodiscard]] TrafficRecorder* active() noexcept;

/// Starts recording when TMAP_RECORD is set (from MPI_Init/MPI_Init_thread,
/// after MPI's own): every process checks that PREFIX.<rank>.prof can be
/// written; when it cannot, nothing is recorded and the process says so.
void start() noexcept;

/// Writes PREFIX.<rank>.prof (whole or not at all) and stops recording;
/// called before MPI_Finalize. A file that cannot be written is said on
/// standard error: the recording was asked for.
void finish() noexcept;

/// The bytes of `count` elements of `type` (0 for an undefined size).
[[nodiscard]] std::uint64_t bytes_of(std::int64_t count, MPI_Datatype type) noexcept;

/// The world rank of `rank` in `comm` (its remote group for an
/// intercommunicator); -1 for MPI_PROC_NULL, a negative rank or a process
/// outside MPI_COMM_WORLD (spawned).
[[nodiscard]] int world_rank(MPI_Comm comm, int rank) noexcept;
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
