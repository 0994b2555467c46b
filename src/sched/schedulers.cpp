// The schedulers tmap knows (tmap/scheduler.hpp): Slurm, whose environment
// names the job's nodes, the CPUs it holds on each and the CPUs per task
// (and whose controller knows which CPUs and the switch tree), PBS, whose
// node file lists a line per slot, and "none" outside any job.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "sched/limits.hpp"
#include "sched/slurm_cpus.hpp"
#include "sched/slurm_environment.hpp"
#include "sched/slurm_topology.hpp"
#include "tmap/scheduler.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap {

namespace sched {

std::vector<std::int64_t> expand_slurm_counts(std::string_view text, const std::string& origin) {
  std::vector<std::int64_t> counts;
  std::string_view rest = text;
  std::string_view item;
  while (detail::next_token(rest, item, ",")) {
    std::int64_t repeat = 1;
    auto count_text = item;
    if (const auto open = item.find("(x"); open != std::string_view::npos) {
      if (!item.ends_with(')') || !detail::parse_int(item.substr(open + 2, item.size() - open - 3), repeat) ||
          repeat < 1 || repeat > static_cast<std::int64_t>(kMaxHosts)) {
        throw InputError(origin + ": bad repetition '" + std::string(item) + "' (expected COUNT(xTIMES))");
      }
      count_text = item.substr(0, open);
    }
    std::int64_t count = 0;
    if (!detail::parse_int(count_text, count) || count < 1 || count > (std::int64_t{1} << 24)) {
      throw InputError(origin + ": bad CPU count '" + std::string(item) + "'");
    }
    if (counts.size() + static_cast<std::size_t>(repeat) > kMaxHosts) throw InputError(origin + ": too many entries");
    counts.insert(counts.end(), static_cast<std::size_t>(repeat), count);
  }
  if (counts.empty()) throw InputError(origin + ": no CPU counts");
  return counts;
}

std::string add_slurm_cpu_ids(Allocation& allocation) {
  if (allocation.jobs.empty() || !allocation.origin.starts_with("SLURM_JOB_NODELIST")) return {};
  const auto answer = sched::slurm_job_cpus(allocation.jobs);
  if (!answer.unavailable.empty()) {
    return "which CPUs Slurm gave is not known (" + answer.unavailable +
           "): using each node's first CPUs, as many as SLURM_JOB_CPUS_PER_NODE counts";
  }
  allocation.cpu_ids.assign(allocation.nodes.size(), {});
  for (std::size_t k = 0; k < allocation.nodes.size() && k < allocation.hosts.size(); ++k) {
    if (const auto it = answer.by_host.find(allocation.hosts[k]); it != answer.by_host.end()) {
      allocation.cpu_ids[k] = it->second;
    }
  }
  return {};
}

}  // namespace sched

namespace {

using sched::expand_slurm_counts;

/// The variable's value, or nullptr when unset or empty.
const char* env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value != nullptr && *value != '\0' ? value : nullptr;
}

/// One Slurm job's part of the allocation: SLURM_JOB_NODELIST<suffix>,
/// SLURM_JOB_CPUS_PER_NODE<suffix>, SLURM_CPUS_PER_TASK<suffix>,
/// SLURM_JOB_ID<suffix> (suffix "" or "_HET_GROUP_<g>").
Allocation slurm_group(const std::string& suffix, const std::string& host_pattern, const HostIds* known,
                       bool cpus_per_rank_given) {
  const std::string nodelist = "SLURM_JOB_NODELIST" + suffix;
  auto a = parse_allocation(env(nodelist), host_pattern, nodelist, known);
  a.origin = nodelist;
  // Parts of nodes: Slurm says how many CPUs the job holds on each.
  const std::string per_node = "SLURM_JOB_CPUS_PER_NODE" + suffix;
  if (const char* cpus = env(per_node)) {
    a.cpus = expand_slurm_counts(cpus, per_node);
    if (a.cpus.size() != a.nodes.size()) {
      throw InputError(per_node + " '" + std::string(cpus) + "' gives " + std::to_string(a.cpus.size()) +
                       " counts for the " + std::to_string(a.nodes.size()) + " nodes of " + nodelist);
    }
  }
  const std::string per_task = "SLURM_CPUS_PER_TASK" + suffix;
  if (const char* c = cpus_per_rank_given ? nullptr : env(per_task)) {
    if (!detail::parse_int(c, a.cpus_per_rank) || a.cpus_per_rank < 1 || a.cpus_per_rank > (std::int64_t{1} << 20)) {
      throw InputError(per_task + " '" + std::string(c) + "': expected a positive number of CPUs per task");
    }
    a.cpus_per_rank_origin = per_task;
  }
  if (const char* id = env("SLURM_JOB_ID" + suffix)) a.jobs.emplace_back(id);
  return a;
}

