// tm-bind: keeps the placement tmap computed under any launcher. Started by
// the launcher in place of the program (srun, mpiexec.hydra, mpirun, Cray's
// launcher: `LAUNCHER tm-bind FILE -- PROGRAM ARGS`), it finds its rank in
// the launcher's environment, checks that it runs on the host the binding
// file (tm-map --format binding) names for that rank, binds itself to the
// cores or hardware threads the file gives (hwloc, on this host's own
// numbering, so OS CPU ids scattered across sockets are never used as
// indices), or for a GPU PE to the CPUs near its GPU with the variable that
// hands it the GPU set, and execs the program, which inherits both. No shell.
#include <hwloc.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <memory>

#include "binding_file.hpp"
#include "cli.hpp"
#include "tmap/error.hpp"
#include "tmap/version.hpp"
#include "util/launch_rank.hpp"
#include "util/text.hpp"

namespace {

using tmap::InputError;
using tmap::bind::SlotKind;

/// This host's name as the binding file spells hosts: Slurm's node name
/// inside a Slurm step (several slurmd may share one machine), else the
/// host name without its domain.
std::string this_host() {
  if (const char* node = std::getenv("SLURMD_NODENAME"); node != nullptr && *node != '\0') return node;
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) throw tmap::SystemError("cannot read this host's name");
  std::string host(name);
  return host.substr(0, host.find('.'));
}

bool same_host(const std::string& listed, const std::string& here) {
  return listed == here || listed.substr(0, listed.find('.')) == here;
}

struct HostTopology {
  hwloc_topology_t handle = nullptr;
  HostTopology() {
    if (hwloc_topology_init(&handle) != 0) throw tmap::SystemError("hwloc cannot start");
    // Every CPU, allowed or not: the file's indices are the host's own
    // numbering, not the ones left to this process.
    hwloc_topology_set_flags(handle, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    if (hwloc_topology_load(handle) != 0) throw tmap::SystemError("hwloc cannot read this host's topology");
  }
  ~HostTopology() { hwloc_topology_destroy(handle); }
  HostTopology(const HostTopology&) = delete;
  HostTopology& operator=(const HostTopology&) = delete;
};

std::string cpu_list(hwloc_const_bitmap_t set) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "?";
  std::string list(text);
  std::free(text);
  return list;
}

/// Hands the rank its GPU: VARIABLE=GPU (with CUDA, CUDA_DEVICE_ORDER=
/// PCI_BUS_ID, so that CUDA numbers GPUs as nvidia-smi and hwloc do). Where
/// the launcher already set the variable to a list of GPUs, the rank's must
/// be among them: the launcher's own numbers may be another order's.
void give_device(const tmap::bind::Placement& placement, const std::string& origin, std::int64_t rank) {
  const auto& variable = placement.device_variable;
  if (const char* set = std::getenv(variable.c_str()); set != nullptr && *set != '\0') {
    bool listed = false;
    std::string_view rest = set;
    std::string_view item;
    while (tmap::detail::next_token(rest, item, ",")) listed = listed || item == std::to_string(placement.device);
    if (!listed) {
      throw InputError(origin, "rank " + std::to_string(rank) + " is given GPU " + std::to_string(placement.device) +
                                   " but the launcher made only " + variable + "=" + set +
                                   " visible: give the job whole nodes' GPUs (srun --gpus-per-node=N, no "
                                   "--gpus-per-task), or unset " +
                                   variable);
    }
  }
  setenv(variable.c_str(), std::to_string(placement.device).c_str(), 1);
  if (variable == "CUDA_VISIBLE_DEVICES") setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
}

