#include "topology/deco.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tmap/error.hpp"

namespace tmap::topo {

namespace {
void assign(std::int64_t lo, std::int64_t hi, std::int64_t domain, std::vector<std::int64_t>& out) {
  if (hi - lo == 1) {
    out[static_cast<std::size_t>(lo)] = domain;
    return;
  }
  const std::int64_t mid = lo + (hi - lo + 1) / 2;
  assign(lo, mid, 2 * domain, out);
  assign(mid, hi, 2 * domain + 1, out);
}
}  // namespace

std::vector<std::int64_t> bisection_domains(std::int64_t count) {
  std::vector<std::int64_t> domains(static_cast<std::size_t>(count), 0);
  if (count > 0) assign(0, count, 1, domains);
  return domains;
}

std::string format_deco0(const std::vector<std::int64_t>& order, const std::vector<std::int64_t>& weights,
                         const std::function<Distance(std::int64_t, std::int64_t)>& distance) {
  std::vector<std::int64_t> listed_weights(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) listed_weights[k] = weights[order[k]];
  return format_deco0_labelled(order, listed_weights,
                               [&](std::int64_t i, std::int64_t j) { return distance(order[i], order[j]); });
}

std::string format_deco0_labelled(const std::vector<std::int64_t>& labels, const std::vector<std::int64_t>& weights,
                                  const std::function<Distance(std::int64_t, std::int64_t)>& distance) {
  const auto count = static_cast<std::int64_t>(labels.size());
  if (count < 1) throw InternalError("deco: no terminals");
  const auto domains = bisection_domains(count);
  const auto largest = *std::max_element(domains.begin(), domains.end());
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "deco\n0\n{}\t{}\n", count, largest);
  for (std::int64_t k = 0; k < count; ++k) fmt::format_to(it, "{}\t{}\t{}\n", labels[k], weights[k], domains[k]);
  for (std::int64_t i = 1; i < count; ++i) {
    for (std::int64_t j = 0; j < i; ++j) fmt::format_to(it, "{}{}", j == 0 ? "" : " ", distance(i, j));
    fmt::format_to(it, "\n");
  }
  return fmt::to_string(out);
}

}  // namespace tmap::topo
