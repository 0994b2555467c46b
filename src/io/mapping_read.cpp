// Reading mappings (perm, json, TopoMatch, Scotch .map, Cray MPICH rank
// orders, recognised from the content; tm-eval and --compare-file) and
// TopoMatch constraint files.
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "io/rank_order.hpp"
#include "io/topomatch_prefix.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/io.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

/// Calls f(token, line) for each item of a hand-written list of numbers:
/// separated by white space or commas, `#` starts a comment.
template <typename F>
void for_each_listed(std::string_view text, F&& f) {
  detail::LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = detail::strip_comment(line, '#');
    std::string_view token;
    while (detail::next_token(line, token, " \t\r\v\f,")) f(token, lines.line_number());
  }
}

[[noreturn]] void bad(const std::string& origin, std::int64_t line, const std::string& problem) {
  if (line > 0) throw InputError(origin, line, problem);
  throw InputError(origin, problem);
}

Mapping parse_json_mapping(std::string_view text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse errors and numbers out of range
    bad(origin, 0, std::string("invalid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("mapping") || !j["mapping"].is_array()) {
    bad(origin, 0, "a JSON mapping needs a \"mapping\" array");
  }
  Mapping m;
  for (const auto& v : j["mapping"]) {
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > std::numeric_limits<PE>::max())) {
      bad(origin, 0, "\"mapping\" must hold integer PE ids");
    }
    m.push_back(v.get<PE>());
  }
  return m;
}

Mapping parse_topomatch_mapping(std::string_view text, const std::string& origin) {
  text.remove_prefix(text.find(detail::kTopoMatchPrefix) + detail::kTopoMatchPrefix.size());
  Mapping m;
  std::string_view token;
  while (detail::next_token(text, token, ", \t\r\n")) {
    m.push_back(detail::parse_int_in(token, 0, std::numeric_limits<PE>::max(), "PE id", origin, 1));
  }
  return m;
}

}  // namespace

Mapping parse_mapping(std::string_view text, const std::string& origin, bool* was_scotch) {
  if (was_scotch != nullptr) *was_scotch = false;
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) bad(origin, 0, "no mapping found (the file is empty)");
  if (text[first] == '{') return parse_json_mapping(text, origin);
  if (text.substr(first).starts_with(detail::kTopoMatchPrefix)) return parse_topomatch_mapping(text, origin);
  if (detail::looks_like_rank_order(text)) {
    bad(origin, 0, "a Cray MPICH rank order (MPICH_RANK_ORDER) names ranks, not PEs: read it against the machine");
  }

  // perm (one PE per line) or Scotch .map ("count" then "label terminal").
  struct Row {
    std::int64_t line;
    std::vector<std::string_view> tokens;
  };
  std::vector<Row> rows;
  detail::LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = detail::strip_comment(line, '#');
    if (detail::is_blank(line)) continue;
    Row row{lines.line_number(), {}};
    std::string_view token;
    while (detail::next_token(line, token)) row.tokens.push_back(token);
    rows.push_back(std::move(row));
  }
  constexpr auto kAny = std::numeric_limits<std::int64_t>::max();
  const bool scotch = rows.size() >= 2 && rows[0].tokens.size() == 1 && rows[1].tokens.size() == 2;
  if (was_scotch != nullptr) *was_scotch = scotch;
  Mapping m;
  if (!scotch) {
    for (const auto& row : rows) {
      if (row.tokens.size() != 1) {
        bad(origin, row.line, "expected one PE id per line, found " + std::to_string(row.tokens.size()) + " values");
      }
      m.push_back(detail::parse_int_in(row.tokens[0], 0, kAny, "PE id", origin, row.line));
    }
    return m;
  }
  const auto count = detail::parse_int_in(rows[0].tokens[0], 0, kAny, "number of entries", origin, rows[0].line);
  if (static_cast<std::int64_t>(rows.size()) - 1 != count) {
    bad(origin, 0,
        "the Scotch mapping announces " + std::to_string(count) + " entries but holds " +
            std::to_string(rows.size() - 1));
  }
  std::vector<std::pair<std::int64_t, PE>> entries;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto& row = rows[k];
    if (row.tokens.size() != 2) bad(origin, row.line, "expected 'vertex terminal'");
    entries.emplace_back(detail::parse_int_in(row.tokens[0], 0, kAny, "vertex", origin, row.line),
                         detail::parse_int_in(row.tokens[1], 0, kAny, "terminal", origin, row.line));
  }
  // Vertex labels are 0-based, or 1-based when Scotch's graph had baseval 1.
  std::int64_t base = count;
  for (const auto& e : entries) base = std::min(base, e.first);
  if (base > 1) base = 0;
  m.assign(static_cast<std::size_t>(count), -1);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const auto v = entries[k].first - base;
    if (v < 0 || v >= count)
      bad(origin, rows[k + 1].line, "vertex " + std::to_string(entries[k].first) + " out of range");
    if (m[v] != -1) bad(origin, rows[k + 1].line, "vertex " + std::to_string(entries[k].first) + " is mapped twice");
    m[v] = entries[k].second;
  }
  return m;
}

