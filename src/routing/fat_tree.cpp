#include "routing/fat_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "tmap/error.hpp"

namespace tmap::routing {

namespace {

/// Elements of one level or links of the whole tree past this are refused:
/// a machine of 2^21 PEs has far fewer.
constexpr std::int64_t kMostElements = std::int64_t{1} << 26;

std::int64_t checked_product(std::int64_t a, std::int64_t b) {
  if (a > kMostElements / b) throw InputError("fattree: more than 2^26 nodes, switches or links");
  return a * b;
}

}  // namespace

FatTreeNetwork::FatTreeNetwork(std::vector<std::int64_t> down, std::vector<std::int64_t> up,
                               std::vector<std::int64_t> ports)
    : down_(std::move(down)), up_(std::move(up)), ports_(std::move(ports)) {
  const auto levels = down_.size();
  if (levels == 0) throw InputError("fattree: at least one switch level");
  if (up_.size() != levels || ports_.size() != levels) {
    throw InputError(fmt::format("fattree: {} levels need {} children, parents and port counts each", levels, levels));
  }
  for (const auto* v : {&down_, &up_, &ports_}) {
    if (std::any_of(v->begin(), v->end(), [](std::int64_t x) { return x < 1; })) {
      throw InputError("fattree: every count must be 1 or more");
    }
  }
  count_.assign(levels + 1, 1);
  for (std::size_t i = 0; i <= levels; ++i) {
    for (std::size_t j = 0; j < levels; ++j) count_[i] = checked_product(count_[i], j < i ? up_[j] : down_[j]);
  }
  first_link_.assign(levels, 0);
  for (std::size_t l = 0; l < levels; ++l) {
    first_link_[l] = links_;
    links_ += checked_product(count_[l], checked_product(up_[l], ports_[l]));
    if (links_ > kMostElements) throw InputError("fattree: more than 2^26 links");
  }
}

std::vector<std::int64_t> FatTreeNetwork::label(std::int64_t level, std::int64_t position) const {
  std::vector<std::int64_t> digits(down_.size());
  for (std::int64_t j = 0; j < levels(); ++j) {
    const auto r = radix(level, j);
    digits[static_cast<std::size_t>(j)] = position % r;
    position /= r;
  }
  return digits;
}

std::int64_t FatTreeNetwork::position(std::int64_t level, const std::vector<std::int64_t>& digits) const {
  std::int64_t p = 0;
  for (std::int64_t j = levels() - 1; j >= 0; --j) p = p * radix(level, j) + digits[static_cast<std::size_t>(j)];
  return p;
}

std::int64_t FatTreeNetwork::digit(std::int64_t node, std::int64_t level) const {
  return label(0, node)[static_cast<std::size_t>(level)];
}

LinkId FatTreeNetwork::up_link(std::int64_t level, std::int64_t position, std::int64_t port) const {
  const auto l = static_cast<std::size_t>(level);
  return first_link_[l] + position * up_[l] * ports_[l] + port;
}

std::int64_t FatTreeNetwork::top_level(std::int64_t a, std::int64_t b) const {
  const auto x = label(0, a);
  const auto y = label(0, b);
  for (std::int64_t j = levels() - 1; j >= 0; --j) {
    if (x[static_cast<std::size_t>(j)] != y[static_cast<std::size_t>(j)]) return j + 1;
  }
  return 0;
}

std::int64_t FatTreeNetwork::hops(std::int64_t a, std::int64_t b) const {
  return 2 * top_level(a, b);
}

void FatTreeNetwork::route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const auto dest = label(0, b);
  std::int64_t level = 0;
  auto here = label(0, a);
  // Up: until a switch whose subtree holds b (its digits from its level up are b's).
  const auto holds_b = [&] {
    if (level == 0) return false;
    for (std::int64_t j = level; j < levels(); ++j) {
      if (here[static_cast<std::size_t>(j)] != dest[static_cast<std::size_t>(j)]) return false;
    }
    return true;
  };
  while (!holds_b()) {
    const auto l = static_cast<std::size_t>(level);
    // SimGrid 3.32 (Debian's): divided by the parents of each level below,
    // then taken modulo this level's parents x parallel cables.
    std::int64_t d = b;
    for (std::size_t i = 0; i < l; ++i) d /= up_[i];
    d %= up_[l] * ports_[l];
    links.push_back(up_link(level, position(level, here), d));
    here[l] = d % up_[l];
    ++level;
  }
  // Down, as SimGrid's loop walks it: start at parallel link (a mod ports)
  // and keep scanning ports from there as the element changes under it.
  while (level > 0) {
    std::int64_t i = (a % ports_[static_cast<std::size_t>(level - 1)]) * down_[static_cast<std::size_t>(level - 1)];
    while (level > 0 && i < down_[static_cast<std::size_t>(level - 1)] * ports_[static_cast<std::size_t>(level - 1)]) {
      const auto l = static_cast<std::size_t>(level - 1);
      if (i % down_[l] == dest[l]) {
        const auto parallel = i / down_[l];
        const auto port = here[l] + parallel * up_[l];  // the child's port to this parent
        here[l] = dest[l];
        --level;
        links.push_back(up_link(level, position(level, here), port));
      }
      ++i;
    }
  }
}

std::int64_t FatTreeNetwork::link_level(LinkId link) const {
  std::int64_t level = 0;
  while (level + 1 < levels() && link >= first_link_[static_cast<std::size_t>(level + 1)]) ++level;
  return level;
}

FatTreeNetwork::Ends FatTreeNetwork::ends(LinkId link) const {
  const auto level = link_level(link);
  const auto l = static_cast<std::size_t>(level);
  const auto per = up_[l] * ports_[l];
  const auto local = link - first_link_[l];
  const auto child = local / per;
  const auto port = local % per;
  auto digits = label(level, child);
  digits[l] = port % up_[l];
  return {level, child, position(level + 1, digits), port / up_[l]};
}

std::string FatTreeNetwork::link_name(LinkId link) const {
  const auto e = ends(link);
  const auto lower = e.level == 0 ? fmt::format("node {}", e.lower) : fmt::format("switch({},{})", e.level, e.lower);
  return fmt::format("{} - switch({},{})", lower, e.level + 1, e.upper) +
         (ports_[static_cast<std::size_t>(e.level)] > 1 ? fmt::format(" #{}", e.parallel) : std::string());
}

LinkEnds FatTreeNetwork::link_ends(LinkId link) const {
  const auto e = ends(link);
  LinkEnds result;
  if (e.level == 0) {
    result.lower.node = e.lower;
  } else {
    result.lower.name = fmt::format("switch({},{})", e.level, e.lower);
  }
  result.upper.name = fmt::format("switch({},{})", e.level + 1, e.upper);
  return result;
}

std::string FatTreeNetwork::parameters() const {
  return fmt::format("{};{};{};{}", levels(), fmt::join(down_, ","), fmt::join(up_, ","), fmt::join(ports_, ","));
}

std::vector<std::string> FatTreeNetwork::link_kinds() const {
  std::vector<std::string> kinds;
  for (std::int64_t l = 0; l < levels(); ++l) kinds.push_back(fmt::format("level{}", l + 1));
  return kinds;
}

bool FatTreeNetwork::tree_path(std::int64_t node, std::vector<std::int64_t>& path) const {
  const auto digits = label(0, node);
  path.assign(digits.rbegin(), digits.rend());
  return true;
}

}  // namespace tmap::routing
