#include "mpi/record_state.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "tmap/error.hpp"
#include "util/file.hpp"
#include "util/launch_rank.hpp"

namespace tmap::mpi::record {

namespace {

/// A communicator's or window's ranks as MPI_COMM_WORLD's (-1: outside it).
using WorldRanks = std::vector<int>;

/// What a persistent send sends at each MPI_Start.
struct Persistent {
  int peer;
  std::uint64_t bytes;
};

/// The recording of this process. Never destroyed: MPI may call into the
/// wrappers from its own exit handlers.
struct State {
  std::unique_ptr<TrafficRecorder> recorder;
  std::string path;  ///< PREFIX.<rank>.prof
  int verbose = 0;
  MPI_Group world_group = MPI_GROUP_NULL;
  int comm_key = MPI_KEYVAL_INVALID;
  int win_key = MPI_KEYVAL_INVALID;
  std::mutex translating;  ///< one thread builds a missing translation
  std::mutex persistent_lock;
  std::unordered_map<MPI_Request, Persistent> persistent;
};

State& state() {
  static auto* const kState = new State;
  return *kState;
}

/// MPI_Init reached the recorder (recording or saying why not).
std::atomic<bool> g_reached{false};

/// Whether the launcher numbers this process 0 (Open MPI, Hydra/PMI,
/// PMIx, Slurm, ...), so that one process speaks for all.
bool launched_first() {
  try {
    return detail::launch_rank().rank == 0;
  } catch (const std::exception&) {  // a variable that is not a rank: not the first
    return false;
  }
}

/// TMAP_RECORD set but MPI_Init never came through the library (Open MPI's
/// Fortran bindings and MPICH's `use mpi_f08` call MPI's internals): said
/// at exit, once, rather than leaving the user to find no files.
void said_if_never_reached() {
  if (g_reached.load() || !launched_first()) return;
  std::fprintf(stderr,
               "tmap: TMAP_RECORD is set but MPI_Init never reached libtmap-mpi, so nothing was recorded: the "
               "program's MPI calls bypass the C library (Open MPI's Fortran bindings, MPICH's `use mpi_f08`); "
               "record such programs with Open MPI's monitoring, or build them with `use mpi` under MPICH\n");
}

__attribute__((constructor)) void watch_for_mpi_init() {
  const char* prefix = std::getenv("TMAP_RECORD");
  if (prefix != nullptr && *prefix != '\0') std::atexit(said_if_never_reached);
}

int free_comm_ranks(MPI_Comm, int, void* value, void*) {
  delete static_cast<WorldRanks*>(value);
  return MPI_SUCCESS;
}

int free_win_ranks(MPI_Win, int, void* value, void*) {
  delete static_cast<WorldRanks*>(value);
  return MPI_SUCCESS;
}

/// `group`'s ranks in MPI_COMM_WORLD (the group is freed).
WorldRanks translated(MPI_Group group) {
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  WorldRanks world(ranks.size(), -1);
  PMPI_Group_translate_ranks(group, n, ranks.data(), state().world_group, world.data());
  for (auto& r : world) {
    if (r == MPI_UNDEFINED) r = -1;
  }
  PMPI_Group_free(&group);
  return world;
}

/// The translation cached on an MPI object (communicator or window) under
/// `key`, made by `make` (the object's group) the first time.
template <typename Object, typename Get, typename Set, typename MakeGroup>
const WorldRanks* cached(Object object, int key, Get get, Set set, MakeGroup make_group) {
  void* value = nullptr;
  int found = 0;
  if (get(object, key, &value, &found) == MPI_SUCCESS && found) return static_cast<WorldRanks*>(value);
  std::lock_guard lock(state().translating);
  if (get(object, key, &value, &found) == MPI_SUCCESS && found) return static_cast<WorldRanks*>(value);
  MPI_Group group = MPI_GROUP_NULL;
  if (!make_group(object, &group)) return nullptr;
  auto made = std::make_unique<WorldRanks>(translated(group));
  if (set(object, key, made.get()) != MPI_SUCCESS) return nullptr;
  return made.release();
}

int looked_up(const WorldRanks* ranks, int rank) {
  if (ranks == nullptr || rank < 0 || static_cast<std::size_t>(rank) >= ranks->size()) return -1;
  return (*ranks)[static_cast<std::size_t>(rank)];
}

}  // namespace

namespace hot {
std::atomic<TrafficRecorder*> active{nullptr};
std::array<BasicSize, kMostBasicTypes> basic_sizes{};
std::size_t basic_count = 0;
}  // namespace hot

void start() noexcept {
  const char* prefix = std::getenv("TMAP_RECORD");
  if (prefix == nullptr || *prefix == '\0' || active() != nullptr) return;
  g_reached.store(true);
  auto& s = state();
  if (const char* verbose = std::getenv("TMAP_VERBOSE")) s.verbose = std::atoi(verbose);
  int rank = 0;
  int size = 0;
  int threads = MPI_THREAD_SINGLE;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Query_thread(&threads);
  try {
    s.path = std::string(prefix) + "." + std::to_string(rank) + ".prof";
    // Before the run, not after it: a recording that cannot be written is
    // said now, on the process that cannot write it.
    detail::check_output_path(s.path);
    s.recorder = std::make_unique<TrafficRecorder>(rank, size, threads == MPI_THREAD_MULTIPLE);
  } catch (const InputError& e) {
    std::fprintf(stderr, "tmap: TMAP_RECORD=%s: %s; nothing is recorded\n", prefix, e.what());
    return;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tmap: TMAP_RECORD=%s: %s; nothing is recorded\n", prefix, e.what());
    return;
  }
  // Predefined types are never freed: their sizes are asked once.
  hot::basic_count = 0;
  for (const MPI_Datatype type : {MPI_BYTE, MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_FLOAT, MPI_LONG, MPI_UNSIGNED_CHAR,
                                  MPI_LONG_LONG, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_SHORT, MPI_DOUBLE_COMPLEX}) {
    int type_size = 0;
    if (type != MPI_DATATYPE_NULL && hot::basic_count < hot::kMostBasicTypes &&
        PMPI_Type_size(type, &type_size) == MPI_SUCCESS) {
      hot::basic_sizes[hot::basic_count++] = {type, type_size};
    }
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &s.world_group);
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_comm_ranks, &s.comm_key, nullptr);
  PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, free_win_ranks, &s.win_key, nullptr);
  hot::active.store(s.recorder.get(), std::memory_order_release);
}

