#include "routing/dragonfly.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tmap/error.hpp"

namespace tmap::routing {

namespace {

constexpr std::int64_t kMostElements = std::int64_t{1} << 26;

/// Index of the unordered pair {a, b} (a != b) among the pairs of n items.
std::int64_t pair_index(std::int64_t a, std::int64_t b, std::int64_t n) {
  if (a > b) std::swap(a, b);
  return a * n - a * (a + 1) / 2 + (b - a - 1);
}

/// The pair {a, b} of n items with index `index` (pair_index's inverse).
std::pair<std::int64_t, std::int64_t> pair_of(std::int64_t index, std::int64_t n) {
  std::int64_t a = 0;
  while (index >= n - 1 - a) {
    index -= n - 1 - a;
    ++a;
  }
  return {a, a + 1 + index};
}

}  // namespace

DragonflyNetwork::DragonflyNetwork(Shape shape) : s_(shape) {
  for (const auto v : {s_.groups, s_.blue, s_.chassis, s_.black, s_.routers, s_.green, s_.nodes}) {
    if (v < 1 || v > kMostElements) throw InputError("dragonfly: every count must be between 1 and 2^26");
  }
  const auto routers_per_group = s_.chassis * s_.routers;
  if (s_.groups > routers_per_group) {
    throw InputError(
        fmt::format("dragonfly: {} groups but {} routers in a group: each group needs a router for "
                    "every other group's blue cable",
                    s_.groups, routers_per_group));
  }
  if (s_.groups > kMostElements / routers_per_group || s_.groups * routers_per_group > kMostElements / s_.nodes) {
    throw InputError("dragonfly: more than 2^26 nodes");
  }
  nodes_ = s_.groups * routers_per_group * s_.nodes;
  first_green_ = nodes_;
  first_black_ = first_green_ + s_.groups * s_.chassis * (s_.routers * (s_.routers - 1) / 2);
  first_blue_ = first_black_ + s_.groups * (s_.chassis * (s_.chassis - 1) / 2) * s_.routers;
  if (num_links() > kMostElements) throw InputError("dragonfly: more than 2^26 cables");
}

DragonflyNetwork::Router DragonflyNetwork::router_of(std::int64_t node) const {
  const auto router = node / s_.nodes;
  return {router / (s_.chassis * s_.routers), (router / s_.routers) % s_.chassis, router % s_.routers};
}

LinkId DragonflyNetwork::green(const Router& r, std::int64_t other_blade) const {
  const auto chassis = r.group * s_.chassis + r.chassis;
  return first_green_ + chassis * (s_.routers * (s_.routers - 1) / 2) + pair_index(r.blade, other_blade, s_.routers);
}

LinkId DragonflyNetwork::black(const Router& r, std::int64_t other_chassis) const {
  const auto pairs = s_.chassis * (s_.chassis - 1) / 2;
  return first_black_ + (r.group * pairs + pair_index(r.chassis, other_chassis, s_.chassis)) * s_.routers + r.blade;
}

LinkId DragonflyNetwork::blue(std::int64_t g1, std::int64_t g2) const {
  return first_blue_ + pair_index(g1, g2, s_.groups);
}

void DragonflyNetwork::within_group(Router& at, std::int64_t chassis, std::int64_t blade, std::vector<LinkId>* links,
                                    std::int64_t& count) const {
  if (at.blade != blade) {  // green: to the blade, in this chassis
    if (links != nullptr) links->push_back(green(at, blade));
    ++count;
    at.blade = blade;
  }
  if (at.chassis != chassis) {  // black: to the chassis, on this blade
    if (links != nullptr) links->push_back(black(at, chassis));
    ++count;
    at.chassis = chassis;
  }
}

void DragonflyNetwork::route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const {
  if (a == b) return;
  std::int64_t count = 0;
  links.push_back(a);  // the source's local cable
  auto at = router_of(a);
  const auto to = router_of(b);
  if (at.group != to.group) {
    // The router of this group holding the blue cable to the other group.
    within_group(at, to.group / s_.routers, to.group % s_.routers, &links, count);
    links.push_back(blue(at.group, to.group));
    at = {to.group, at.group / s_.routers, at.group % s_.routers};
  }
  within_group(at, to.chassis, to.blade, &links, count);
  links.push_back(b);  // the destination's local cable
}

std::int64_t DragonflyNetwork::hops(std::int64_t a, std::int64_t b) const {
  if (a == b) return 0;
  std::int64_t count = 2;
  auto at = router_of(a);
  const auto to = router_of(b);
  if (at.group != to.group) {
    within_group(at, to.group / s_.routers, to.group % s_.routers, nullptr, count);
    ++count;
    at = {to.group, at.group / s_.routers, at.group % s_.routers};
  }
  within_group(at, to.chassis, to.blade, nullptr, count);
  return count;
}

std::int64_t DragonflyNetwork::max_hops() const {
  if (nodes_ == 1) return 0;
  const std::int64_t steps = (s_.routers > 1 ? 1 : 0) + (s_.chassis > 1 ? 1 : 0);
  return 2 + (s_.groups > 1 ? 2 * steps + 1 : steps);
}

int DragonflyNetwork::link_kind(LinkId link) const {
  if (link < first_green_) return 0;
  if (link < first_black_) return 1;
  if (link < first_blue_) return 2;
  return 3;
}

DragonflyNetwork::Cable DragonflyNetwork::cable(LinkId link) const {
  Cable c{link_kind(link), {}, {}};
  switch (c.kind) {
    case 0:
      c.lower = router_of(link);  // the node's router; the node is the link's index
      break;
    case 1: {
      const auto per = s_.routers * (s_.routers - 1) / 2;
      const auto chassis = (link - first_green_) / per;
      const auto [j, k] = pair_of((link - first_green_) % per, s_.routers);
      c.lower = {chassis / s_.chassis, chassis % s_.chassis, j};
      c.upper = {chassis / s_.chassis, chassis % s_.chassis, k};
      break;
    }
    case 2: {
      const auto local = link - first_black_;
      const auto pairs = s_.chassis * (s_.chassis - 1) / 2;
      const auto blade = local % s_.routers;
      const auto group = local / s_.routers / pairs;
      const auto [j, k] = pair_of(local / s_.routers % pairs, s_.chassis);
      c.lower = {group, j, blade};
      c.upper = {group, k, blade};
      break;
    }
    default: {
      const auto [i, j] = pair_of(link - first_blue_, s_.groups);
      c.lower.group = i;
      c.upper.group = j;
    }
  }
  return c;
}

std::string DragonflyNetwork::link_name(LinkId link) const {
  const auto c = cable(link);
  switch (c.kind) {
    case 0:
      return fmt::format("node {} - router({},{},{})", link, c.lower.group, c.lower.chassis, c.lower.blade);
    case 1:
      return fmt::format("green ({},{}) blades {}-{}", c.lower.group, c.lower.chassis, c.lower.blade, c.upper.blade);
    case 2:
      return fmt::format("black group {} chassis {}-{} blade {}", c.lower.group, c.lower.chassis, c.upper.chassis,
                         c.lower.blade);
    default:
      return fmt::format("blue groups {}-{}", c.lower.group, c.upper.group);
  }
}

LinkEnds DragonflyNetwork::link_ends(LinkId link) const {
  const auto c = cable(link);
  const auto router = [](const Router& r) { return fmt::format("router({},{},{})", r.group, r.chassis, r.blade); };
  LinkEnds result;
  if (c.kind == 0) {
    result.lower.node = link;
    result.upper.name = router(c.lower);
  } else if (c.kind == 3) {
    result.lower.name = fmt::format("group({})", c.lower.group);
    result.upper.name = fmt::format("group({})", c.upper.group);
  } else {
    result.lower.name = router(c.lower);
    result.upper.name = router(c.upper);
  }
  return result;
}

std::string DragonflyNetwork::spec() const {
  return fmt::format("dragonfly:{},{};{},{};{},{};{}", s_.groups, s_.blue, s_.chassis, s_.black, s_.routers, s_.green,
                     s_.nodes);
}

}  // namespace tmap::routing
