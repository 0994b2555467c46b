// Tianhe-3's chip network (see models.hpp for the model).
#include <string>

#include "routing/models.hpp"

namespace tmap::routing {

namespace {
enum Kind { kNode = 0, kSide = 1, kRow = 2, kCol = 3 };
}

Tianhe3Routing::Tianhe3Routing(std::int64_t rows, std::int64_t cols, std::int64_t nodes_per_chip, std::int64_t cores)
    : RoutingModel({"node", "side", "row", "col"}),
      rows_(rows),
      cols_(cols),
      nodes_(nodes_per_chip),
      cores_(cores),
      side_base_(rows * cols * nodes_per_chip),
      row_base_(side_base_ + rows * cols),
      col_base_(row_base_ + rows * pairs(cols)) {}

std::int64_t Tianhe3Routing::pair_index(std::int64_t x, std::int64_t y, std::int64_t k) {
  if (x > y) std::swap(x, y);
  return x * k - x * (x + 1) / 2 + (y - x - 1);
}

void Tianhe3Routing::route(PE a, PE b, std::vector<LinkId>& links) const {
  const auto na = a / cores_;
  const auto nb = b / cores_;
  if (na == nb) return;
  const auto chip_a = na / nodes_;
  const auto chip_b = nb / nodes_;
  const auto half = nodes_ / 2;
  links.push_back(na);  // into the source side's switch
  const auto ra = chip_a / cols_, ca = chip_a % cols_;
  const auto rb = chip_b / cols_, cb = chip_b % cols_;
  // Row first: along the source row to the destination column, then along
  // that column to the destination row.
  if (ca != cb) links.push_back(row_link(ra, ca, cb));
  if (ra != rb) links.push_back(col_link(cb, ra, rb));
  if ((na % nodes_) / half != (nb % nodes_) / half) links.push_back(side_base_ + chip_b);
  links.push_back(nb);  // out of the destination side's switch
}

Distance Tianhe3Routing::link_hops(LinkId link) const {
  switch (link_kind(link)) {
    case kNode:
      return 0;
    case kSide:
      return 1;
    default:
      return 2;
  }
}

int Tianhe3Routing::link_kind(LinkId link) const {
  if (link < side_base_) return kNode;
  if (link < row_base_) return kSide;
  if (link < col_base_) return kRow;
  return kCol;
}

std::string Tianhe3Routing::link_name(LinkId link) const {
  const auto chip_name = [](std::int64_t r, std::int64_t c) {
    return "chip(" + std::to_string(r) + "," + std::to_string(c) + ")";
  };
  // Unordered pair index -> (x, y) among k items.
  const auto unpair = [](std::int64_t index, std::int64_t k) {
    std::int64_t x = 0;
    while (index >= k - 1 - x) {
      index -= k - 1 - x;
      ++x;
    }
    return std::pair{x, x + 1 + index};
  };
  switch (link_kind(link)) {
    case kNode: {
      const auto chip = link / nodes_;
      const char* side = (link % nodes_) / (nodes_ / 2) == 0 ? "L" : "R";
      return "cn" + std::to_string(link) + "-" + chip_name(chip / cols_, chip % cols_) + "." + side;
    }
    case kSide: {
      const auto chip = link - side_base_;
      const auto name = chip_name(chip / cols_, chip % cols_);
      return name + ".L-" + name + ".R";
    }
    case kRow: {
      const auto i = link - row_base_;
      const auto row = i / pairs(cols_);
      const auto [x, y] = unpair(i % pairs(cols_), cols_);
      return chip_name(row, x) + "-" + chip_name(row, y);
    }
    default: {
      const auto i = link - col_base_;
      const auto col = i / pairs(rows_);
      const auto [x, y] = unpair(i % pairs(rows_), rows_);
      return chip_name(x, col) + "-" + chip_name(y, col);
    }
  }
}

}  // namespace tmap::routing
