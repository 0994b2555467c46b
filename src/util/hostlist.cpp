#include "util/hostlist.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::detail {

namespace {

/// Most hosts a host list may expand to.
constexpr std::size_t kMaxHosts = std::size_t{1} << 20;
/// Most characters its host names may hold together (a million hosts of 64
/// characters): many long names are refused as many names are.
constexpr std::size_t kMaxHostBytes = std::size_t{64} << 20;

/// Splits at commas outside brackets.
std::vector<std::string_view> split_top_level(std::string_view list, const std::string& origin) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t k = 0; k <= list.size(); ++k) {
    const char c = k < list.size() ? list[k] : ',';
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) throw InputError(origin + " '" + std::string(list) + "': unbalanced ']'");
    // Commas, and white space or newlines as in a pasted host list, separate hosts.
    const bool separator = c == ',' || std::string_view(" \t\r\n\v\f").find(c) != std::string_view::npos;
    if (separator && depth == 0) {
      auto item = list.substr(start, k - start);
      while (!item.empty() && kBlanks.find(item.front()) != std::string_view::npos) item.remove_prefix(1);
      while (!item.empty() && kBlanks.find(item.back()) != std::string_view::npos) item.remove_suffix(1);
      if (!item.empty()) items.push_back(item);
      start = k + 1;
    }
  }
  if (depth != 0) throw InputError(origin + " '" + std::string(list) + "': unbalanced '['");
  return items;
}

/// Expands one item with bracket groups, e.g. "n[1-2]-ib[0-1]".
void expand_item(std::string_view item, const std::string& prefix, std::vector<std::string>& out,
                 const std::string& origin) {
  const auto open = item.find('[');
  if (open == std::string_view::npos) {
    if (out.size() == kMaxHosts) {
      throw InputError(origin + ": the host list expands to more than " + std::to_string(kMaxHosts) + " hosts");
    }
    out.push_back(prefix + std::string(item));
    return;
  }
  const auto close = item.find(']', open);
  const auto head = prefix + std::string(item.substr(0, open));
  const auto inside = item.substr(open + 1, close - open - 1);
  const auto tail = item.substr(close + 1);
  std::string_view rest = inside;
  std::string_view range;
  if (inside.empty()) throw InputError(origin + ": empty brackets in '" + std::string(item) + "'");
  while (next_token(rest, range, ",")) {
    const auto dash = range.find('-');
    const auto lo_text = range.substr(0, dash);
    const auto hi_text = dash == std::string_view::npos ? lo_text : range.substr(dash + 1);
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    if (!parse_int(lo_text, lo) || !parse_int(hi_text, hi) || lo < 0 || hi < lo) {
      throw InputError(origin + ": bad range '" + std::string(range) + "' in '" + std::string(item) + "'");
    }
    if (hi - lo >= static_cast<std::int64_t>(kMaxHosts)) {
      throw InputError(origin + ": range '" + std::string(range) + "' is too long");
    }
    const auto width = lo_text.size();  // zero padding as written
    for (std::int64_t v = lo; v <= hi; ++v) {
      auto digits = std::to_string(v);
      if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
      expand_item(tail, head + digits, out, origin);
    }
  }
}

/// How many hosts an item expands to (saturating above kMaxHosts), so huge
/// lists are refused before any string is built.
std::size_t count_item(std::string_view item) {
  std::size_t total = 1;
  for (auto open = item.find('['); open != std::string_view::npos; open = item.find('[', open + 1)) {
    const auto close = item.find(']', open);
    if (close == std::string_view::npos) return total;
    std::size_t group = 0;
    std::string_view rest = item.substr(open + 1, close - open - 1);
    std::string_view range;
    while (next_token(rest, range, ",")) {
      const auto dash = range.find('-');
      std::int64_t lo = 0;
      std::int64_t hi = 0;
      if (!parse_int(range.substr(0, dash), lo)) return total;  // expand_item reports it
      hi = lo;
      if (dash != std::string_view::npos && !parse_int(range.substr(dash + 1), hi)) return total;
      if (hi >= lo) group += static_cast<std::size_t>(std::min<std::int64_t>(hi - lo + 1, kMaxHosts + 1));
      group = std::min(group, kMaxHosts + 1);
    }
    total = std::min(total * std::max<std::size_t>(group, 1), kMaxHosts + 1);
  }
  return total;
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list, const std::string& origin) {
  std::vector<std::string> hosts;
  const auto items = split_top_level(list, origin);
  std::size_t total = 0;
  std::size_t bytes = 0;  // an expanded name is never longer than its item's text
  for (const auto item : items) {
    const auto count = count_item(item);
    total = std::min(total + count, kMaxHosts + 1);
    bytes = std::min(bytes + count * std::max<std::size_t>(item.size(), 1), kMaxHostBytes + 1);
  }
  if (total > kMaxHosts) {
    throw InputError(origin + ": the host list expands to more than " + std::to_string(kMaxHosts) + " hosts");
  }
  if (bytes > kMaxHostBytes) {
    throw InputError(origin + ": the host list expands to more than " + std::to_string(kMaxHostBytes >> 20) +
                     " MiB of host names");
  }
  for (const auto item : items) expand_item(item, "", hosts, origin);
  if (hosts.empty()) throw InputError(origin + ": no hosts given");
  return hosts;
}

std::string bad_host_name(std::string_view host) {
  if (host.empty()) return "an empty host name";
  for (const char c : host) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f) {
      return byte == ' ' ? "a blank inside a host name (launcher files would read two words)"
                         : fmt::format("the control byte 0x{:02x} inside a host name", byte);
    }
    if (std::string_view("=#,:'\"\\[]").find(c) != std::string_view::npos) {
      return fmt::format(
          "'{}' inside a host name (rankfiles, hostfiles and Hydra configfiles read it as syntax; "
          "host names are letters, digits, '-', '.' and '_')",
          c);
    }
  }
  return {};
}

void check_host_names(const std::vector<std::string>& hosts, const std::string& origin) {
  std::unordered_map<std::string_view, std::size_t> node_of;
  node_of.reserve(hosts.size());
  for (std::size_t k = 0; k < hosts.size(); ++k) {
    if (const auto why = bad_host_name(hosts[k]); !why.empty()) {
      auto shown = hosts[k].substr(0, 64);  // printable in the message
      for (auto& c : shown) c = static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
      throw InputError(origin + ": host '" + shown + "': " + why);
    }
    if (const auto [it, fresh] = node_of.emplace(hosts[k], k); !fresh) {
      throw InputError(fmt::format("{}: host {} is listed twice (nodes {} and {}): each node needs its own name",
                                   origin, hosts[k], it->second, k));
    }
  }
}

}  // namespace tmap::detail
