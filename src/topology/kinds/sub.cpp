// Scotch "sub": the kind's machine (kinds/sub.hpp: Tianhe-3's recognition
// builds on it too), its Scotch word and row.
#include "topology/kinds/sub.hpp"

#include <algorithm>
#include <map>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

SubTopology::SubTopology(std::unique_ptr<Topology> base, std::vector<PE> terminals, bool whole_nodes)
    : base_(std::move(base)), terminals_(std::move(terminals)), whole_nodes_(whole_nodes) {
  if (terminals_.empty()) throw InputError("sub: at least one terminal is needed");
  std::vector<PE> sorted = terminals_;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (sorted[k] < 0 || sorted[k] >= base_->size()) {
      throw InputError("sub: terminal " + std::to_string(sorted[k]) + " is outside the target (0.." +
                       std::to_string(base_->size() - 1) + ")");
    }
    if (k > 0 && sorted[k] == sorted[k - 1])
      throw InputError("sub: terminal " + std::to_string(sorted[k]) + " is listed twice");
  }
  // Nodes renumbered in order of the base's node ids.
  std::map<NodeId, NodeId> local;
  for (const PE p : sorted) local.emplace(base_->node_of(p), 0);
  for (auto& [node, id] : local) {
    id = nodes_++;
    base_node_.push_back(node);
  }
  for (const PE p : terminals_) node_of_.push_back(local[base_->node_of(p)]);
  // The exact largest distance among the terminals (O(N^2), N is a list given by hand).
  if (terminals_.size() <= 4096) {
    for (const PE a : terminals_) {
      for (const PE b : terminals_) max_distance_ = std::max(max_distance_, base_->distance(a, b));
    }
  } else {
    max_distance_ = base_->max_distance();  // an upper bound: keeps compact storage choices safe
  }
}

std::string SubTopology::description() const {
  return "sub of " + std::to_string(terminals_.size()) + " PEs of " + base_->description();
}

std::optional<NodeId> SubTopology::node_with_label(NodeId label) const {
  const auto base_node = tmap::node_with_label(*base_, label);
  if (!base_node) return std::nullopt;
  const auto at = std::lower_bound(base_node_.begin(), base_node_.end(), *base_node);  // increasing
  if (at == base_node_.end() || *at != *base_node) return std::nullopt;
  return static_cast<NodeId>(at - base_node_.begin());
}

std::string SubTopology::to_tgt() const {
  if (whole_nodes_) {
    if (auto text = scotch_node_subset_target(*base_, base_node_); !text.empty()) return text;
  }
  std::string text = "sub\n" + std::to_string(terminals_.size());
  for (const PE p : terminals_) text += " " + std::to_string(p);
  return text + "\n" + scotch_target(*base_);
}

std::unique_ptr<RoutingModel> SubTopology::routing_model() const {
  auto base = base_->routing_model();
  if (!base) return nullptr;
  return std::make_unique<routing::SubRouting>(std::move(base), terminals_);
}

namespace {

constexpr std::int64_t kMaxExtent = std::int64_t{1} << 40;

/// Most `sub` targets nested in one another: each level is a recursive
/// call, and real targets nest one or two deep.
constexpr int kMaxSubDepth = 64;

std::unique_ptr<Topology> read_sub(detail::TokenStream& in) {
  struct Nested {
    explicit Nested(detail::TokenStream& stream) : in(stream) { ++in.nesting; }
    ~Nested() { --in.nesting; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
    detail::TokenStream& in;
  } nested(in);
  if (in.nesting > kMaxSubDepth) in.fail("sub targets nested more than " + std::to_string(kMaxSubDepth) + " deep");
  const auto count = in.expect_int("sub number of terminals", 1, std::int64_t{1} << 31);
  std::vector<PE> terminals;
  for (std::int64_t k = 0; k < count; ++k) terminals.push_back(in.expect_int("sub terminal", 0, kMaxExtent));
  const auto line = in.line();
  auto base = read_scotch_target(in);
  try {
    return std::make_unique<SubTopology>(std::move(base), std::move(terminals));
  } catch (const InputError& e) {
    throw InputError(in.origin(), line, e.problem());
  }
}

std::vector<KindExample> examples() {
  return {{"sub 3 1 5 7 mesh2D 4 2"}, {"sub 2 0 2 sub 3 1 2 3 hcub 2"}, {"sub 3 0 1 3 tleaf 2 2 10 2 1"}};
}

}  // namespace

MachineKind sub_kind() {
  return {.name = "sub", .how_written = {}, .scotch_words = {{"sub", read_sub}}, .examples = examples};
}

}  // namespace tmap::topo
