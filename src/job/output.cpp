// A job's result made ready to be written, one way for every front end:
// the hosts launcher files name, each rank's CPUs (the scheduler's groups,
// cores or hardware threads), the scheduler's launch order kept on each
// node, and the notes a launcher file needs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "job/job_state.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/metrics.hpp"
#include "tmap/scotch_export.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

/// Ranks on two hyper-threads of one core get the same core in a rankfile
/// (Open MPI binds both to the whole core): how to bind each to its thread.
std::string shared_cores_note(const Mapping& mapping, const Topology& topology) {
  std::map<std::pair<NodeId, std::int64_t>, std::pair<Rank, PE>> first;
  for (std::size_t rank = 0; rank < mapping.size(); ++rank) {
    const PE pe = mapping[rank];
    const auto key = std::make_pair(topology.node_of(pe), slot_in_node(topology, pe));
    const auto [it, fresh] = first.emplace(key, std::make_pair(static_cast<Rank>(rank), pe));
    if (!fresh && it->second.second != pe) {
      return fmt::format(
          "ranks {} and {} run on two hardware threads of core {}: the rankfile binds both to the core; "
          "--rankfile-slots pu with mpirun --use-hwthread-cpus binds each to its own thread",
          it->second.first, rank, key.second);
    }
  }
  return {};
}

/// Which PEs were taken as one host where the machine does not say (a bare
/// tleaf) and --pes-per-node did not.
std::string node_choice_note(const Topology& t, bool pes_per_node_given) {
  const auto choice = t.node_choice();
  if (pes_per_node_given || choice.sizes.size() < 2) return {};
  std::vector<PE> others;
  for (const auto size : choice.sizes) {
    if (size != choice.taken) others.push_back(size);
  }
  return fmt::format(
      "{} does not say which level is a host: each {} PEs under a last-level switch taken as one ({} hosts); "
      "--pes-per-node {} takes a higher level",
      t.description(), choice.taken, t.num_nodes(), fmt::join(others, " or "));
}

/// Where Cray MPICH runs the rank order of `mapping` (the ranks in their
/// PEs' order, as many a node as the mapping puts on each); empty when the
/// job's nodes cannot hold it so (the file is refused or said elsewhere).
Mapping cray_placement(std::span<const PE> mapping, const Topology& topology, const Constraints& constraints) {
  const auto order = ranks_in_pe_order(mapping);
  std::set<NodeId> nodes;
  for (const PE p : mapping) nodes.insert(topology.node_of(p));
  if (nodes.empty() || mapping.size() % nodes.size() != 0) return {};
  try {
    return rank_order_placement(order, static_cast<std::int64_t>(mapping.size() / nodes.size()), topology, constraints,
                                "--format rank-order");
  } catch (const InputError&) {
    return {};
  }
}

/// For the formats that name only hosts: where the launcher's own order
/// (launcher_order_mapping) costs more hop-bytes than the mapping, how many
/// ranks move and what they cost; empty otherwise.
std::string launcher_order_note(MappingFormat format, std::span<const PE> mapping, const CommMatrix& comm,
                                const Topology& topology, const Constraints& constraints) {
  Mapping launched;
  if (format == MappingFormat::RankOrder) {
    launched = cray_placement(mapping, topology, constraints);
    if (launched.empty()) return {};
  } else if (format == MappingFormat::Hostfile || format == MappingFormat::Machinefile ||
             format == MappingFormat::Hydra) {
    launched = launcher_order_mapping(mapping, topology, constraints);
  } else {
    return {};
  }
  std::int64_t moved = 0;
  for (std::size_t r = 0; r < mapping.size(); ++r) moved += launched[r] != mapping[r] ? 1 : 0;
  if (moved == 0) return {};
  const auto ours = evaluate(comm, topology, mapping).hop_bytes;
  const auto theirs = evaluate(comm, topology, launched).hop_bytes;
  if (theirs <= ours) return {};  // the launcher's order costs nothing more
  const auto more =
      ours > 0 ? fmt::format(" (+{:.1f} %)", 100.0 * static_cast<double>(theirs - ours) / static_cast<double>(ours))
               : std::string();
  if (format == MappingFormat::RankOrder) {
    return fmt::format(
        "--format rank-order says the order of the ranks, not their cores: Cray MPICH fills the job's first nodes, "
        "as many ranks on each, on each node's first CPUs, so {} of {} ranks land on another PE than tmap chose, "
        "{} hop-bytes instead of {}{}; launch with tm-bind or a rankfile to keep every rank where it is",
        moved, mapping.size(), theirs, ours, more);
  }
  return fmt::format(
      "--format {} names only each rank's host: the launcher binds a node's ranks, in rank order, to the node's "
      "CPUs in its own order (mpirun --bind-to core, srun's block binding), not on the cores tmap chose: {} of {} "
      "ranks land on another core, {} hop-bytes instead of {}{}; --format rankfile (Open MPI) keeps every rank "
      "on its core",
      mapping_format_name(format), moved, mapping.size(), theirs, ours, more);
}

