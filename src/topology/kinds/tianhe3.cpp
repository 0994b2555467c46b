// Tianhe-3 (tmap/tianhe3.hpp, the OHTMA paper's machine): its spec
// (tianhe3:RxC[,nodes=N][,cores=K]), distances, graph, routes, Scotch target
// and row. Its node trees, files and recognition in a deco are
// topology/tianhe3_*.cpp.
#include "topology/tianhe3.hpp"

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "topology/deco.hpp"
#include "topology/distance_graph.hpp"
#include "topology/kinds/kind.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

constexpr std::int64_t kMaxNodes = std::int64_t{1} << 32;

[[noreturn]] void bad_spec(std::string_view spec, const std::string& problem) {
  throw InputError("topology '" + std::string(spec) + "': " + problem +
                   " (expected tianhe3:RxC[,nodes=N][,cores=K], e.g. tianhe3:4x4,cores=64)");
}

std::int64_t positive(std::string_view spec, std::string_view text, std::string_view what) {
  std::int64_t value = 0;
  if (!detail::parse_int(text, value) || value < 1) {
    bad_spec(spec, std::string(what) + " must be a positive integer, found " + detail::quote(text));
  }
  return value;
}

}  // namespace

Tianhe3Shape parse_tianhe3_spec(std::string_view spec) {
  constexpr std::string_view kPrefix = "tianhe3:";
  if (!spec.starts_with(kPrefix)) bad_spec(spec, "not a tianhe3 spec");
  std::string_view rest = spec.substr(kPrefix.size());
  std::string_view item;
  Tianhe3Shape shape;
  if (!detail::next_token(rest, item, ",")) bad_spec(spec, "missing RxC");
  const auto x = item.find('x');
  if (x == std::string_view::npos) bad_spec(spec, "missing RxC");
  shape.rows = positive(spec, item.substr(0, x), "rows");
  shape.cols = positive(spec, item.substr(x + 1), "columns");
  bool seen_nodes = false;
  bool seen_cores = false;
  while (detail::next_token(rest, item, ",")) {
    const auto eq = item.find('=');
    const auto key = item.substr(0, eq);
    const auto value = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    if (key == "nodes" && !seen_nodes) {
      shape.nodes = positive(spec, value, "nodes");
      seen_nodes = true;
    } else if (key == "cores" && !seen_cores) {
      shape.cores = positive(spec, value, "cores");
      seen_cores = true;
    } else {
      bad_spec(spec, "unknown or repeated option " + detail::quote(item));
    }
  }
  if (shape.nodes % 2 != 0) bad_spec(spec, "nodes per chip must be even (two halves)");
  return shape;
}

Tianhe3Topology::Tianhe3Topology(const Tianhe3Shape& shape) : shape_(shape) {
  if (shape.rows < 1 || shape.cols < 1 || shape.nodes < 2 || shape.nodes % 2 != 0 || shape.cores < 1) {
    throw InputError("tianhe3: rows, columns and cores must be positive, nodes per chip even");
  }
  if (shape.rows * shape.cols > kMaxNodes / shape.nodes ||
      shape.rows * shape.cols * shape.nodes > kMaxNodes / shape.cores) {
    throw InputError("tianhe3: more than 2^32 PEs");
  }
}

void Tianhe3Topology::distances_from(PE a, std::span<const PE> bs, std::span<Distance> out) const {
  // Every node of a chip half (nodes per chip are even: checked when the
  // shape is read) but a's own is equally far from a: along
  // sorted PEs the divisions run once per half, not once per PE (a row of
  // the 24,576-node table of a million ranks went from 8 divisions a pair
  // to a comparison).
  const PE half_pes = (shape_.nodes / 2) * shape_.cores;
  const NodeId node_a = a / shape_.cores;
  const PE own_lo = node_a * shape_.cores;
  const PE own_hi = own_lo + shape_.cores;
  PE half_lo = 0;
  PE half_hi = 0;  // no half yet
  Distance half_distance = 0;
  for (std::size_t k = 0; k < bs.size(); ++k) {
    const PE b = bs[k];
    if (b >= own_lo && b < own_hi) {
      out[k] = 0;
      continue;
    }
    if (b < half_lo || b >= half_hi) {
      half_lo = b / half_pes * half_pes;
      half_hi = half_lo + half_pes;
      half_distance = node_hops(node_a, b / shape_.cores);
    }
    out[k] = half_distance;
  }
}

