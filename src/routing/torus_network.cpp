#include "routing/torus_network.hpp"

#include <fmt/format.h>

#include "tmap/error.hpp"

namespace tmap::routing {

namespace {
constexpr std::int64_t kMostNodes = std::int64_t{1} << 26;
}  // namespace

TorusNetwork::TorusNetwork(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {
  if (dims_.empty()) throw InputError("torus: at least one dimension");
  for (const auto d : dims_) {
    if (d < 1 || d > kMostNodes || nodes_ > kMostNodes / d)
      throw InputError("torus: sizes from 1 to 2^26 nodes in all");
    stride_.push_back(nodes_);
    nodes_ *= d;
  }
}

int TorusNetwork::direction(std::int64_t m, std::int64_t t, std::int64_t d) {
  // SimGrid 3.32's TorusZone rule: up when the target lies within half a
  // ring above without wrapping, or when wrapping up reaches it.
  if ((t > m && t <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= t)) return +1;
  return -1;
}

void TorusNetwork::route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const {
  const auto dimensions = static_cast<std::int64_t>(dims_.size());
  std::int64_t at = a;
  for (std::int64_t j = 0; j < dimensions; ++j) {
    const auto d = dims_[static_cast<std::size_t>(j)];
    const auto s = stride_[static_cast<std::size_t>(j)];
    const auto m = (a / s) % d;  // the source's coordinate decides the way, as SimGrid's
    const auto t = (b / s) % d;
    const int way = direction(m, t, d);
    while ((at / s) % d != t) {
      const auto c = (at / s) % d;
      const auto next = way > 0 ? at + (c == d - 1 ? s - s * d : s) : at - (c == 0 ? s - s * d : s);
      links.push_back((way > 0 ? at : next) * dimensions + j);  // the cable from the lower end's side
      at = next;
    }
  }
}

std::int64_t TorusNetwork::hops(std::int64_t a, std::int64_t b) const {
  std::int64_t count = 0;
  for (std::size_t j = 0; j < dims_.size(); ++j) {
    const auto d = dims_[j];
    const auto m = (a / stride_[j]) % d;
    const auto t = (b / stride_[j]) % d;
    count += direction(m, t, d) > 0 ? (t - m + d) % d : (m - t + d) % d;
  }
  return count;
}

std::int64_t TorusNetwork::max_hops() const {
  std::int64_t count = 0;
  for (const auto d : dims_) count += d / 2;
  return count;
}

std::string TorusNetwork::link_name(LinkId link) const {
  const auto dimensions = static_cast<std::int64_t>(dims_.size());
  const auto from = link / dimensions;
  const auto j = static_cast<std::size_t>(link % dimensions);
  const auto c = (from / stride_[j]) % dims_[j];
  const auto to = c == dims_[j] - 1 ? from + stride_[j] - stride_[j] * dims_[j] : from + stride_[j];
  return fmt::format("node {} - node {} (dim{})", from, to, j);
}

LinkEnds TorusNetwork::link_ends(LinkId link) const {
  const auto dimensions = static_cast<std::int64_t>(dims_.size());
  const auto from = link / dimensions;
  const auto j = static_cast<std::size_t>(link % dimensions);
  const auto c = (from / stride_[j]) % dims_[j];
  const auto to = c == dims_[j] - 1 ? from + stride_[j] - stride_[j] * dims_[j] : from + stride_[j];
  LinkEnds result;
  result.lower.node = from;
  result.upper.node = to;
  return result;
}

std::vector<std::string> TorusNetwork::link_kinds() const {
  std::vector<std::string> kinds;
  for (std::size_t j = 0; j < dims_.size(); ++j) kinds.push_back(fmt::format("dim{}", j));
  return kinds;
}

std::string TorusNetwork::spec() const {
  return fmt::format("torus:{}", fmt::join(dims_, ","));
}

}  // namespace tmap::routing
