#include "run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

namespace tmap::cli {

RunResult run_strategy(const std::string& name, const Problem& problem, const Run& context,
                       const RoutingModel* routing) {
  // "NAME:REFINE" (e.g. scotch:tabu) overrides --refine for this run.
  Run run = context;
  run.strategy = name;
  if (const auto colon = name.find(':'); colon != std::string::npos) {
    run.strategy = name.substr(0, colon);
    run.refine.kind = refine_kind_from_name(name.substr(colon + 1));
  }
  const std::string& strategy = run.strategy;
  const auto start = std::chrono::steady_clock::now();
  RunResult result;
  // The strategy, its refinement and the objective's (map_with's stages,
  // whose figures the report gives).
  Run construct = run;
  // Level-1 notes (what a user must know about the result, e.g. that
  // scotch repaired Scotch's mapping) also go to the report, even under -q;
  // stderr gets what -v asks for.
  construct.hooks.verbosity = std::max(run.hooks.verbosity, 1);
  std::vector<std::string> notes;
  std::string fell_back_to;
  std::mutex notes_lock;  // strategies may note from their worker threads
  construct.hooks.log = [&notes, &run, &notes_lock](std::string_view message) {
    if (run.hooks.log && run.hooks.verbosity >= 1) run.hooks.log(message);
    const std::lock_guard lock(notes_lock);
    notes.emplace_back(message);
  };
  // A fallback of the strategy asked for (not of a candidate inside a portfolio).
  construct.hooks.fallback = [&fell_back_to, &strategy, &notes_lock](std::string_view who, std::string_view instead,
                                                                     std::string_view /*why*/) {
    const std::lock_guard lock(notes_lock);
    if (who == strategy && fell_back_to.empty()) fell_back_to = std::string(instead);
  };
  StageStats stages;
  result.mapping = map_with(strategy, problem, construct, stages);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  result.report = describe_mapping(problem, result.mapping, routing, run.link_bandwidths);
  result.report.notes = std::move(notes);
  result.report.fell_back_to = std::move(fell_back_to);
  result.report.refine = stages.refine;
  result.report.objective_refine = stages.objective;
  result.report.objective = run.objective;
  result.report.strategy = name;
  result.report.time_s = elapsed.count();
  result.report.seed = run.seed;
  result.report.threads = run.threads;
  result.report.config = option_values(run.config());
  result.report.partial = run.stopped();
  return result;
}

RunResult external_result(const std::string& spec, const Problem& problem, const RoutingModel* routing,
                          std::string_view links) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    throw InputError("--compare-file '" + spec + "': expected NAME=FILE");
  }
  const auto name = spec.substr(0, eq);
  const auto file = spec.substr(eq + 1);
  for (const auto& s : strategy_table()) {
    if (s.name == name) throw InputError("--compare-file: '" + name + "' is a strategy's name; pick another");
  }
  RunResult result;
  result.mapping = read_mapping(file, problem.topology);
  check_mapping_file(result.mapping, file, problem.comm.num_ranks(), "the matrix", problem.topology,
                     &problem.constraints);
  result.external = true;
  result.report = describe_mapping(problem, result.mapping, routing, links);
  result.report.strategy = name;
  return result;
}

std::vector<std::string> parse_strategy_list(const std::string& list) {
  std::vector<std::string> names;
  if (list == "all") {
    // auto repeats scotch's or in-order's row: every strategy but it.
    for (const auto& s : strategy_table()) {
      if (s.name != default_strategy()) names.emplace_back(s.name);
    }
    return names;
  }
  std::string_view rest = list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const auto name = rest.substr(0, comma);
    if (!name.empty()) {
      // Unknown names and refinements fail before anything runs.
      const auto colon = name.find(':');
      (void)find_strategy(name.substr(0, colon));
      if (colon != std::string_view::npos) (void)refine_kind_from_name(name.substr(colon + 1));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    }
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
  }
  if (names.empty()) {
    throw ParameterError("--compare '" + list + "': no strategy named (e.g. --compare inorder,scotch,auto, or all)");
  }
  return names;
}

namespace {

const RunResult* find_result(const std::vector<RunResult>& results, const std::vector<RunResult>& references,
                             std::string_view name) {
  for (const auto* list : {&results, &references}) {
    for (const auto& r : *list) {
      if (r.report.strategy == name) return &r;
    }
  }
  return nullptr;
}

std::optional<double> ratio(const RunResult& r, const RunResult* reference) {
  if (reference == nullptr || reference->report.metrics.hop_bytes == 0) return std::nullopt;
  return static_cast<double>(r.report.metrics.hop_bytes) / static_cast<double>(reference->report.metrics.hop_bytes);
}

std::vector<const RunResult*> sorted(const std::vector<RunResult>& results) {
  std::vector<const RunResult*> order;
  order.reserve(results.size());
  for (const auto& r : results) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const RunResult* a, const RunResult* b) {
    return a->report.metrics.hop_bytes < b->report.metrics.hop_bytes;
  });
  return order;
}

}  // namespace

