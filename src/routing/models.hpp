// The routing models behind make_routing(), one per topology family.
#pragma once

#include <memory>
#include <vector>

#include "tmap/routing.hpp"
#include "tmap/topology.hpp"

namespace tmap::routing {

/// Meshes and tori of any dimension: dimension-ordered routing (dimension 0
/// first), on tori the shorter way round (ties go up). Link id = v * D + k is
/// the link from vertex v to its successor in dimension k (on tori the last
/// vertex's successor is vertex 0 of that ring).
class MeshRouting final : public RoutingModel {
 public:
  MeshRouting(std::vector<std::int64_t> dims, bool torus);
  [[nodiscard]] LinkId num_links() const override { return size_ * static_cast<LinkId>(dims_.size()); }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override {
    return static_cast<int>(link % static_cast<LinkId>(dims_.size()));
  }

 private:
  std::vector<std::int64_t> dims_;
  std::vector<std::int64_t> stride_;
  bool torus_;
  PE size_ = 1;
};

/// Hypercubes: e-cube routing (lowest differing bit first). Link id =
/// v * D + k joins v (bit k clear) and v | 2^k.
class HypercubeRouting final : public RoutingModel {
 public:
  explicit HypercubeRouting(int dimension);
  [[nodiscard]] LinkId num_links() const override { return (LinkId{1} << dimension_) * dimension_; }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override { return static_cast<int>(link % dimension_); }

 private:
  int dimension_;
};

/// Complete graphs: one direct link per pair of PEs.
class CompleteRouting final : public RoutingModel {
 public:
  explicit CompleteRouting(PE size);
  [[nodiscard]] LinkId num_links() const override { return size_ * (size_ - 1) / 2; }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId /*link*/) const override { return 0; }

 private:
  PE size_;
};

/// Trees (tleaf, ltleaf, hwloc): up from the source leaf to the lowest common
/// ancestor, down to the destination leaf. Every tree vertex but the root has
/// one link to its parent; link id = vertex id - 1; kind "level<k>" for a
/// vertex at depth k (1 = below the root). A hop is one tree edge.
class TreeRouting final : public RoutingModel {
 public:
  /// Requires the topology's tree view.
  explicit TreeRouting(const Topology& topology);
  [[nodiscard]] LinkId num_links() const override { return static_cast<LinkId>(depth_of_.size()) - 1; }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override {
    return static_cast<int>(depth_of_[static_cast<std::size_t>(link + 1)]) - 1;
  }

 private:
  std::int64_t depth_ = 0;
  // 32-bit vertex ids (at most PEs x depth vertices, checked): at a
  // million PEs a model holds 23 MB less, and a run holds two or three.
  std::vector<std::int32_t> path_;      ///< PE-major: vertex id at depths 1..depth_
  std::vector<std::int32_t> depth_of_;  ///< vertex id -> depth (root 0 at depth 0)
  std::vector<std::int32_t> parent_;    ///< vertex id -> parent vertex id
};

/// The Tianhe-3 prototype (documented in docs/strategies.md, "Routing and link metrics").
/// Hops are the switches a message crosses: the source side's switch (the
/// base hop), the other side's switch of the destination chip (a side link,
/// 1 hop), and for each chip-to-chip link the row or column router and the
/// next chip's switch (2 hops). Chips in one row or column are linked
/// directly; when rows and columns both differ the message goes along its
/// row first to the chip in the destination's column, then down that column.
/// It keeps its source side until the destination chip, and changes side
/// there. Hops then equal the hop table: 1 + [sides differ] + 2 [rows
/// differ] + 2 [columns differ]. Links: each node's link to its side switch
/// (0 hops, the node's injection bandwidth), one side link per chip, one
/// link per pair of chips in a row and per pair in a column.
class Tianhe3Routing final : public RoutingModel {
 public:
  Tianhe3Routing(std::int64_t rows, std::int64_t cols, std::int64_t nodes_per_chip, std::int64_t cores);
  [[nodiscard]] LinkId num_links() const override { return col_base_ + cols_ * pairs(rows_); }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] Distance link_hops(LinkId link) const override;
  [[nodiscard]] Distance base_hops() const override { return 1; }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override;

 private:
  static std::int64_t pairs(std::int64_t k) { return k * (k - 1) / 2; }
  /// Index of the unordered pair {x, y} (x != y) among k items.
  static std::int64_t pair_index(std::int64_t x, std::int64_t y, std::int64_t k);
  [[nodiscard]] LinkId row_link(std::int64_t row, std::int64_t c1, std::int64_t c2) const {
    return row_base_ + row * pairs(cols_) + pair_index(c1, c2, cols_);
  }
  [[nodiscard]] LinkId col_link(std::int64_t col, std::int64_t r1, std::int64_t r2) const {
    return col_base_ + col * pairs(rows_) + pair_index(r1, r2, rows_);
  }
  std::int64_t rows_, cols_, nodes_, cores_;
  LinkId side_base_, row_base_, col_base_;
};

/// A sub target: the routes of the whole target between the listed PEs.
class SubRouting final : public RoutingModel {
 public:
  SubRouting(std::unique_ptr<RoutingModel> base, std::vector<PE> terminals);
  [[nodiscard]] LinkId num_links() const override { return base_->num_links(); }
  void route(PE a, PE b, std::vector<LinkId>& links) const override {
    base_->route(terminals_[static_cast<std::size_t>(a)], terminals_[static_cast<std::size_t>(b)], links);
  }
  [[nodiscard]] Distance link_hops(LinkId link) const override { return base_->link_hops(link); }
  [[nodiscard]] Distance base_hops() const override { return base_->base_hops(); }
  [[nodiscard]] Distance source_hops(PE pe) const override {
    return base_->source_hops(terminals_[static_cast<std::size_t>(pe)]);
  }
  [[nodiscard]] Distance destination_hops(PE pe) const override {
    return base_->destination_hops(terminals_[static_cast<std::size_t>(pe)]);
  }
  [[nodiscard]] std::string link_name(LinkId link) const override { return base_->link_name(link); }
  [[nodiscard]] int link_kind(LinkId link) const override { return base_->link_kind(link); }

 private:
  std::unique_ptr<RoutingModel> base_;
  std::vector<PE> terminals_;
};

}  // namespace tmap::routing
