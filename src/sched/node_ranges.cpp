#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "util/text.hpp"

namespace tmap {

std::vector<NodeId> parse_node_ranges(std::string_view list, const std::string& origin) {
  std::vector<NodeId> nodes;
  std::string_view rest = list;
  std::string_view item;
  constexpr NodeId kMax = NodeId{1} << 40;
  auto bad = [&](const std::string& problem) { throw InputError(origin + " '" + std::string(list) + "': " + problem); };
  while (detail::next_token(rest, item, ", \t")) {
    const auto dash = item.find('-', 1);
    NodeId first = 0;
    NodeId last = 0;
    if (!detail::parse_int(item.substr(0, dash), first) || first < 0) {
      bad("expected a node id or a range a-b, found " + detail::quote(item));
    }
    last = first;
    if (dash != std::string_view::npos && (!detail::parse_int(item.substr(dash + 1), last) || last < first)) {
      bad("bad range " + detail::quote(item) + " (expected a-b with a <= b)");
    }
    if (last >= kMax) bad("node id too large in " + detail::quote(item));
    if (last - first + static_cast<NodeId>(nodes.size()) >= (NodeId{1} << 24)) {
      bad("more than " + std::to_string(NodeId{1} << 24) + " nodes");
    }
    for (NodeId v = first; v <= last; ++v) nodes.push_back(v);
  }
  if (nodes.empty()) bad("no nodes given");
  return nodes;
}

}  // namespace tmap