Distance Tianhe3Topology::max_distance() const {
  return 2 + (shape_.rows > 1 ? 2 : 0) + (shape_.cols > 1 ? 2 : 0);
}

std::string Tianhe3Topology::description() const {
  return "tianhe3:" + std::to_string(shape_.rows) + "x" + std::to_string(shape_.cols) +
         ",nodes=" + std::to_string(shape_.nodes) + ",cores=" + std::to_string(shape_.cores);
}

std::string Tianhe3Topology::to_tgt() const {
  std::vector<NodeId> nodes(static_cast<std::size_t>(num_nodes()));
  for (NodeId v = 0; v < num_nodes(); ++v) nodes[v] = v;
  return deco_target(nodes);
}

std::string Tianhe3Topology::deco_target(std::span<const NodeId> nodes) const {
  if (static_cast<std::int64_t>(nodes.size()) > kMaxDecoNodes) {
    throw ResourceError("a Scotch deco target of " + std::to_string(nodes.size()) + " nodes would hold " +
                        std::to_string(static_cast<std::int64_t>(nodes.size()) * (nodes.size() - 1) / 2) +
                        " distances; above " + std::to_string(kMaxDecoNodes) +
                        " nodes give the job's nodes as an allocation, or use the built-in spec " + description() +
                        ", which needs no file");
  }
  // Terminal labels are the node ids, so scotch_gmap's .map names the
  // nodes, and tm-map reading the file knows which nodes it describes.
  return format_deco0_labelled(std::vector<std::int64_t>(nodes.begin(), nodes.end()),
                               std::vector<std::int64_t>(nodes.size(), shape_.cores),
                               [&](std::int64_t a, std::int64_t b) { return node_hops(nodes[a], nodes[b]); });
}

std::unique_ptr<RoutingModel> Tianhe3Topology::routing_model() const {
  return std::make_unique<routing::Tianhe3Routing>(shape_.rows, shape_.cols, shape_.nodes, shape_.cores);
}

/// Nodes hang off their chip half's switch (1 each way: a node to a node of
/// its half is 1 hop, scale 2); the halves of a chip are joined by 2, and a
/// switch reaches the same half of every chip in its row and in its column
/// by 4, so paths add 1 + [sides differ] + 2 [rows differ] + 2 [columns
/// differ] hops, each at most once.
DistanceGraph Tianhe3Topology::distance_graph() const {
  const auto& shape = shape_;
  const auto chips = shape.rows * shape.cols;
  const NodeId nodes = num_nodes();
  const auto half = shape.nodes / 2;
  const auto switch_of = [&](std::int64_t chip, std::int64_t side) { return nodes + chip * 2 + side; };
  EdgeList edges(nodes + chips * 2);
  for (NodeId v = 0; v < nodes; ++v) edges.add(v, switch_of(v / shape.nodes, (v % shape.nodes) / half), 1);
  for (std::int64_t chip = 0; chip < chips; ++chip) {
    const auto row = chip / shape.cols;
    const auto col = chip % shape.cols;
    edges.add(switch_of(chip, 0), switch_of(chip, 1), 2);
    for (std::int64_t side = 0; side < 2; ++side) {
      for (auto c = col + 1; c < shape.cols; ++c)
        edges.add(switch_of(chip, side), switch_of(row * shape.cols + c, side), 4);
      for (auto r = row + 1; r < shape.rows; ++r)
        edges.add(switch_of(chip, side), switch_of(r * shape.cols + col, side), 4);
    }
  }
  return one_vertex_per_node(edges, *this, 2);
}

namespace {

bool recognise(const MachineInput& input) {
  return !input.is_file() && input.text().starts_with("tianhe3:");
}

std::unique_ptr<Topology> load(const MachineInput& input) {
  return std::make_unique<Tianhe3Topology>(parse_tianhe3_spec(input.text()));
}

std::vector<KindExample> examples() {
  return {{"tianhe3:2x3,nodes=4"}, {"tianhe3:1x2,nodes=4,cores=2"}, {"tianhe3:1x1,nodes=2,cores=1"}};
}

}  // namespace

MachineKind tianhe3_kind() {
  return {.name = "tianhe3",
          .how_written = "tianhe3:RxC",
          .spec_words = {"tianhe3"},
          .recognise = recognise,
          .load = load,
          .examples = examples};
}

}  // namespace tmap::topo