/// Binds this process to the rank's slots; returns the OS CPUs bound to.
std::string bind_to(const tmap::bind::Placement& placement, SlotKind kind, const std::string& origin,
                    std::int64_t rank) {
  const HostTopology topology;
  const auto type = kind == SlotKind::Core ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  const char* word = kind == SlotKind::Core ? "core" : "hardware thread";
  const int count = hwloc_get_nbobjs_by_type(topology.handle, type);
  std::unique_ptr<hwloc_bitmap_s, void (*)(hwloc_bitmap_t)> set(hwloc_bitmap_alloc(), hwloc_bitmap_free);
  // GPU PEs: the CPUs near the GPU, in the OS numbers nvidia-smi and hwloc's
  // cpusets use, each one this host has.
  const auto complete = hwloc_topology_get_complete_cpuset(topology.handle);
  for (const auto cpu : kind == SlotKind::Gpu ? placement.slots : std::vector<std::int64_t>{}) {
    if (hwloc_bitmap_isset(complete, static_cast<unsigned>(cpu)) == 0) {
      throw InputError(origin, "rank " + std::to_string(rank) + " is placed on CPU " + std::to_string(cpu) +
                                   " (OS numbering) but " + placement.host + " has CPUs " + cpu_list(complete));
    }
    hwloc_bitmap_set(set.get(), static_cast<unsigned>(cpu));
  }
  for (const auto slot : kind == SlotKind::Gpu ? std::vector<std::int64_t>{} : placement.slots) {
    const auto obj = slot < count ? hwloc_get_obj_by_type(topology.handle, type, static_cast<unsigned>(slot)) : nullptr;
    if (obj == nullptr) {
      throw InputError(origin, "rank " + std::to_string(rank) + " is placed on " + word + " " + std::to_string(slot) +
                                   " but " + placement.host + " has " + std::to_string(count) + " " + word + "s");
    }
    hwloc_bitmap_or(set.get(), set.get(), obj->cpuset);
  }
  const auto allowed = hwloc_topology_get_allowed_cpuset(topology.handle);
  if (!hwloc_bitmap_isincluded(set.get(), allowed)) {
    throw InputError(origin, "rank " + std::to_string(rank) + "'s CPUs " + cpu_list(set.get()) +
                                 " (OS numbering) are not all this process's to use: it may run on " +
                                 cpu_list(allowed) +
                                 " (the launcher's binding: let it bind nothing, e.g. srun --cpu-bind=none, "
                                 "mpirun --bind-to none)");
  }
  if (hwloc_set_cpubind(topology.handle, set.get(), HWLOC_CPUBIND_PROCESS) != 0) {
    throw tmap::SystemError("cannot bind to CPUs " + cpu_list(set.get()) + ": " + std::strerror(errno));
  }
  return cpu_list(set.get());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tm-bind: binds the calling rank where a binding file (tm-map --format binding) places it, then runs "
      "PROGRAM there: LAUNCHER tm-bind FILE -- PROGRAM ARGS. The rank is read from " +
      tmap::detail::launch_rank_variables() +
      " (the rank-th of this host's ranks in the file). The host must be the file's (SLURMD_NODENAME "
      "inside Slurm, else the host name). Exit 2 on a bad file or a rank placed elsewhere, 126/127 when "
      "PROGRAM cannot be run."};
  std::string file;
  std::vector<std::string> command;
  bool verbose = false;
  app.add_option("file", file, "The binding file tm-map --format binding writes")->required();
  app.add_option("command", command, "PROGRAM and its arguments, after --")->required();
  app.add_flag("-v,--verbose", verbose, "Say on standard error where the rank is bound");
  app.set_version_flag("--version", std::string("tm-bind ") + tmap::version());
  int exec_errno = 0;
  bool tried = false;  // execvp returned: the program could not be run
  const int code = tmap::cli::run("tm-bind", app, argc, argv, [&]() {
    const auto binding = tmap::bind::parse_binding_file(tmap::cli::read_text(file), file);
    const auto launched = tmap::detail::launch_rank();
    const auto host = this_host();
    std::int64_t rank = launched.rank;
    if (rank < 0 && launched.local_rank >= 0) {
      // Only a rank on the host: the host's ranks in the file, in rank order.
      std::int64_t seen = 0;
      for (std::size_t r = 0; r < binding.ranks.size() && rank < 0; ++r) {
        if (same_host(binding.ranks[r].host, host) && seen++ == launched.local_rank)
          rank = static_cast<std::int64_t>(r);
      }
      if (rank < 0) {
        throw InputError(file, launched.variable + "=" + std::to_string(launched.local_rank) + " but the file places " +
                                   std::to_string(seen) + " rank(s) on " + host);
      }
    }
    if (rank < 0) {
      throw InputError("no launcher rank in the environment (" + tmap::detail::launch_rank_variables() +
                       "): start tm-bind through the launcher, or set TMAP_RANK");
    }
    if (static_cast<std::size_t>(rank) >= binding.ranks.size()) {
      throw InputError(file, "rank " + std::to_string(rank) + " (" + launched.variable + ") but the file places " +
                                 std::to_string(binding.ranks.size()) + " ranks");
    }
    const auto& placement = binding.ranks[static_cast<std::size_t>(rank)];
    if (!same_host(placement.host, host)) {
      throw InputError(file, "rank " + std::to_string(rank) + " is placed on " + placement.host + " but runs on " +
                                 host +
                                 ": launch with the same host order (SLURM_HOSTFILE and srun "
                                 "--distribution=arbitrary, a machinefile, a rankfile)");
    }
    if (binding.kind == SlotKind::Gpu) give_device(placement, file, rank);
    const auto cpus = binding.kind == SlotKind::Gpu && placement.slots.empty()
                          ? std::string()
                          : bind_to(placement, binding.kind, file, rank);
    if (verbose) {
      const auto gpu = placement.device >= 0 ? ", " + placement.device_variable + "=" + std::to_string(placement.device)
                                             : std::string();
      std::fprintf(stderr, "tm-bind: rank %lld on %s, CPUs %s%s\n", static_cast<long long>(rank), host.c_str(),
                   cpus.empty() ? "as launched" : cpus.c_str(), gpu.c_str());
    }
    if (!cpus.empty()) setenv("TMAP_BOUND_CPUS", cpus.c_str(), 1);
    std::vector<char*> args;
    args.reserve(command.size() + 1);
    for (auto& word : command) args.push_back(word.data());
    args.push_back(nullptr);
    // The program gets the signals as the launcher gave them: cli::run
    // ignores SIGXFSZ for tmap's own writes, which exec would pass on.
    std::signal(SIGXFSZ, SIG_DFL);
    execvp(args[0], args.data());
    exec_errno = errno;
    tried = true;
    return 0;
  });
  if (code != 0 || !tried) return code;
  std::fprintf(stderr, "tm-bind: cannot run %s: %s\n", command.empty() ? "?" : command[0].c_str(),
               std::strerror(exec_errno));
  return exec_errno == ENOENT ? 127 : 126;
}
