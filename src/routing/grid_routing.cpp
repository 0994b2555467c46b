// Routing on regular graphs: meshes and tori (dimension-ordered), hypercubes
// (e-cube) and complete graphs (direct links).
#include <bit>
#include <string>

#include "routing/models.hpp"

namespace tmap::routing {

namespace {

std::vector<std::string> numbered_kinds(const std::string& prefix, std::size_t count) {
  std::vector<std::string> kinds;
  for (std::size_t k = 0; k < count; ++k) kinds.push_back(prefix + std::to_string(k));
  return kinds;
}

}  // namespace

MeshRouting::MeshRouting(std::vector<std::int64_t> dims, bool torus)
    : RoutingModel(numbered_kinds("dim", dims.size())), dims_(std::move(dims)), torus_(torus) {
  for (const auto d : dims_) {
    stride_.push_back(size_);
    size_ *= d;
  }
}

void MeshRouting::route(PE a, PE b, std::vector<LinkId>& links) const {
  const auto dims = static_cast<LinkId>(dims_.size());
  PE at = a;  // the current vertex, moving one dimension at a time
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const auto d = dims_[k];
    const auto stride = stride_[k];
    auto from = (at / stride) % d;
    const auto to = (b / stride) % d;
    if (from == to) continue;
    bool up = to > from;
    auto steps = up ? to - from : from - to;
    if (torus_) {
      const auto forward = (to - from + d) % d;
      up = forward <= d - forward;
      steps = up ? forward : d - forward;
    }
    // The link belongs to the vertex it leaves upwards: x -> x+1 is x's
    // link. The walk wraps by comparison, not by a division per hop (routing
    // was most of a report on a million-rank torus).
    const auto kind = static_cast<LinkId>(k);
    const PE wrap = (d - 1) * stride;
    for (std::int64_t s = 0; s < steps; ++s) {
      if (up) {
        links.push_back(at * dims + kind);
        at += from + 1 == d ? -wrap : stride;
        from = from + 1 == d ? 0 : from + 1;
      } else {
        at += from == 0 ? wrap : -stride;
        from = from == 0 ? d - 1 : from - 1;
        links.push_back(at * dims + kind);
      }
    }
  }
}

std::string MeshRouting::link_name(LinkId link) const {
  const auto dims = static_cast<LinkId>(dims_.size());
  const PE v = link / dims;
  const auto k = static_cast<std::size_t>(link % dims);
  const auto coord = (v / stride_[k]) % dims_[k];
  const PE w = v + (((coord + 1) % dims_[k]) - coord) * stride_[k];
  return std::to_string(v) + "-" + std::to_string(w);
}

HypercubeRouting::HypercubeRouting(int dimension)
    : RoutingModel(numbered_kinds("dim", static_cast<std::size_t>(dimension))), dimension_(dimension) {}

void HypercubeRouting::route(PE a, PE b, std::vector<LinkId>& links) const {
  auto diff = static_cast<std::uint64_t>(a ^ b);
  PE at = a;
  while (diff != 0) {
    const int k = std::countr_zero(diff);
    diff &= diff - 1;
    const PE low = at & ~(PE{1} << k);
    links.push_back(low * dimension_ + k);
    at ^= PE{1} << k;
  }
}

std::string HypercubeRouting::link_name(LinkId link) const {
  const PE v = link / dimension_;
  const auto k = static_cast<int>(link % dimension_);
  return std::to_string(v) + "-" + std::to_string(v | (PE{1} << k));
}

CompleteRouting::CompleteRouting(PE size) : RoutingModel({"link"}), size_(size) {}

void CompleteRouting::route(PE a, PE b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const PE x = std::min(a, b);
  const PE y = std::max(a, b);
  // Pairs (x, y), x < y, in row-major order of x.
  links.push_back(x * size_ - x * (x + 1) / 2 + (y - x - 1));
}

std::string CompleteRouting::link_name(LinkId link) const {
  PE x = 0;
  while (link >= size_ - 1 - x) {
    link -= size_ - 1 - x;
    ++x;
  }
  return std::to_string(x) + "-" + std::to_string(x + 1 + link);
}

}  // namespace tmap::routing
