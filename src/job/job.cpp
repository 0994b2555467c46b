// The Job: a JobSpec assembled once, in one order, for every front end: the
// machine, the traffic, the allocation and the PEs ranks may use, the
// configuration, the routes. Each part is built when first asked for and
// its errors are said in the spec's words.
#include "tmap/job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

#include "job/job_state.hpp"
#include "tmap/config.hpp"
#include "tmap/machine.hpp"
#include "tmap/scheduler.hpp"

namespace tmap {

Job::Job(JobSpec spec, NoteSink notes) : state_(std::make_unique<State>()) {
  state_->spec = std::move(spec);
  state_->notes = std::move(notes);
}
Job::~Job() = default;
Job::Job(Job&&) noexcept = default;
Job& Job::operator=(Job&&) noexcept = default;

const JobSpec& Job::spec() const noexcept {
  return state_->spec;
}

void Job::State::note(const std::string& text) const {
  if (notes && !text.empty()) notes(spec.words.say(text));
}

namespace {

/// The machine of what a user gave: -t (with --node and --host-names for a
/// network) or -x; the scheduler's when neither and the allocation is the
/// scheduler's.
std::shared_ptr<const Topology> load_given_machine(const Job::State& s) {
  const auto& m = s.spec.machine;
  const auto& words = s.spec.words;
  if (m.built) return m.built;
  const auto nodes = parse_node_args(m.nodes, words.node);
  if (!m.hwloc_xml.empty()) {
    if (!m.nodes.empty() || !m.host_names.empty()) {
      throw ParameterError("--node/--host-names describe the nodes of a network (-t fattree:...), not -x");
    }
    if (m.pe == "gpu") {
      MachineSpec spec{m.hwloc_xml, {}, {}, {}, {}, m.pe};
      return load_machine(spec);
    }
    return load_hwloc_xml(m.hwloc_xml);
  }
  if (m.topology.empty() && s.spec.allocation.kind == AllocationSource::Kind::Scheduler) {
    if (!m.host_names.empty()) {
      throw ParameterError("--host-names: with --alloc-from-env and no -t, the scheduler names the nodes");
    }
    AllocationRequest request;
    request.host_pattern = m.host_pattern;
    request.het_group = s.spec.allocation.het_group;
    auto machine = job_scheduler().machine(nodes.node, nodes.by_hosts, request);
    s.note(machine.note);
    machine.spec.pe = m.pe;
    return load_machine(machine.spec);
  }
  if (m.topology.empty()) throw InputError("-t: no machine given");
  MachineSpec spec{m.topology, nodes.node, {}, {}, nodes.by_hosts, m.pe};
  if (!m.host_names.empty()) spec.host_names = expand_hostlist(m.host_names, words.host_names);
  return load_machine(spec);
}

/// --pes-per-node: which level of a tleaf is a host.
std::shared_ptr<const Topology> with_node_pes(const std::shared_ptr<const Topology>& machine, std::int64_t pes) {
  if (auto regrouped = machine->with_node_pes(pes)) return regrouped;
  const auto choice = machine->node_choice();
  if (choice.sizes.empty()) {
    throw ParameterError(fmt::format("--pes-per-node: {} says itself which PEs share a host", machine->description()));
  }
  throw ParameterError(fmt::format("--pes-per-node {}: a host of {} holds the PEs below one of its levels: {}", pes,
                                   machine->description(), fmt::join(choice.sizes, ", ")));
}

}  // namespace

const Topology& Job::machine() {
  auto& s = *state_;
  if (!s.machine) {
    s.machine = s.in_words([&] {
      auto machine = load_given_machine(s);
      if (s.spec.machine.pes_per_node) machine = with_node_pes(machine, *s.spec.machine.pes_per_node);
      return machine;
    });
  }
  return *s.machine;
}

std::shared_ptr<const Topology> Job::machine_shared() {
  (void)machine();
  return state_->machine;
}

std::shared_ptr<const Topology> Job::State::topology() const {
  return machine;
}

const CommMatrix& Job::traffic() {
  auto& s = *state_;
  if (!s.traffic) s.traffic = s.in_words([&] { return read_traffic(s.spec.traffic); });
  return *s.traffic;
}

const std::vector<std::string>& Job::State::listed_hosts(const Topology& t) {
  if (!hosts) {
    hosts = spec.machine.hosts_file.empty()
                ? std::vector<std::string>{}
                : parse_hosts_file(read_file(spec.machine.hosts_file), spec.machine.hosts_file, t.num_nodes());
  }
  return *hosts;
}

const std::optional<Allocation>& Job::allocation() {
  auto& s = *state_;
  if (s.allocation_done) return s.allocation;
  const auto& t = machine();
  const auto& a = s.spec.allocation;
  const auto& m = s.spec.machine;
  s.in_words([&] {
    const auto known = allocation_host_ids(t, s.listed_hosts(t));
    const HostIds* listed = known.empty() ? nullptr : &known;
    using Kind = AllocationSource::Kind;
    if (a.kind == Kind::Hosts) s.allocation = parse_allocation(a.hosts, m.host_pattern, s.spec.words.alloc, listed);
    const Scheduler* scheduler = nullptr;
    if (a.kind == Kind::Scheduler) {
      scheduler = &job_scheduler();
      try {
        s.allocation = scheduler->allocation({m.host_pattern, listed, a.het_group, a.cpus_per_rank.has_value()});
      } catch (const NoSchedulerError& e) {
        throw InputError(s.spec.words.scheduler + ": " + e.what());
      }
    }
    if (!s.allocation) return 0;
    auto& allocation = *s.allocation;
    allocation.resolve(t);
    if (listed == nullptr && m.host_pattern.empty()) s.note(host_number_note(allocation, t));
    if (a.cpus_per_rank) {
      allocation.cpus_per_rank = *a.cpus_per_rank;
      allocation.cpus_per_rank_origin = s.spec.words.cpus_per_rank;
    }
    if (scheduler != nullptr) s.note(scheduler->add_cpu_ids(allocation));
    return 0;
  });
  s.allocation_done = true;
  return s.allocation;
}

const RankSlots& Job::rank_slots() {
  auto& s = *state_;
  if (s.slots) return *s.slots;
  const auto& t = machine();
  const auto& allocation = this->allocation();
  using Kind = AllocationSource::Kind;
  const auto& a = s.spec.allocation;
  const auto per_rank = allocation ? allocation->cpus_per_rank : a.cpus_per_rank.value_or(1);
  s.slots = a.kind == Kind::PeFile || a.kind == Kind::Pes
                ? RankSlots{}
                : s.in_words([&] { return job_rank_slots(t, allocation ? &*allocation : nullptr, per_rank); });
  s.note(s.slots->shortfall);
  return *s.slots;
}

const Constraints& Job::constraints() {
  auto& s = *state_;
  if (s.constraints) return *s.constraints;
  const auto& t = machine();
  const auto& a = s.spec.allocation;
  using Kind = AllocationSource::Kind;
  if (a.kind == Kind::PeFile) {
    s.constraints =
        s.in_words([&] { return Constraints::allowed(t, read_pe_list(a.pe_file, t.size()), a.oversubscription); });
  } else if (a.kind == Kind::Pes) {
    s.constraints = s.in_words([&] {
      try {
        return Constraints::allowed(t, a.pes, a.oversubscription);
      } catch (const InputError& e) {
        throw InputError("--constraints: " + std::string(e.what()));
      }
    });
  } else {
    const auto& slots = rank_slots();
    const auto& allocation = this->allocation();
    s.constraints =
        s.in_words([&] { return job_constraints(t, allocation ? &*allocation : nullptr, slots, a.oversubscription); });
  }
  if (a.imbalance) {
    // Balanced by load: -o's K stays a count cap when the user gave one.
    const auto& comm = traffic();
    s.constraints = s.in_words([&] {
      return s.constraints->balanced(comm.rank_weights(), comm.num_ranks(), *a.imbalance,
                                     a.oversubscription > 1 ? a.oversubscription : 0);
    });
  }
  return *s.constraints;
}

const Context& Job::context() {
  auto& s = *state_;
  if (!s.context) s.context = build_context(s.spec.context, s.spec.words);
  return *s.context;
}

const RoutingModel* Job::routing() {
  auto& s = *state_;
  if (s.routing_done) return s.routing.get();
  const auto& t = machine();
  const auto& bandwidths = context().link_bandwidths;
  s.routing = make_routing(t);
  if (!s.routing && !bandwidths.empty()) {
    throw InputError(s.spec.words.option("link-bw") + ": a " + t.kind() +
                     " topology has no routing model (meshes, tori, hypercubes, complete graphs, trees, hwloc and "
                     "Tianhe-3 have one)");
  }
  if (s.routing && !bandwidths.empty()) {
    try {
      s.routing->set_bandwidths(bandwidths);
    } catch (const InputError& e) {
      throw InputError(bandwidths_origin(s.spec.context, s.spec.words) + ": " + e.what());
    }
  }
  s.routing_done = true;
  return s.routing.get();
}

Problem Job::problem() {
  auto& s = *state_;
  // The machine first: a matrix given as the machine is -t's mistake.
  const auto& t = machine();
  const auto& c = constraints();
  const auto& comm = traffic();
  const Problem problem{comm, t, c};
  if (s.problem_checked) return problem;
  s.in_words([&] {
    check_output(s.spec.output);
    return 0;
  });
  if (comm.num_ranks() > c.num_slots()) {
    throw InputError(s.spec.words.say(not_fitting(comm, c, rank_slots().shortfall, t, !s.spec.machine.nodes.empty())));
  }
  check_problem(problem);
  s.problem_checked = true;
  return problem;
}

ReportedMapping Job::run(RunHooks hooks, std::string_view strategy) {
  const auto problem = this->problem();
  const Run run(context(), std::move(hooks));
  return run_and_report(strategy.empty() ? std::string_view(run.strategy) : strategy, problem, run, routing());
}

ReportedMapping Job::refine(Mapping start, RunHooks hooks, std::string_view name) {
  const auto problem = this->problem();
  Context context = this->context();
  refine_given_mapping_by_default(context, refine_asked(state_->spec.context));
  const Run run(context, std::move(hooks));
  return refine_and_report(name, std::move(start), problem, run, routing());
}

}  // namespace tmap
