#include "topology/distance_matrix.hpp"

#include <algorithm>
#include <limits>

#include "tmap/error.hpp"
#include "topology/deco.hpp"
#include "util/text.hpp"

namespace tmap::topo {

DistanceMatrixTopology::DistanceMatrixTopology(std::vector<std::int64_t> weights, std::vector<std::uint32_t> distances,
                                               std::string kind)
    : terminals_(static_cast<std::int64_t>(weights.size())), d_(std::move(distances)), kind_(std::move(kind)) {
  if (terminals_ < 1) throw InputError(kind_ + ": at least one terminal is needed");
  if (static_cast<std::int64_t>(d_.size()) != terminals_ * terminals_) {
    throw InternalError("distance matrix of the wrong size");
  }
  for (const auto w : weights) {
    if (w < 1) throw InputError(kind_ + ": terminal weights must be at least 1");
  }
  weights_ = std::move(weights);
  for (const auto v : d_) max_distance_ = std::max<Distance>(max_distance_, v);
}

std::string DistanceMatrixTopology::description() const {
  return kind_ + " of " + std::to_string(terminals_) + " terminals";
}

std::string DistanceMatrixTopology::to_tgt() const {
  std::vector<std::int64_t> order(static_cast<std::size_t>(terminals_));
  std::vector<std::int64_t> weights(static_cast<std::size_t>(terminals_));
  for (std::int64_t t = 0; t < terminals_; ++t) {
    order[t] = t;
    weights[t] = weight(t);
  }
  return format_deco0(order, weights, [&](std::int64_t a, std::int64_t b) -> Distance {
    const Distance d = d_[static_cast<std::size_t>(a * terminals_ + b)];
    if (d < 1) {
      throw InputError("cannot write this " + kind_ + " as a Scotch target: terminals " + std::to_string(a) + " and " +
                       std::to_string(b) + " are 0 apart, and Scotch needs distinct terminals at least 1 apart");
    }
    return d;
  });
}

std::unique_ptr<Topology> parse_dist(std::string_view text, const std::string& origin) {
  detail::TokenStream in(text, origin);
  const auto n = in.expect_int("number of PEs", 1, 1 << 14);
  if (n * n * 2 > in.remaining() + 1) in.fail("a " + std::to_string(n) + " x " + std::to_string(n) + " matrix does not fit in the rest of the file");
  std::vector<std::uint32_t> d(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      d[static_cast<std::size_t>(i * n + j)] = static_cast<std::uint32_t>(
          in.expect_int("distance (" + std::to_string(i) + ", " + std::to_string(j) + ")", 0,
                        std::numeric_limits<std::uint32_t>::max()));
      if (i == j && d[static_cast<std::size_t>(i * n + j)] != 0) {
        in.fail("the diagonal must be 0, found " + std::to_string(d[static_cast<std::size_t>(i * n + j)]) +
                " at (" + std::to_string(i) + ", " + std::to_string(i) + ")");
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
  return std::make_unique<DistanceMatrixTopology>(std::vector<std::int64_t>(static_cast<std::size_t>(n), 1), std::move(d),
                                                  "dist");
}

}  // namespace tmap::topo