std::vector<std::string> compare_notes(const Problem& problem) {
  const auto n = problem.comm.num_ranks();
  const auto pes = static_cast<Rank>(problem.constraints.allowed_pes().size());
  if (n >= pes) return {};
  return {
      fmt::format("scotch spreads the {} ranks over all {} allowed PEs (its static mapping balances load over "
                  "every PE, as scotch_gmap does): vs_scotch compares with that spread job",
                  n, pes)};
}

namespace {

/// The problem's notes, then each row that another strategy mapped.
std::vector<std::string> all_notes(const std::vector<RunResult>& results, const std::vector<std::string>& notes) {
  auto all = notes;
  for (const auto& r : results) {
    if (!r.report.fell_back_to.empty()) {
      all.push_back(fmt::format("{} could not run here: its row is {}'s mapping (see its note with -v)",
                                r.report.strategy, r.report.fell_back_to));
    }
  }
  return all;
}

}  // namespace

std::string compare_text(const std::vector<RunResult>& results, const std::vector<RunResult>& references,
                         const std::vector<std::string>& notes) {
  const auto* scotch = find_result(results, references, "scotch");
  const auto* inorder = find_result(results, references, "inorder");
  auto show = [](std::optional<double> v) { return v ? fmt::format("{:.3f}", *v) : std::string("-"); };
  // The simulated time's column only when --simulate ran.
  const bool simulated = !results.empty() && results.front().report.sim_time_s.has_value();
  std::string out =
      fmt::format("  {:<14} {:>20} {:>10} {:>10} {:>16} {:>14} {:>10}{}\n", "strategy", "hop_bytes", "vs_scotch",
                  "vs_inorder", "max_com", "mc", "time_s", simulated ? fmt::format(" {:>14}", "sim_time_s") : "");
  const auto order = sorted(results);
  for (const auto* r : order) {
    const bool best = r->report.metrics.hop_bytes == order.front()->report.metrics.hop_bytes;
    const auto mc = r->report.routes ? fmt::format("{:.1f}", r->report.routes->mc) : std::string("-");
    const auto time = r->external ? std::string("external") : fmt::format("{:.4f}", r->report.time_s);
    const auto sim = simulated && r->report.sim_time_s ? fmt::format(" {:>14.6g}", *r->report.sim_time_s) : "";
    out += fmt::format("{} {:<14} {:>20} {:>10} {:>10} {:>16} {:>14} {:>10}{}\n", best ? '*' : ' ', r->report.strategy,
                       r->report.metrics.hop_bytes, show(ratio(*r, scotch)), show(ratio(*r, inorder)),
                       r->report.metrics.max_com, mc, time, sim);
  }
  for (const auto& note : all_notes(results, notes)) out += "# " + note + "\n";
  return out;
}

std::string compare_json(const std::vector<RunResult>& results, const std::vector<RunResult>& references,
                         const std::vector<std::string>& notes) {
  const auto* scotch = find_result(results, references, "scotch");
  const auto* inorder = find_result(results, references, "inorder");
  nlohmann::ordered_json j;
  auto array = nlohmann::ordered_json::array();
  for (const auto* r : sorted(results)) {
    auto object = nlohmann::ordered_json::parse(mapping_json(r->mapping, r->report));
    const auto vs_scotch = ratio(*r, scotch);
    const auto vs_inorder = ratio(*r, inorder);
    object["vs_scotch"] = vs_scotch ? nlohmann::ordered_json(*vs_scotch) : nlohmann::ordered_json(nullptr);
    object["vs_inorder"] = vs_inorder ? nlohmann::ordered_json(*vs_inorder) : nlohmann::ordered_json(nullptr);
    if (r->external) {
      object["time_s"] = nullptr;
      object["external"] = true;
    }
    array.push_back(std::move(object));
  }
  j["best"] = array.empty() ? nlohmann::ordered_json(nullptr) : array.front()["strategy"];
  j["results"] = std::move(array);
  if (const auto said = all_notes(results, notes); !said.empty()) j["notes"] = said;
  return j.dump(2) + "\n";
}

}  // namespace tmap::cli
