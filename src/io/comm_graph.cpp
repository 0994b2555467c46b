// Undirected graphs: Scotch .grf and METIS .graph. An edge load is the total
// bytes the two ranks exchange; it is stored once (A[min][max]) so hop-bytes
// count it once (contract section 3).
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::detail {

namespace {

/// The graph with its vertex weights, whose sum must fit (every balance
/// sums them).
CommMatrix with_weights(const CommMatrix& graph, std::vector<Volume> weights, const std::string& origin) {
  Volume total = 0;
  for (const Volume w : weights) {
    if (__builtin_add_overflow(total, w, &total)) throw InputError(origin, "the vertex weights sum past 2^63-1");
  }
  return graph.with_rank_weights(std::move(weights));
}

/// Arcs in order of their tails, then heads (the order rows are checked in).
bool by_ends(const Arc& a, const Arc& b) {
  return a.from != b.from ? a.from < b.from : a.to < b.to;
}

/// Whether every arc of `arcs` (sorted by ends, rows in `row_begin`) has its
/// reverse with the same load, and none is a loop or listed twice: one pass,
/// the reverse of the j-th arc into v (by tail) being row v's j-th arc.
bool symmetric_and_simple(const std::vector<Arc>& arcs, const std::vector<std::size_t>& row_begin) {
  std::vector<std::size_t> next_in_row(row_begin.begin(), row_begin.end() - 1);
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const auto& a = arcs[k];
    if (a.from == a.to || (k > 0 && arcs[k - 1].from == a.from && arcs[k - 1].to == a.to)) return false;
    auto& at = next_in_row[static_cast<std::size_t>(a.to)];
    if (at == row_begin[static_cast<std::size_t>(a.to) + 1]) return false;
    const auto& reverse = arcs[at++];
    if (reverse.to != a.from || reverse.load != a.load) return false;
  }
  return true;
}

/// The first arc (by ends) that is a loop, listed twice, without its
/// reverse or with another load than it: the InputError naming it.
void refuse_first_bad_arc(const std::vector<Arc>& arcs, const std::vector<std::int64_t>& line_of_vertex,
                          const std::string& origin, std::int64_t base) {
  auto name = [base](Rank v) { return std::to_string(v + base); };
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const auto& a = arcs[k];
    const auto line = line_of_vertex[a.from];
    if (a.from == a.to) throw InputError(origin, line, "vertex " + name(a.from) + " has a loop (an edge to itself)");
    if (k > 0 && arcs[k - 1].from == a.from && arcs[k - 1].to == a.to) {
      throw InputError(origin, line, "vertex " + name(a.from) + " lists neighbour " + name(a.to) + " twice");
    }
    const Arc reverse{a.to, a.from, 0};
    const auto it = std::lower_bound(arcs.begin(), arcs.end(), reverse, by_ends);
    if (it == arcs.end() || it->from != a.to || it->to != a.from) {
      throw InputError(origin, line,
                       "edge " + name(a.from) + "-" + name(a.to) + " is missing from vertex " + name(a.to) +
                           "'s list (graphs must be undirected)");
    }
    if (it->load != a.load) {
      throw InputError(origin, line,
                       "edge " + name(a.from) + "-" + name(a.to) + " has load " + std::to_string(a.load) +
                           " here but " + std::to_string(it->load) + " in vertex " + name(a.to) + "'s list");
    }
  }
}

}  // namespace