/// A heterogeneous job: every group (hosts shared by groups merged, their
/// CPUs added), or the one asked for.
Allocation slurm_het_job(const std::string& host_pattern, const HostIds* known, std::optional<int> het_group,
                         bool cpus_per_rank_given) {
  int groups = 0;
  while (env("SLURM_JOB_NODELIST_HET_GROUP_" + std::to_string(groups)) != nullptr) ++groups;
  if (het_group) {
    if (*het_group < 0 || *het_group >= groups) {
      throw ParameterError("het-group: " + std::to_string(*het_group) + " is not a group of this job (Slurm set " +
                           "SLURM_JOB_NODELIST_HET_GROUP_0.." + std::to_string(groups - 1) + ")");
    }
    return slurm_group("_HET_GROUP_" + std::to_string(*het_group), host_pattern, known, cpus_per_rank_given);
  }
  Allocation all;
  all.origin = "SLURM_JOB_NODELIST_HET_GROUP_*";
  std::map<NodeId, std::size_t> index;
  bool counted = true;  // every group said its CPUs per node
  for (int g = 0; g < groups; ++g) {
    const auto part = slurm_group("_HET_GROUP_" + std::to_string(g), host_pattern, known, cpus_per_rank_given);
    if (g > 0 && part.cpus_per_rank != all.cpus_per_rank) {
      throw InputError("the heterogeneous job's groups take " + std::to_string(all.cpus_per_rank) + " and " +
                       std::to_string(part.cpus_per_rank) +
                       " CPUs per task (SLURM_CPUS_PER_TASK_HET_GROUP_*): map each group with --het-group N");
    }
    all.cpus_per_rank = part.cpus_per_rank;
    all.cpus_per_rank_origin = part.cpus_per_rank_origin;
    all.jobs.insert(all.jobs.end(), part.jobs.begin(), part.jobs.end());
    counted = counted && !part.cpus.empty();
    for (std::size_t k = 0; k < part.nodes.size(); ++k) {
      const auto [it, fresh] = index.emplace(part.nodes[k], all.nodes.size());
      if (fresh) {
        all.nodes.push_back(part.nodes[k]);
        all.hosts.push_back(k < part.hosts.size() ? part.hosts[k] : std::string());
        all.cpus.push_back(part.cpus.empty() ? 0 : part.cpus[k]);
      } else if (!part.cpus.empty()) {
        all.cpus[it->second] += part.cpus[k];
      }
    }
  }
  if (!counted) all.cpus.clear();  // a group of whole nodes: whole nodes for all
  return all;
}

/// het-group outside a heterogeneous Slurm job.
void refuse_het_group(const AllocationRequest& request) {
  if (request.het_group) {
    throw ParameterError("het-group: this is not a heterogeneous Slurm job (no SLURM_JOB_NODELIST_HET_GROUP_0)");
  }
}

class SlurmScheduler final : public Scheduler {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "slurm"; }
  [[nodiscard]] bool in_job() const override {
    return env("SLURM_JOB_NODELIST_HET_GROUP_0") != nullptr || env("SLURM_JOB_NODELIST") != nullptr;
  }
  [[nodiscard]] Allocation allocation(const AllocationRequest& r) const override {
    if (env("SLURM_JOB_NODELIST_HET_GROUP_0") != nullptr) {
      return slurm_het_job(r.host_pattern, r.known, r.het_group, r.cpus_per_rank_given);
    }
    refuse_het_group(r);
    return slurm_group("", r.host_pattern, r.known, r.cpus_per_rank_given);
  }
  [[nodiscard]] std::string add_cpu_ids(Allocation& allocation) const override {
    return sched::add_slurm_cpu_ids(allocation);
  }

 protected:
  [[nodiscard]] SwitchTree switch_tree() const override {
    auto tree = sched::slurm_switch_tree();
    return {std::move(tree.text), std::move(tree.origin), std::move(tree.unavailable)};
  }
};

class PbsScheduler final : public Scheduler {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "pbs"; }
  [[nodiscard]] bool in_job() const override { return env("PBS_NODEFILE") != nullptr; }
  /// PBS_NODEFILE: one host per line, repeated per slot (the repetitions
  /// count the CPUs).
  [[nodiscard]] Allocation allocation(const AllocationRequest& request) const override {
    refuse_het_group(request);
    const char* pbs = env("PBS_NODEFILE");
    if (pbs == nullptr) throw NoSchedulerError("PBS_NODEFILE is not set: not inside a PBS job");
    const auto& host_pattern = request.host_pattern;
    const auto* known = request.known;
    const auto text = detail::read_text_file(pbs);
    Allocation a;
    a.origin = pbs;
    detail::LineReader lines(text);
    std::string_view line;
    std::unordered_map<std::string_view, std::size_t> index;  // O(1) per line: node files of 10^6 slots
    while (lines.next(line)) {
      std::string_view host;
      if (!detail::next_token(line, host)) continue;
      if (const auto bad = std::find_if(host.begin(), host.end(),
                                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
          bad != host.end()) {
        throw InputError(pbs, lines.line_number(), "a host name holds a control byte: not a host name");
      }
      const auto [it, fresh] = index.emplace(host, a.hosts.size());
      if (!fresh) {  // one line per slot: count the CPUs
        ++a.cpus[it->second];
        continue;
      }
      a.hosts.emplace_back(host);
      a.cpus.push_back(1);
      a.nodes.push_back(
          node_of_host(host, host_pattern, std::string(pbs) + ":" + std::to_string(lines.line_number()), known));
    }
    if (a.hosts.empty()) throw InputError(pbs, "no hosts listed");
    return a;
  }
};

class NoScheduler final : public Scheduler {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "none"; }
  [[nodiscard]] bool in_job() const override { return false; }
  [[nodiscard]] Allocation allocation(const AllocationRequest& request) const override {
    refuse_het_group(request);
    throw NoSchedulerError(
        "no scheduler allocation in the environment: neither SLURM_JOB_NODELIST nor PBS_NODEFILE is set");
  }
};

}  // namespace

std::string Scheduler::add_cpu_ids(Allocation& /*allocation*/) const {
  return {};
}

Scheduler::SwitchTree Scheduler::switch_tree() const {
  return {{}, {}, std::string(name()) + " has no switch tree"};
}

const Scheduler& job_scheduler() {
  static const SlurmScheduler slurm;
  static const PbsScheduler pbs;
  static const NoScheduler none;
  for (const Scheduler* s : std::array<const Scheduler*, 2>{&slurm, &pbs}) {
    if (s->in_job()) return *s;
  }
  return none;
}

}  // namespace tmap
