// --compare's table and JSON.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "io/report_tree.hpp"
#include "tmap/compare.hpp"

namespace tmap {

namespace {

const ReportedMapping* find_row(const Comparison& c, std::string_view name) {
  for (const auto* list : {&c.results, &c.references}) {
    for (const auto& r : *list) {
      if (r.report.strategy == name) return &r;
    }
  }
  return nullptr;
}

std::optional<double> ratio(const ReportedMapping& r, const ReportedMapping* reference) {
  if (reference == nullptr || reference->report.metrics.hop_bytes == 0) return std::nullopt;
  return static_cast<double>(r.report.metrics.hop_bytes) / static_cast<double>(reference->report.metrics.hop_bytes);
}

/// The rows by hop-bytes (ties in run order).
std::vector<const ReportedMapping*> sorted(const std::vector<ReportedMapping>& results) {
  std::vector<const ReportedMapping*> order;
  order.reserve(results.size());
  for (const auto& r : results) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return a->report.metrics.hop_bytes < b->report.metrics.hop_bytes;
  });
  return order;
}

/// The problem's notes, then each row that another strategy mapped.
std::vector<std::string> all_notes(const Comparison& c) {
  auto all = c.notes;
  for (const auto& r : c.results) {
    if (!r.report.fell_back_to.empty()) {
      all.push_back(fmt::format("{} could not run here: its row is {}'s mapping (see its note with -v)",
                                r.report.strategy, r.report.fell_back_to));
    }
  }
  return all;
}

}  // namespace

std::string comparison_text(const Comparison& c) {
  const auto* scotch = find_row(c, "scotch");
  const auto* inorder = find_row(c, "inorder");
  auto show = [](std::optional<double> v) { return v ? fmt::format("{:.3f}", *v) : std::string("-"); };
  // The simulated time's column only when the rows were simulated.
  const bool simulated = !c.results.empty() && c.results.front().report.sim_time_s.has_value();
  // The strategy column as wide as its longest label (inorder:swap+congestion).
  std::size_t width = 14;
  for (const auto& r : c.results) width = std::max(width, r.report.strategy.size());
  std::string out =
      fmt::format("  {:<{}} {:>20} {:>10} {:>10} {:>16} {:>14} {:>10}{}\n", "strategy", width, "hop_bytes", "vs_scotch",
                  "vs_inorder", "max_com", "mc", "time_s", simulated ? fmt::format(" {:>14}", "sim_time_s") : "");
  const auto order = sorted(c.results);
  for (const auto* r : order) {
    const bool best = r->report.metrics.hop_bytes == order.front()->report.metrics.hop_bytes;
    const auto mc = r->report.routes ? fmt::format("{:.1f}", r->report.routes->mc) : std::string("-");
    const auto time = r->external ? std::string("external") : fmt::format("{:.4f}", r->report.time_s);
    const auto sim = simulated && r->report.sim_time_s ? fmt::format(" {:>14.6g}", *r->report.sim_time_s) : "";
    out += fmt::format("{} {:<{}} {:>20} {:>10} {:>10} {:>16} {:>14} {:>10}{}\n", best ? '*' : ' ', r->report.strategy,
                       width, r->report.metrics.hop_bytes, show(ratio(*r, scotch)), show(ratio(*r, inorder)),
                       r->report.metrics.max_com, mc, time, sim);
  }
  for (const auto& note : all_notes(c)) out += "# " + note + "\n";
  return out;
}

namespace {

nlohmann::ordered_json comparison_tree(const Comparison& c) {
  const auto* scotch = find_row(c, "scotch");
  const auto* inorder = find_row(c, "inorder");
  nlohmann::ordered_json j;
  auto array = nlohmann::ordered_json::array();
  for (const auto* r : sorted(c.results)) {
    auto object = mapping_tree(r->mapping, r->report);
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
  if (const auto said = all_notes(c); !said.empty()) j["notes"] = said;
  return j;
}

}  // namespace

std::string comparison_json(const Comparison& c) {
  return comparison_tree(c).dump(2) + "\n";
}

void write_comparison(const Comparison& comparison, ReportWriter& out) {
  write_tree(comparison_tree(comparison), out);
}

}  // namespace tmap
