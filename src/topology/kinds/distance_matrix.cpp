#include "topology/kinds/distance_matrix.hpp"

#include <algorithm>
#include <limits>

#include "tmap/error.hpp"
#include "topology/deco.hpp"
#include "util/text.hpp"

namespace tmap::topo {

DistanceMatrixTopology::DistanceMatrixTopology(std::vector<std::int64_t> labels,
                                               const std::vector<std::int64_t>& weights,
                                               std::vector<std::uint32_t> distances, std::string kind)
    : terminals_(static_cast<std::int64_t>(labels.size())),
      labels_(std::move(labels)),
      slots_(weights, kind),
      d_(std::move(distances)),
      kind_(std::move(kind)) {
  if (terminals_ < 1) throw InputError(kind_ + ": at least one terminal is needed");
  if (static_cast<std::int64_t>(d_.size()) != terminals_ * terminals_ || slots_.terminals() != terminals_ ||
      !std::is_sorted(labels_.begin(), labels_.end())) {
    throw InternalError("distance matrix of the wrong shape");
  }
  for (const auto v : d_) max_distance_ = std::max<Distance>(max_distance_, v);
}

std::optional<NodeId> DistanceMatrixTopology::node_with_label(NodeId label) const {
  const auto at = std::lower_bound(labels_.begin(), labels_.end(), label);
  if (at == labels_.end() || *at != label) return std::nullopt;
  return static_cast<NodeId>(at - labels_.begin());
}

std::string DistanceMatrixTopology::description() const {
  std::string text = kind_ + " of " + std::to_string(terminals_) + " terminals";
  if (size() != terminals_) text += " (" + std::to_string(size()) + " PEs)";
  return text;
}

std::string DistanceMatrixTopology::to_tgt() const {
  std::vector<std::int64_t> weights(static_cast<std::size_t>(terminals_));
  for (std::int64_t t = 0; t < terminals_; ++t) weights[t] = weight(t);
  return format_deco0_labelled(labels_, weights, [&](std::int64_t a, std::int64_t b) -> Distance {
    const Distance d = terminal_distance(a, b);
    if (d < 1) {
      throw InputError("cannot write this " + kind_ + " as a Scotch target: terminals " + std::to_string(labels_[a]) +
                       " and " + std::to_string(labels_[b]) +
                       " are 0 apart, and Scotch needs distinct terminals at least 1 apart");
    }
    return d;
  });
}

std::unique_ptr<Topology> parse_dist(std::string_view text, const std::string& origin) {
  detail::TokenStream in(text, origin);
  const auto n = in.expect_int("number of PEs", 1, 1 << 14);
  if (n * n * 2 > in.remaining() + 1)
    in.fail("a " + std::to_string(n) + " x " + std::to_string(n) + " matrix does not fit in the rest of the file");
  std::vector<std::uint32_t> d(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      d[static_cast<std::size_t>(i * n + j)] =
          static_cast<std::uint32_t>(in.expect_int("distance (" + std::to_string(i) + ", " + std::to_string(j) + ")", 0,
                                                   std::numeric_limits<std::uint32_t>::max()));
      if (i == j && d[static_cast<std::size_t>(i * n + j)] != 0) {
        in.fail("the diagonal must be 0, found " + std::to_string(d[static_cast<std::size_t>(i * n + j)]) + " at (" +
                std::to_string(i) + ", " + std::to_string(i) + ")");
      }
      if (j < i && d[static_cast<std::size_t>(i * n + j)] != d[static_cast<std::size_t>(j * n + i)]) {
        in.fail("the matrix is not symmetric: (" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
                std::to_string(d[static_cast<std::size_t>(i * n + j)]) + " but (" + std::to_string(j) + ", " +
                std::to_string(i) + ") is " + std::to_string(d[static_cast<std::size_t>(j * n + i)]));
      }
    }
  }
  std::string_view extra;
  if (in.next(extra)) in.fail("unexpected data after the " + std::to_string(n) + " x " + std::to_string(n) + " matrix");
  std::vector<std::int64_t> labels(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) labels[k] = k;
  const std::vector<std::int64_t> weights(static_cast<std::size_t>(n), 1);
  return std::make_unique<DistanceMatrixTopology>(std::move(labels), weights, std::move(d), "dist");
}

}  // namespace tmap::topo
