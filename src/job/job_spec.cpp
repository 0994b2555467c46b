// A JobSpec's fields by key: the one vocabulary of the front ends that
// hold a job as text (the C API's tmap_job_set, the MPI layer's
// variables). Unknown keys and bad values are refused naming the key in
// the spec's words.
#include <charconv>
#include <string>
#include <utility>

#include "job/job_state.hpp"
#include "tmap/config.hpp"
#include "tmap/job.hpp"

namespace tmap {

namespace {

std::int64_t whole(std::string_view key, std::string_view value, std::int64_t lo, std::int64_t hi) {
  std::int64_t n = 0;
  const auto* end = value.data() + value.size();
  const auto [at, error] = std::from_chars(value.data(), end, n);
  if (error != std::errc{} || at != end || n < lo || n > hi) {
    throw ParameterError(std::string(key) + ": '" + std::string(value) + "' is not a whole number from " +
                         std::to_string(lo) + " to " + std::to_string(hi));
  }
  return n;
}

/// TMAP_NODE's list: SPEC or HOSTS=SPEC entries between ';' (an empty one is
/// a mistake, never "one PE a node").
void add_nodes(std::vector<std::string>& nodes, std::string_view list) {
  std::size_t start = 0;
  while (true) {
    const auto end = std::min(list.find(';', start), list.size());
    const auto entry = list.substr(start, end - start);
    if (entry.find_first_not_of(" \t") == std::string_view::npos) {
      throw ParameterError("node '" + std::string(list.substr(0, 80)) +
                           "': an empty entry between ';' (entries are SPEC or HOSTS=SPEC, e.g. "
                           "'package:2 core:12;gpu[01-04]=core:16')");
    }
    nodes.emplace_back(entry);
    if (end == list.size()) return;
    start = end + 1;
  }
}

}  // namespace

void set_job_field(JobSpec& spec, std::string_view key, std::string_view value) {
  using Kind = AllocationSource::Kind;
  auto& m = spec.machine;
  auto& a = spec.allocation;
  const std::string text(value);
  try {
    if (key == "machine") {
      m.topology = text;
    } else if (key == "hwloc-xml") {
      m.hwloc_xml = text;
    } else if (key == "node") {
      add_nodes(m.nodes, value);
    } else if (key == "host-names") {
      m.host_names = text;
    } else if (key == "hosts") {
      m.hosts_file = text;
    } else if (key == "host-pattern") {
      m.host_pattern = text;
    } else if (key == "pe") {
      if (value != "cpu" && value != "gpu") throw ParameterError("pe: '" + text + "' is neither cpu nor gpu");
      m.pe = text;
    } else if (key == "pes-per-node") {
      m.pes_per_node = whole(key, value, 1, std::int64_t{1} << 40);
    } else if (key == "comm") {
      spec.traffic.path = text;
    } else if (key == "weights") {
      spec.traffic.weights = text;
    } else if (key == "comm-format") {
      (void)comm_format_from_name(value);
      spec.traffic.format = text;
    } else if (key == "alloc") {
      a.kind = Kind::Hosts;
      a.hosts = text;
    } else if (key == "alloc-from-env") {
      a.kind = Kind::Scheduler;
    } else if (key == "constraints") {
      a.kind = Kind::PeFile;
      a.pe_file = text;
    } else if (key == "oversubscription") {
      a.oversubscription = whole(key, value, 1, kMaxRanks);
    } else if (key == "imbalance") {
      double eps = -1.0;
      const auto* end = value.data() + value.size();
      const auto [at, error] = std::from_chars(value.data(), end, eps);
      if (error != std::errc{} || at != end || !(eps >= 0.0 && eps <= 1e6)) {
        throw ParameterError(std::string(key) + ": '" + text +
                             "' is not a number from 0 to 1e6 (0.03: 3 % above the average load)");
      }
      a.imbalance = eps;
    } else if (key == "cpus-per-rank") {
      a.cpus_per_rank = whole(key, value, 1, 1 << 20);
    } else if (key == "het-group") {
      a.het_group = static_cast<int>(whole(key, value, 0, 1 << 20));
    } else if (key == "preset") {
      (void)preset(value);
      spec.context.preset = text;
    } else if (key == "config") {
      spec.context.config_file = text;
    } else if (key == "strategy") {
      (void)parse_strategy_spec(value);
      spec.context.strategy = text;
    } else if (key == "format") {
      spec.output.format = mapping_format_from_name(value);
    } else if (key == "slots") {
      if (value != "core" && value != "pu") throw ParameterError("slots: '" + text + "' is neither core nor pu");
      spec.output.slots = value == "pu" ? SlotKind::Pu : SlotKind::Core;
    } else if (key == "program") {
      spec.output.program = text;
    } else {
      // A configuration option, checked now: set on a Context of its own.
      Context check;
      set_option(check, key, value);
      spec.context.options.emplace_back(key, text);
    }
  } catch (const Error& e) {
    // "KEY: problem" or the problem alone, said with the front end's word.
    throw ParameterError(named(e.what(), key, spec.words.field(key)));
  }
}

}  // namespace tmap
