// What lstopo writes, tmap reads, and reads as libhwloc does (issue 61).
// For a range of synthetic machines (1 to 1,024 PUs, with NUMA nodes,
// caches, SMT, groups and permuted PU numbers), the real lstopo writes the
// XML; tmap loads the file, and libhwloc loads the same file directly (no
// tmap code in between). Every PU pair's tree distance and every PU's core
// must agree. Above 64 PUs hwloc writes zero words of a cpuset empty
// ("0x00000003,,0x0"), which tmap refused before.
#include <gtest/gtest.h>
#include <hwloc.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "tmap/host_layout.hpp"
#include "topology/hwloc_tree.hpp"

namespace {

/// libhwloc's own reading of an XML file: per PU in logical order, its
/// ancestors' depths, and pair distances through the common ancestor.
class HwlocReading {
 public:
  explicit HwlocReading(const std::string& path) {
    hwloc_topology_init(&topology_);
    if (hwloc_topology_set_xml(topology_, path.c_str()) != 0 || hwloc_topology_load(topology_) != 0) {
      ADD_FAILURE() << "libhwloc cannot load " << path;
    }
  }
  ~HwlocReading() { hwloc_topology_destroy(topology_); }
  HwlocReading(const HwlocReading&) = delete;
  HwlocReading& operator=(const HwlocReading&) = delete;

  [[nodiscard]] int pus() const { return hwloc_get_nbobjs_by_type(topology_, HWLOC_OBJ_PU); }
  [[nodiscard]] hwloc_obj_t pu(int i) const {
    return hwloc_get_obj_by_type(topology_, HWLOC_OBJ_PU, static_cast<unsigned>(i));
  }
  /// Tree edges between two PUs through their lowest common ancestor.
  [[nodiscard]] std::int64_t distance(int a, int b) const {
    const hwloc_obj_t x = pu(a);
    const hwloc_obj_t y = pu(b);
    const hwloc_obj_t common = hwloc_get_common_ancestor_obj(topology_, x, y);
    return (x->depth - common->depth) + (y->depth - common->depth);
  }
  [[nodiscard]] std::int64_t core(int i) const {
    const hwloc_obj_t c = hwloc_get_ancestor_obj_by_type(topology_, HWLOC_OBJ_CORE, pu(i));
    return c == nullptr ? i : static_cast<std::int64_t>(c->logical_index);
  }

 private:
  hwloc_topology_t topology_ = nullptr;
};

struct Machine {
  const char* synthetic;
  int pus;
  friend void PrintTo(const Machine& m, std::ostream* out) { *out << "'" << m.synthetic << "'"; }
};

class LstopoXml : public ::testing::TestWithParam<Machine> {};

TEST_P(LstopoXml, LoadsAsLibhwlocReadsIt) {
  const auto& machine = GetParam();
  const auto folder = std::filesystem::temp_directory_path() / ("tmap-lstopo-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  const auto path = (folder / "node.xml").string();
  const std::string command =
      std::string("lstopo --input '") + machine.synthetic + "' --of xml --force " + path + " 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  const HwlocReading hwloc(path);
  ASSERT_EQ(hwloc.pus(), machine.pus);
  const tmap::topo::HwlocTreeTopology tmap_tree(path, true);
  ASSERT_EQ(tmap_tree.size(), machine.pus);
  const auto* layout = tmap_tree.find<tmap::HostLayout>();
  ASSERT_NE(layout, nullptr);
  // Every pair up to 256 PUs; above, every pair of a 7-strided sample
  // (with the first and last PU), 21,000 pairs at 1,024.
  const int n = machine.pus;
  const int stride = n <= 256 ? 1 : 7;
  std::vector<int> sample;
  for (int i = 0; i < n; i += stride) sample.push_back(i);
  if (sample.back() != n - 1) sample.push_back(n - 1);
  std::int64_t checked = 0;
  for (const int a : sample) {
    EXPECT_EQ(layout->slot_in_node(a), hwloc.core(a)) << machine.synthetic << " PU " << a;
    for (const int b : sample) {
      ASSERT_EQ(tmap_tree.distance(a, b), hwloc.distance(a, b)) << machine.synthetic << " PUs " << a << ", " << b;
      ++checked;
    }
  }
  EXPECT_GE(checked, 1);
  std::filesystem::remove_all(folder);
}

INSTANTIATE_TEST_SUITE_P(SyntheticMachines, LstopoXml,
                         ::testing::Values(Machine{"pu:1", 1}, Machine{"core:4 pu:2", 8},
                                           Machine{"pack:2 numa:2 l3:1 l2:4 l1d:1 core:1 pu:2", 32},
                                           Machine{"pack:2 core:4 pu:2(indexes=core:pu)", 16},
                                           Machine{"pack:3 core:33 pu:1", 99}, Machine{"package:2 core:64 pu:2", 256},
                                           Machine{"group:4 pack:2 core:8 pu:4", 256},
                                           Machine{"pack:2 numa:2 core:8 pu:4(indexes=pu:core)", 128},
                                           Machine{"pack:8 numa:2 l3:2 core:16 pu:2", 1024}));

}  // namespace
