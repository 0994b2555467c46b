#include "topology/hwloc_tree.hpp"

#include <hwloc.h>

#include <algorithm>
#include <memory>

#include "tmap/error.hpp"
#include "topology/deco.hpp"

namespace tmap::topo {

namespace {

struct HwlocTopology {
  hwloc_topology_t t = nullptr;
  HwlocTopology() {
    if (hwloc_topology_init(&t) != 0) throw InternalError("hwloc: cannot initialise a topology");
  }
  ~HwlocTopology() { hwloc_topology_destroy(t); }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
};

}  // namespace

HwlocTreeTopology::HwlocTreeTopology(const std::string& source, bool xml) : source_(source) {
  HwlocTopology topology;
  if (xml) {
    if (hwloc_topology_set_xml(topology.t, source.c_str()) != 0) {
      throw InputError(source, "hwloc cannot read this XML file");
    }
  } else if (hwloc_topology_set_synthetic(topology.t, source.c_str()) != 0) {
    throw InputError("hwloc rejects the synthetic description '" + source +
                     "' (e.g. 'pack:1 numa:8 l2:2 core:4 pu:1')");
  }
  load(&topology.t, xml ? source : "'" + source + "'");
}

std::unique_ptr<HwlocTreeTopology> HwlocTreeTopology::from_xml_text(const std::string& text, const std::string& origin) {
  HwlocTopology topology;
  if (text.empty() || hwloc_topology_set_xmlbuffer(topology.t, text.c_str(), static_cast<int>(text.size()) + 1) != 0) {
    throw InputError(origin, "hwloc cannot read this XML");
  }
  std::unique_ptr<HwlocTreeTopology> result(new HwlocTreeTopology());
  result->source_ = origin;
  result->load(&topology.t, origin);
  return result;
}

void HwlocTreeTopology::load(void* handle, const std::string& origin) {
  auto topology = *static_cast<hwloc_topology_t*>(handle);
  if (hwloc_topology_load(topology) != 0) throw InputError(origin + ": hwloc cannot load this topology");
  const int pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
  if (pus < 1) throw InputError(origin + ": the topology has no PU");
  for (int i = 0; i < pus; ++i) {
    std::vector<std::uint64_t> chain;
    for (hwloc_obj_t obj = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, static_cast<unsigned>(i)); obj != nullptr;
         obj = obj->parent) {
      chain.push_back(obj->gp_index);
    }
    std::reverse(chain.begin(), chain.end());
    ancestors_.push_back(std::move(chain));
  }
  // Symmetric fan-outs, root to PUs (levels of fan-out 1 left out).
  bool symmetric = true;
  const int depth = hwloc_topology_get_depth(topology);
  for (int d = 0; d + 1 < depth && symmetric; ++d) {
    const unsigned count = hwloc_get_nbobjs_by_depth(topology, d);
    const unsigned arity = hwloc_get_obj_by_depth(topology, d, 0)->arity;
    for (unsigned k = 0; k < count; ++k) symmetric = symmetric && hwloc_get_obj_by_depth(topology, d, k)->arity == arity;
    if (arity > 1) arities_.push_back(arity);
  }
  if (!symmetric) arities_.clear();
  char* buffer = nullptr;
  int length = 0;
  if (hwloc_topology_export_xmlbuffer(topology, &buffer, &length, 0) == 0 && buffer != nullptr) {
    xml_.assign(buffer, static_cast<std::size_t>(std::max(length - 1, 0)));
    hwloc_free_xmlbuffer(topology, buffer);
  }
  for (PE a = 0; a < size(); ++a) {
    for (PE b = a + 1; b < size() && size() <= 4096; ++b) max_distance_ = std::max(max_distance_, distance(a, b));
  }
  if (size() > 4096) max_distance_ = 2 * static_cast<Distance>(depth);  // bound for very large nodes
}

Distance HwlocTreeTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto& x = ancestors_[a];
  const auto& y = ancestors_[b];
  std::size_t common = 0;
  while (common < x.size() && common < y.size() && x[common] == y[common]) ++common;
  return static_cast<Distance>((x.size() - common) + (y.size() - common));
}

std::string HwlocTreeTopology::to_tgt() const {
  std::vector<std::int64_t> order(static_cast<std::size_t>(size()));
  for (PE p = 0; p < size(); ++p) order[p] = p;
  return format_deco0(order, std::vector<std::int64_t>(order.size(), 1),
                      [&](std::int64_t a, std::int64_t b) { return distance(a, b); });
}

}  // namespace tmap::topo
