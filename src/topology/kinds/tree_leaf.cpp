// Scotch "tleaf" and "ltleaf" trees: the kind's machine (kinds/tree_leaf.hpp,
// also the frame of Tianhe-3's node trees), its graph, Scotch words and row.
#include "topology/kinds/tree_leaf.hpp"

#include "tmap/error.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology_views.hpp"
#include "topology/distance_graph.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

TreeLeafTopology::TreeLeafTopology(std::vector<std::int64_t> fanouts, std::vector<Distance> link_costs,
                                   std::vector<std::int64_t> permutation, std::size_t node_levels)
    : fanouts_(std::move(fanouts)),
      links_(std::move(link_costs)),
      permutation_(std::move(permutation)),
      node_levels_(node_levels) {
  if (fanouts_.empty() || fanouts_.size() != links_.size()) {
    throw InputError("tleaf: needs at least one level and one link cost per level");
  }
  if (node_levels_ < 1 || node_levels_ > fanouts_.size()) throw InternalError("tleaf: a node spans 1..L levels");
  for (const auto f : fanouts_) {
    if (f < 1) throw InputError("tleaf: every level needs a fan-out of at least 1");
    if (size_ > (PE{1} << 40) / f) throw InputError("tleaf: more than 2^40 PEs");
    size_ *= f;
  }
  for (std::size_t k = fanouts_.size() - node_levels_; k < fanouts_.size(); ++k) node_pes_ *= fanouts_[k];
  suffix_cost_.assign(links_.size() + 1, 0);
  for (std::size_t k = links_.size(); k-- > 0;) {
    // Scotch refuses a zero cost too; staying compatible keeps our saved
    // targets loadable by Scotch's tools.
    if (links_[k] < 1) throw InputError("tleaf: link costs must be positive");
    suffix_cost_[k] = suffix_cost_[k + 1] + links_[k];
  }
  if (!permutation_.empty()) {
    // The permutation covers a whole block of the lowest levels (or is the
    // trivial one of size 1), as Scotch requires.
    const auto p = static_cast<std::int64_t>(permutation_.size());
    bool block = p == 1;
    for (std::int64_t k = static_cast<std::int64_t>(fanouts_.size()), size = 1; k-- > 0 && !block;) {
      size *= fanouts_[static_cast<std::size_t>(k)];
      block = size == p;
    }
    if (!block) throw InputError("ltleaf: the permutation size must match a block of the lowest levels");
    inverse_.assign(permutation_.size(), -1);
    for (std::size_t i = 0; i < permutation_.size(); ++i) {
      const auto v = permutation_[i];
      if (v < 0 || v >= p || inverse_[static_cast<std::size_t>(v)] >= 0) {
        throw InputError("ltleaf: the permutation must hold each of 0.." + std::to_string(p - 1) + " once");
      }
      inverse_[static_cast<std::size_t>(v)] = static_cast<std::int64_t>(i);
    }
  }
}

Topology::NodeChoice TreeLeafTopology::node_choice() const {
  NodeChoice choice;
  PE pes = 1;
  for (std::size_t k = fanouts_.size(); k-- > 0;) {
    pes *= fanouts_[k];
    // A level of fan-out 1 adds no size of its own.
    if (choice.sizes.empty() || choice.sizes.back() != pes) choice.sizes.push_back(pes);
  }
  choice.taken = node_pes_;
  return choice;
}

std::unique_ptr<Topology> TreeLeafTopology::with_node_pes(PE pes) const {
  PE below = 1;
  for (std::size_t levels = 1; levels <= fanouts_.size(); ++levels) {
    below *= fanouts_[fanouts_.size() - levels];
    if (below == pes) {
      auto regrouped = std::make_unique<TreeLeafTopology>(fanouts_, links_, permutation_, levels);
      regrouped->set_scotch_source(scotch_source());
      return regrouped;
    }
  }
  return nullptr;
}

Distance TreeLeafTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  a = leaf(a);
  b = leaf(b);
  // Walk up from the leaves; the last level at which the digits differ is
  // the highest level where the paths split.
  std::size_t split = 0;
  for (std::size_t k = fanouts_.size(); k-- > 0;) {
    if (a % fanouts_[k] != b % fanouts_[k]) split = k;
    a /= fanouts_[k];
    b /= fanouts_[k];
  }
  return suffix_cost_[split];
}

void TreeLeafTopology::tree_path(PE pe, std::vector<std::int64_t>& path) const {
  PE leaf_id = leaf(pe);
  path.assign(fanouts_.size(), 0);
  for (std::size_t k = fanouts_.size(); k-- > 0;) {
    path[k] = leaf_id % fanouts_[k];
    leaf_id /= fanouts_[k];
  }
}