Mapping read_mapping(const std::string& path) {
  return parse_mapping(read_file(path), path);
}

Mapping read_mapping(const std::string& path, const Topology& topology) {
  return read_mapping(path, topology, Constraints::all(topology));
}

Mapping read_mapping(const std::string& path, const Topology& topology, const Constraints& constraints) {
  const auto text = read_file(path);
  if (detail::looks_like_rank_order(text)) {
    const auto file = detail::parse_rank_order(text, path);
    return rank_order_placement(file.order, file.per_node, topology, constraints, path);
  }
  bool scotch = false;
  auto mapping = parse_mapping(text, path, &scotch);
  if (!scotch || !scotch_terminals_are_nodes(topology)) return mapping;
  // A Scotch .map names terminals = nodes (by label), as scotch_gmap writes
  // for a deco target of weighted terminals: each node's ranks get its
  // slots in rank order, the allowed PEs each `capacity` times, PE after PE
  // (as tm-map wrote them with -o K).
  std::vector<std::vector<PE>> slots_of(static_cast<std::size_t>(topology.num_nodes()));
  for (const PE p : constraints.allowed_pes()) {
    auto& slots = slots_of[static_cast<std::size_t>(topology.node_of(p))];
    slots.insert(slots.end(), static_cast<std::size_t>(constraints.capacity()), p);
  }
  std::vector<std::size_t> used(slots_of.size(), 0);
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto node = node_with_label(topology, mapping[r]);
    if (!node) {
      throw InputError(path, "rank " + std::to_string(r) + " is on terminal " + std::to_string(mapping[r]) +
                                 ", which the target does not have");
    }
    const auto& slots = slots_of[static_cast<std::size_t>(*node)];
    const auto terminal = "terminal " + std::to_string(mapping[r]) + " (" + host_name(topology, *node) + ")";
    if (slots.empty()) {
      throw InputError(path, "rank " + std::to_string(r) + " is on " + terminal + ", none of whose PEs is allowed");
    }
    auto& k = used[static_cast<std::size_t>(*node)];
    if (k == slots.size()) {
      throw InputError(path, terminal + " gets more than its " + std::to_string(slots.size()) + " rank(s), from rank " +
                                 std::to_string(r) + " on");
    }
    mapping[r] = slots[k++];
  }
  return mapping;
}

std::vector<Volume> read_rank_weights(const std::string& path, Rank num_ranks) {
  return parse_rank_weights(read_file(path), path, num_ranks);
}

std::vector<Volume> parse_rank_weights(std::string_view text, const std::string& origin, Rank num_ranks) {
  std::vector<Volume> weights;
  Volume total = 0;
  for_each_listed(text, [&](std::string_view token, std::int64_t at) {
    if (static_cast<Rank>(weights.size()) == num_ranks) {
      throw InputError(origin, at, "more weights than the " + std::to_string(num_ranks) + " ranks");
    }
    const auto w = detail::parse_int_in(token, 0, std::numeric_limits<Volume>::max(), "rank weight", origin, at);
    if (__builtin_add_overflow(total, w, &total)) throw InputError(origin, at, "the weights sum past 2^63-1");
    weights.push_back(w);
  });
  if (static_cast<Rank>(weights.size()) != num_ranks) {
    throw InputError(origin, "expected " + std::to_string(num_ranks) + " weights (one a rank, in rank order), found " +
                                 std::to_string(weights.size()));
  }
  return weights;
}

std::vector<PE> read_pe_list(const std::string& path, PE num_pes) {
  return parse_pe_list(read_file(path), path, num_pes);
}

std::vector<PE> parse_pe_list(std::string_view text, const std::string& path, PE num_pes) {
  std::vector<PE> pes;
  std::vector<std::int64_t> line_of(static_cast<std::size_t>(num_pes), 0);
  for_each_listed(text, [&](std::string_view token, std::int64_t at) {
    const auto pe = detail::parse_int_in(token, 0, num_pes - 1, "PE id", path, at);
    if (line_of[pe] != 0) {
      throw InputError(
          path, at,
          "PE " + std::to_string(pe) + " is listed twice (first on line " + std::to_string(line_of[pe]) + ")");
    }
    line_of[pe] = at;
    pes.push_back(pe);
  });
  if (pes.empty()) throw InputError(path, "no PE ids found");
  return pes;
}

}  // namespace tmap