CommMatrix graph_to_matrix(Rank n, std::vector<Arc> arcs, const std::vector<std::int64_t>& line_of_vertex,
                           const std::string& origin, std::int64_t base) {
  // The readers list arcs vertex by vertex, often each row in order too.
  if (!std::is_sorted(arcs.begin(), arcs.end(), by_ends)) std::sort(arcs.begin(), arcs.end(), by_ends);
  std::vector<std::size_t> row_begin(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& a : arcs) ++row_begin[static_cast<std::size_t>(a.from) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(n); ++v) row_begin[v + 1] += row_begin[v];
  // One linear pass checks a good graph (a binary search for each arc's
  // reverse took 60 % of reading a million-vertex graph); a bad one is
  // searched arc by arc for the message.
  if (!symmetric_and_simple(arcs, row_begin)) {
    refuse_first_bad_arc(arcs, line_of_vertex, origin, base);
    throw InputError(origin, "the graph is not undirected");  // (the search names the arc)
  }
  row_begin = {};
  std::vector<CommEntry> entries;
  entries.reserve(arcs.size() / 2);
  for (const auto& a : arcs) {
    if (a.from < a.to) entries.push_back({a.from, a.to, a.load});
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

CommMatrix parse_scotch_graph(std::string_view text, const std::string& origin) {
  TokenStream in(text, origin);
  const auto version = in.expect("the graph file version (0)");
  if (version != "0") in.fail("unsupported Scotch graph version " + quote(version) + " (expected 0)");
  const auto n = in.expect_int("number of vertices", 0, kMaxRanks);
  const auto arc_count = in.expect_int("number of arcs", 0, kMaxRanks);
  // Each vertex needs a degree and each arc an end: refuse sizes the text
  // cannot hold before allocating for them.
  if (n + arc_count > static_cast<std::int64_t>(text.size())) {
    in.fail("the header announces " + std::to_string(n) + " vertices and " + std::to_string(arc_count) +
            " arcs, more than the file can hold");
  }
  const auto base = in.expect_int("base value", 0, 1);
  const auto flags = in.expect("the 3-digit format flag");
  if (flags.size() > 3 || flags.find_first_not_of("01") != std::string_view::npos) {
    in.fail("the format flag must be three digits 0/1 (labels, edge loads, vertex loads), found " + quote(flags));
  }
  const std::string padded = std::string(3 - flags.size(), '0') + std::string(flags);
  const bool labels = padded[0] == '1';
  const bool edge_loads = padded[1] == '1';
  const bool vertex_loads = padded[2] == '1';

  std::vector<std::int64_t> line_of_vertex(static_cast<std::size_t>(n));
  std::vector<std::int64_t> label_of(labels ? static_cast<std::size_t>(n) : 0);
  std::vector<Volume> weights(vertex_loads ? static_cast<std::size_t>(n) : 0);
  struct RawArc {
    Rank from;
    std::int64_t end;
    Volume load;
  };
  std::vector<RawArc> raw;
  raw.reserve(static_cast<std::size_t>(arc_count));
  constexpr auto kAny = std::numeric_limits<std::int64_t>::max();
  for (Rank v = 0; v < n; ++v) {
    const std::string who = "vertex " + std::to_string(v + base);
    // A vertex reads: [label] [load] degree, then degree times [edge load] neighbour.
    std::int64_t degree = 0;
    if (labels) {
      label_of[v] = in.expect_int(who + " label", 0, kAny);
      line_of_vertex[v] = in.line();
    }
    if (vertex_loads) {
      weights[v] = in.expect_int(who + " load", 0, kAny);
      if (!labels) line_of_vertex[v] = in.line();
    }
    degree = in.expect_int(who + " degree", 0, arc_count);
    if (!labels && !vertex_loads) line_of_vertex[v] = in.line();
    for (std::int64_t e = 0; e < degree; ++e) {
      const Volume load = edge_loads ? parse_volume(in.expect(who + " edge load"), origin, in.line()) : 1;
      raw.push_back({v, in.expect_int(who + " neighbour", 0, kAny), load});
    }
    if (static_cast<std::int64_t>(raw.size()) > arc_count) {
      in.fail("more arcs than the " + std::to_string(arc_count) + " announced in the header");
    }
  }
  std::string_view extra;
  if (in.next(extra)) in.fail("unexpected data after the last vertex: " + quote(extra));
  if (static_cast<std::int64_t>(raw.size()) != arc_count) {
    throw InputError(origin, "the header announces " + std::to_string(arc_count) + " arcs but the vertices list " +
                                 std::to_string(raw.size()));
  }
  // Resolve neighbour numbers: labels when given, else base-relative indices.
  std::unordered_map<std::int64_t, Rank> index_of_label;
  if (labels) {
    for (Rank v = 0; v < n; ++v) {
      if (!index_of_label.emplace(label_of[v], v).second) {
        throw InputError(origin, line_of_vertex[v], "vertex label " + std::to_string(label_of[v]) + " is used twice");
      }
    }
  }
  std::vector<Arc> arcs;
  arcs.reserve(raw.size());
  for (const auto& r : raw) {
    Rank to = -1;
    if (labels) {
      const auto it = index_of_label.find(r.end);
      if (it != index_of_label.end()) to = it->second;
    } else if (r.end >= base && r.end < n + base) {
      to = r.end - base;
    }
    if (to < 0) {
      throw InputError(
          origin, line_of_vertex[r.from],
          "vertex " + std::to_string(r.from + base) + " has an unknown neighbour " + std::to_string(r.end));
    }
    arcs.push_back({r.from, to, r.load});
  }
  return with_weights(graph_to_matrix(n, std::move(arcs), line_of_vertex, origin, base), std::move(weights), origin);
}

CommMatrix parse_metis_graph(std::string_view text, const std::string& origin) {
  LineReader lines(text);
  std::string_view line;
  auto next_non_comment = [&]() {
    while (lines.next(line)) {
      const auto first = first_not_blank(line);
      if (first == std::string_view::npos || line[first] != '%') return true;
    }
    return false;
  };
  // Header: the first line that is neither a comment nor blank.
  do {
    if (!next_non_comment()) throw InputError(origin, "no graph found (the file is empty)");
  } while (is_blank(line));
  std::vector<std::string_view> head;
  std::string_view rest = line;
  std::string_view token;
  while (next_token(rest, token)) head.push_back(token);
  const auto at = lines.line_number();
  if (head.size() < 2 || head.size() > 4) throw InputError(origin, at, "expected the header 'n m [fmt [ncon]]'");
  const auto n = parse_int_in(head[0], 0, kMaxRanks, "number of vertices", origin, at);
  const auto m = parse_int_in(head[1], 0, kMaxRanks, "number of edges", origin, at);
  // One line per vertex, two numbers per edge end: refuse what cannot fit.
  const auto lines_left = static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (n > lines_left || 2 * m > static_cast<std::int64_t>(text.size())) {
    throw InputError(origin, at,
                     "the header announces " + std::to_string(n) + " vertices and " + std::to_string(m) +
                         " edges, more than the file can hold");
  }
  std::string fmt = head.size() > 2 ? std::string(head[2]) : "0";
  if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos) {
    throw InputError(origin, at, "the format must be up to three digits 0/1, found " + quote(fmt));
  }
  fmt = std::string(3 - fmt.size(), '0') + fmt;
  const bool sizes = fmt[0] == '1';
  const bool vertex_weights = fmt[1] == '1';
  const bool edge_weights = fmt[2] == '1';
  const auto ncon = head.size() > 3 ? parse_int_in(head[3], 1, 1024, "ncon", origin, at) : 1;

  std::vector<std::int64_t> line_of_vertex(static_cast<std::size_t>(n));
  // With several constraints (ncon), the first weight is the one balanced.
  std::vector<Volume> weights(vertex_weights ? static_cast<std::size_t>(n) : 0);
  std::vector<Arc> arcs;
  arcs.reserve(static_cast<std::size_t>(2 * m));
  for (Rank v = 0; v < n; ++v) {
    if (!next_non_comment()) {
      throw InputError(
          origin, "the header announces " + std::to_string(n) + " vertices but the file lists " + std::to_string(v));
    }
    const auto here = lines.line_number();
    line_of_vertex[v] = here;
    rest = line;
    std::vector<std::string_view> t;
    while (next_token(rest, token)) t.push_back(token);
    std::size_t k = 0;
    const std::size_t skip = (sizes ? 1 : 0) + (vertex_weights ? static_cast<std::size_t>(ncon) : 0);
    if (t.size() < skip) throw InputError(origin, here, "missing vertex size or weights");
    for (; k < skip; ++k) {
      const auto value = parse_int_in(t[k], 0, std::numeric_limits<std::int64_t>::max(),
                                      sizes && k == 0 ? "vertex size" : "vertex weight", origin, here);
      if (vertex_weights && k == (sizes ? 1U : 0U)) weights[v] = value;
    }
    const std::size_t step = edge_weights ? 2 : 1;
    if ((t.size() - skip) % step != 0) throw InputError(origin, here, "a neighbour is missing its edge weight");
    for (; k < t.size(); k += step) {
      const auto to = parse_int_in(t[k], 1, n, "neighbour", origin, here) - 1;
      const Volume w = edge_weights ? parse_volume(t[k + 1], origin, here) : 1;
      arcs.push_back({v, to, w});
    }
  }
  while (next_non_comment()) {
    if (!is_blank(line))
      throw InputError(origin, lines.line_number(), "more vertex lines than the " + std::to_string(n) + " announced");
  }
  if (static_cast<std::int64_t>(arcs.size()) != 2 * m) {
    throw InputError(origin, "the header announces " + std::to_string(m) + " edges but the vertex lines hold " +
                                 std::to_string(arcs.size()) + " edge ends (each edge appears twice)");
  }
  return with_weights(graph_to_matrix(n, std::move(arcs), line_of_vertex, origin, 1), std::move(weights), origin);
}

}  // namespace tmap::detail
