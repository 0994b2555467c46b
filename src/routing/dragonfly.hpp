// A dragonfly of compute nodes as SimGrid's DRAGONFLY cluster zone builds
// it: G groups of C chassis of R routers (blades), N nodes per router. Each
// router links to its nodes (local cables), to the other routers of its
// chassis (green, all to all), to the routers of the same blade in the
// other chassis of its group (black, all to all), and groups are joined two
// by two by one blue cable, between router (i, index j) and router (j,
// index i), a router's index in its group being chassis x R + blade.
// "dragonfly:G,gl;C,cl;R,rl;N" gives the counts and, after each, how many
// parallel cables each blue, black and green link stands for (one link of
// that many times the bandwidth, as SimGrid has it).
//
// Routing is SimGrid's minimal one: within the source group to the router
// holding the blue cable to the destination group (green first, then
// black), across it, then within the destination group to the destination
// router (green, then black). SimGrid 3.32 takes a green step inside a
// group as if it landed in chassis 0: a message from chassis c != 0 to
// another blade then gets a black hop from chassis 0 (one too many when it
// stays in chassis c, one too few when it goes to chassis 0). tmap routes
// over the cables the message really crosses; every other route is
// SimGrid's, link class by link class (tests/network_oracle.sh checks both).
// Needs G <= C x R (a router per other group; SimGrid itself needs G <= R).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/network.hpp"

namespace tmap::routing {

class DragonflyNetwork final : public Network {
 public:
  struct Shape {
    std::int64_t groups, blue, chassis, black, routers, green, nodes;
  };
  /// InputError for counts below 1, more groups than a group has routers,
  /// or more than 2^26 nodes or cables.
  explicit DragonflyNetwork(Shape shape);

  [[nodiscard]] std::int64_t num_nodes() const override { return nodes_; }
  [[nodiscard]] std::int64_t hops(std::int64_t a, std::int64_t b) const override;
  [[nodiscard]] std::int64_t max_hops() const override;
  void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const override;
  [[nodiscard]] LinkId num_links() const override { return first_blue_ + s_.groups * (s_.groups - 1) / 2; }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override;
  /// local, green, black, blue.
  [[nodiscard]] std::vector<std::string> link_kinds() const override { return {"local", "green", "black", "blue"}; }
  /// 1 for local cables; green, black and blue links stand for rl, cl, gl cables.
  [[nodiscard]] std::vector<double> kind_bandwidths() const override {
    return {1.0, static_cast<double>(s_.green), static_cast<double>(s_.black), static_cast<double>(s_.blue)};
  }
  [[nodiscard]] std::string kind() const override { return "dragonfly"; }
  /// Blue cables join two groups (the routers they attach to are not
  /// named): their ends are "group(i)" and "group(j)".
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override;
  [[nodiscard]] std::string spec() const override;

  struct Router {
    std::int64_t group, chassis, blade;
  };
  [[nodiscard]] Router router_of(std::int64_t node) const;

 private:
  /// A link decoded: its kind, and the routers at its ends (a node's link:
  /// the node's router as `lower`; a blue link: the two groups only).
  struct Cable {
    int kind;
    Router lower, upper;
  };
  [[nodiscard]] Cable cable(LinkId link) const;
  [[nodiscard]] LinkId green(const Router& r, std::int64_t other_blade) const;
  [[nodiscard]] LinkId black(const Router& r, std::int64_t other_chassis) const;
  [[nodiscard]] LinkId blue(std::int64_t g1, std::int64_t g2) const;
  /// Appends the within-group steps from `at` to (its group, chassis, blade).
  void within_group(Router& at, std::int64_t chassis, std::int64_t blade, std::vector<LinkId>* links,
                    std::int64_t& count) const;

  Shape s_;
  std::int64_t nodes_ = 0;
  LinkId first_green_ = 0, first_black_ = 0, first_blue_ = 0;
};

}  // namespace tmap::routing