/// Whether the mapping puts a rank on a GPU (a node's PEs are all of one
/// kind: each node is asked once). Nodes of GPUs may sit beside nodes of
/// CPUs, so PE 0 alone does not say.
bool on_gpus(std::span<const PE> mapping, const Topology& machine) {
  std::vector<std::int8_t> asked(static_cast<std::size_t>(machine.num_nodes()), -1);
  for (const PE pe : mapping) {
    auto& gpu = asked[static_cast<std::size_t>(machine.node_of(pe))];
    if (gpu < 0) gpu = device_slot(machine, pe).has_value() ? 1 : 0;
    if (gpu == 1) return true;
  }
  return false;
}

/// A GPU PE's slot in a binding file: "CPUS VARIABLE=INDEX" (CPUS "-"
/// where the node's description does not say them).
std::string gpu_slot_text(const Topology& machine, PE pe) {
  const auto slot = device_slot(machine, pe);
  if (!slot) return "- -";
  const std::vector<std::int64_t> cpus(slot->cpus.begin(), slot->cpus.end());
  return fmt::format("{} {}={}", cpus.empty() ? "-" : detail::runs_text(cpus), slot->variable, slot->index);
}

/// The launcher files that can say GPU PEs: a rankfile names a core, not a
/// GPU, and a binding file says one kind of PE.
void check_gpu_launch(MappingFormat format, const Mapping& mapping, const Topology& machine) {
  if (format == MappingFormat::Rankfile) {
    throw ParameterError(
        "--format rankfile: the PEs are GPUs, and a rankfile names a rank's cores, not its GPU; write --format "
        "binding and start each rank with tm-bind (mpirun --hostfile tmap.hostfile --mca rmaps seq --bind-to none "
        "tm-bind tmap.binding -- PROGRAM: docs/machines.md)");
  }
  if (format != MappingFormat::Binding) return;
  for (const PE pe : mapping) {
    if (!device_slot(machine, pe)) {
      throw ParameterError(fmt::format(
          "--format binding: a rank on {} is on a CPU, others on GPUs: one binding file says one kind of PE; map the "
          "GPU nodes and the CPU nodes as two jobs",
          host_name(machine, machine.node_of(pe))));
    }
  }
}

}  // namespace

void check_output(const OutputSpec& output) {
  if (output.format == MappingFormat::Hydra && output.program.empty()) {
    throw ParameterError("--format hydra writes a Hydra -configfile and needs the program: give --program 'CMD ARGS'");
  }
  if (output.program.find_first_of("\r\n") != std::string::npos) throw InputError("--program: one line, please");
}