/// The tree itself: a node at depth k has fan-out s_k children over links
/// of cost l_k; a leaf climbs to the lowest common ancestor and down again,
/// 2 x the cumulative cost (scale 2). tleaf link costs are at least 1.
DistanceGraph TreeLeafTopology::distance_graph() const {
  const auto& fanouts = fanouts_;
  const auto& links = links_;
  // Vertex ids level by level; `level` holds the current depth's vertices.
  std::vector<std::int64_t> level{0};
  std::int64_t next_vertex = 1;
  struct Edge {
    std::int64_t a;
    std::int64_t b;
    std::int64_t weight;
  };
  std::vector<Edge> edge_list;
  for (std::size_t k = 0; k < fanouts.size(); ++k) {
    std::vector<std::int64_t> below;
    below.reserve(level.size() * static_cast<std::size_t>(fanouts[k]));
    for (const auto parent : level) {
      for (std::int64_t c = 0; c < fanouts[k]; ++c) {
        below.push_back(next_vertex);
        edge_list.push_back({parent, next_vertex, links[k]});
        ++next_vertex;
      }
    }
    level = std::move(below);
  }
  EdgeList edges(next_vertex);
  for (const auto& e : edge_list) edges.add(e.a, e.b, e.weight);
  DistanceGraph graph;
  edges.build(graph);
  graph.scale = 2;
  // Leaves are the last level in order; PE p sits on the leaf that carries
  // label p (ltleaf), which tree_path reads back digit by digit.
  graph.pe_vertex.resize(static_cast<std::size_t>(size()));
  std::vector<std::int64_t> path;
  for (PE p = 0; p < size(); ++p) {
    tree_path(p, path);
    std::int64_t leaf = 0;
    for (std::size_t k = 0; k < fanouts.size(); ++k) leaf = leaf * fanouts[k] + path[k];
    graph.pe_vertex[static_cast<std::size_t>(p)] = level[static_cast<std::size_t>(leaf)];
  }
  return graph;
}

Distance TreeLeafTopology::max_distance() const {
  for (std::size_t k = 0; k < fanouts_.size(); ++k) {
    if (fanouts_[k] > 1) return suffix_cost_[k];
  }
  return 0;
}

std::string TreeLeafTopology::description() const {
  std::string text = kind() + " " + std::to_string(fanouts_.size());
  for (std::size_t k = 0; k < fanouts_.size(); ++k) {
    text += " " + std::to_string(fanouts_[k]) + " " + std::to_string(links_[k]);
  }
  if (!permutation_.empty()) {
    text += " " + std::to_string(permutation_.size());
    for (const auto v : permutation_) text += " " + std::to_string(v);
  }
  return text;
}

namespace {

constexpr std::int64_t kMaxExtent = std::int64_t{1} << 40;

std::unique_ptr<Topology> read_tleaf_kind(detail::TokenStream& in, bool labeled) {
  const auto levels = in.expect_int("tleaf number of levels", 1, 64);
  std::vector<std::int64_t> fanouts;
  std::vector<Distance> links;
  for (std::int64_t k = 0; k < levels; ++k) {
    fanouts.push_back(in.expect_int("tleaf fan-out of level " + std::to_string(k), 1, kMaxExtent));
    links.push_back(in.expect_int("tleaf link cost of level " + std::to_string(k), 1, std::int64_t{1} << 40));
  }
  std::vector<std::int64_t> permutation;
  if (labeled) {
    const auto count = in.expect_int("ltleaf permutation size", 1, kMaxExtent);
    for (std::int64_t k = 0; k < count; ++k)
      permutation.push_back(in.expect_int("ltleaf permutation value", 0, kMaxExtent));
  }
  try {
    return std::make_unique<TreeLeafTopology>(std::move(fanouts), std::move(links), std::move(permutation));
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

std::unique_ptr<Topology> read_tleaf(detail::TokenStream& in) {
  return read_tleaf_kind(in, false);
}
std::unique_ptr<Topology> read_ltleaf(detail::TokenStream& in) {
  return read_tleaf_kind(in, true);
}

std::vector<KindExample> examples() {
  return {{"tleaf 3 2 50 3 5 2 1"},
          {"tleaf 1 4 7"},
          {"tleaf 3 1 10 4 5 2 1"},
          {"ltleaf 3 2 10 2 5 4 1 4 3 0 2 1"},
          {"ltleaf 2 3 7 2 1 2 1 0"}};
}

}  // namespace

MachineKind tree_leaf_kind() {
  return {.name = "tree",
          .how_written = {},
          .scotch_words = {{"tleaf", read_tleaf}, {"ltleaf", read_ltleaf}},
          .examples = examples};
}

}  // namespace tmap::topo