void finish() noexcept {
  auto* recorder = hot::active.exchange(nullptr, std::memory_order_acq_rel);
  if (recorder == nullptr) return;
  const auto& s = state();
  try {
    detail::write_output_file(s.path, recorder->monitoring_text());
    if (s.verbose >= 1 && recorder->world_rank() == 0) {
      std::fprintf(stderr, "tmap: TMAP_RECORD: each of the %d processes wrote its traffic (rank 0: %s)\n",
                   recorder->world_size(), s.path.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tmap: TMAP_RECORD: rank %d's traffic is lost: %s\n", recorder->world_rank(), e.what());
  }
}

std::uint64_t hot::other_bytes(std::int64_t count, MPI_Datatype type) noexcept {
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0) return 0;
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

int hot::other_world_rank(MPI_Comm comm, int rank) noexcept {
  if (rank < 0 || comm == MPI_COMM_NULL) return -1;
  try {
    return looked_up(cached(comm, state().comm_key, PMPI_Comm_get_attr, PMPI_Comm_set_attr,
                            [](MPI_Comm c, MPI_Group* group) {
                              int inter = 0;
                              PMPI_Comm_test_inter(c, &inter);
                              return (inter ? PMPI_Comm_remote_group(c, group) : PMPI_Comm_group(c, group)) ==
                                     MPI_SUCCESS;
                            }),
                     rank);
  } catch (...) {  // out of memory: uncounted
    return -1;
  }
}

int window_world_rank(MPI_Win win, int rank) noexcept {
  if (rank < 0 || win == MPI_WIN_NULL) return -1;
  try {
    return looked_up(cached(win, state().win_key, PMPI_Win_get_attr, PMPI_Win_set_attr,
                            [](MPI_Win w, MPI_Group* group) { return PMPI_Win_get_group(w, group) == MPI_SUCCESS; }),
                     rank);
  } catch (...) {
    return -1;
  }
}

void remember_persistent(MPI_Request request, MPI_Comm comm, int rank, int count, MPI_Datatype type) noexcept {
  if (active() == nullptr) return;
  const int peer = world_rank(comm, rank);
  if (peer < 0) return;
  auto& s = state();
  try {
    std::lock_guard lock(s.persistent_lock);
    s.persistent[request] = {peer, bytes_of(count, type)};
  } catch (...) {
  }
}

void started(MPI_Request request) noexcept {
  auto* recorder = active();
  if (recorder == nullptr) return;
  auto& s = state();
  std::lock_guard lock(s.persistent_lock);
  if (const auto it = s.persistent.find(request); it != s.persistent.end()) {
    recorder->add(Traffic::point_to_point, it->second.peer, it->second.bytes);
  }
}

void forget(MPI_Request request) noexcept {
  if (active() == nullptr) return;
  auto& s = state();
  std::lock_guard lock(s.persistent_lock);
  s.persistent.erase(request);
}

}  // namespace tmap::mpi::record