void Job::prepare(ReportedMapping& result, const OutputSpec& output) {
  auto& s = *state_;
  const auto format = output.format;
  const auto machine = (static_cast<void>(this->machine()), s.topology());
  const auto& allocation = this->allocation();
  check_output(output);
  auto host_of = launch_host_names(*machine, allocation ? &*allocation : nullptr, s.listed_hosts(*machine));
  result.report.host_of = [machine, host_of = std::move(host_of)](PE pe) { return host_of(pe); };
  result.report.program = output.program;
  const bool launcher = is_launch_format(format);
  const bool gpus = on_gpus(result.mapping, *machine);
  if (gpus) {
    // PEs are GPUs: a rank's slot is its GPU and the CPUs near it.
    check_gpu_launch(format, result.mapping, *machine);
    result.report.slot_of = [machine](PE pe) { return gpu_slot_text(*machine, pe); };
    result.report.slot_kind = "gpu";
  } else if (const auto& slots = rank_slots(); !slots.cpus_of.empty()) {
    // The CPUs the scheduler gave, a group per rank, in srun's order on
    // each node where that costs nothing (a hostfile launch then binds
    // every rank where the rankfile says).
    keep_launch_order(result.mapping, *machine, slots);
    result.report.slot_of = [slots](PE pe) { return slots.slot_text(pe); };
    result.report.slot_kind = "pu";  // Slurm's CPU ids: the node's hardware threads
  } else if (output.slots == SlotKind::Pu) {
    result.report.slot_of = [machine](PE pe) { return std::to_string(pu_in_node(*machine, pe)); };
    result.report.slot_kind = "pu";
  } else {
    result.report.slot_of = [machine](PE pe) { return std::to_string(slot_in_node(*machine, pe)); };
    if (format == MappingFormat::Rankfile) s.note(shared_cores_note(result.mapping, *machine));
  }
  if (scotch_terminals_are_nodes(*machine)) {
    result.report.scotch_terminal_of = [machine](PE pe) { return node_label(*machine, machine->node_of(pe)); };
  }
  if (launcher || allocation) s.note(node_choice_note(*machine, s.spec.machine.pes_per_node.has_value()));
  // A launcher file of a mapping alone (no traffic) gets no notes on its cost.
  if (!s.spec.traffic.matrix && s.spec.traffic.path.empty()) return;
  const auto& c = constraints();
  const auto& comm = traffic();
  if (gpus) {
    if (launcher && c.capacity() > 1 && comm.num_ranks() > static_cast<Rank>(c.allowed_pes().size())) {
      s.note(
          fmt::format("-o {} puts up to {} ranks on one GPU: they share it and the CPUs near it (side by side "
                      "under NVIDIA's MPS, else in turns)",
                      c.capacity(), c.capacity()));
    }
    if (launcher && format != MappingFormat::Binding) {
      s.note(
          fmt::format("--format {} names each rank's host, not its GPU: write --format binding too and start "
                      "each rank with tm-bind, which gives it its GPU and the CPUs near it",
                      mapping_format_name(format)));
    }
    return;
  }
  if (launcher && c.capacity() > 1 && comm.num_ranks() > static_cast<Rank>(c.allowed_pes().size())) {
    // MPI ranks busy-poll while they wait: K of them on one CPU take turns
    // at the scheduler's pace (LAMMPS, 12 ranks 6 a core: 125.9 s for 0.79 s).
    s.note(fmt::format(
        "-o {} puts up to {} ranks on one CPU: MPI ranks spin while they wait, so ranks sharing a CPU slow each "
        "other down many times over; launch with --mca mpi_yield_when_idle 1 (Open MPI) or give each rank a CPU of "
        "its own",
        c.capacity(), c.capacity()));
  }
  s.note(launcher_order_note(format, result.mapping, comm, *machine, c));
}

void Job::prepare_output(ReportedMapping& result) {
  prepare(result, state_->spec.output);
}

std::string Job::output(const ReportedMapping& result) {
  return format_mapping(state_->spec.output.format, result.mapping, result.report);
}

std::string Job::launch_file(const Mapping& mapping, const OutputSpec& output) {
  if (!is_launch_format(output.format)) {
    throw ParameterError("format: '" + std::string(mapping_format_name(output.format)) +
                         "' is not a launcher's (rankfile, hostfile, machinefile, hydra, rank-order, binding)");
  }
  const auto& t = machine();
  for (const auto pe : mapping) {
    if (pe < 0 || pe >= t.size()) throw ParameterError("mapping: PE " + std::to_string(pe) + " is not on this machine");
  }
  ReportedMapping result;
  result.mapping = mapping;
  prepare(result, output);
  return format_mapping(output.format, result.mapping, result.report);
}

}  // namespace tmap
