#include "topology/hwloc_tree.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "tmap/error.hpp"
#include "topology/hwloc_input.hpp"
#include "util/file.hpp"

namespace tmap::topo {

namespace {

struct HwlocTopology {
  hwloc_topology_t t = nullptr;
  HwlocTopology() {
    if (hwloc_topology_init(&t) != 0) throw InternalError("hwloc: cannot initialise a topology");
  }
  ~HwlocTopology() {
    hwloc_topology_destroy(t);
    reset_libxml_error_handlers();  // hwloc's XML plugin may be gone now
  }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
};

enum Kind { kXmlFile = 0, kSynthetic = 1, kXmlText = 2, kThisSystem = 3 };

}  // namespace

HwlocTreeTopology::HwlocTreeTopology(const std::string& source, bool xml) : source_(source) {
  load(source, xml ? kXmlFile : kSynthetic, xml ? source : "'" + source + "'");
}

std::unique_ptr<HwlocTreeTopology> HwlocTreeTopology::from_xml_text(const std::string& text,
                                                                    const std::string& origin) {
  std::unique_ptr<HwlocTreeTopology> result(new HwlocTreeTopology());
  result->source_ = origin;
  result->load(text, kXmlText, origin);
  return result;
}

std::string synthetic_with_pus(const std::string& description) {
  auto end = description.find_last_not_of(" \t\n");
  if (end == std::string::npos) return description;
  const auto last = description.find_last_of(" \t\n", end);
  auto tail = description.substr(last == std::string::npos ? 0 : last + 1,
                                 end - (last == std::string::npos ? 0 : last + 1) + 1);
  for (auto& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tail.starts_with("pu") ? description : description.substr(0, end + 1) + " pu:1";
}

std::unique_ptr<HwlocTreeTopology> HwlocTreeTopology::this_system() {
  // hwloc would read these unchecked (topology/hwloc_input.hpp): read here, checked.
  for (const char* variable : {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    try {
      const bool xml = std::string_view(variable) == "HWLOC_XMLFILE";
      return std::make_unique<HwlocTreeTopology>(xml ? std::string(value) : synthetic_with_pus(value), xml);
    } catch (const InputError& e) {  // named as the variable that said it
      throw InputError(std::string(variable) + "=" + value, e.problem());
    }
  }
  std::unique_ptr<HwlocTreeTopology> result(new HwlocTreeTopology());
  result->source_ = "this machine";
  result->load({}, kThisSystem, "this machine (hwloc)");
  return result;
}

/// In-process, never in a child: the library runs inside MPI ranks. What
/// hwloc reads is checked and bounded first (topology/hwloc_input.hpp).
void HwlocTreeTopology::load(const std::string& source, int kind, const std::string& origin) {
  HwlocTopology topology;
  std::string checked;
  if (kind == kSynthetic) {
    check_hwloc_synthetic(source);
    if (hwloc_topology_set_synthetic(topology.t, source.c_str()) != 0) {
      throw InputError("hwloc rejects the synthetic description " + origin +
                       " (e.g. 'pack:1 numa:8 l2:2 core:4 pu:1')");
    }
  } else if (kind != kThisSystem) {
    checked = sanitized_hwloc_xml(kind == kXmlFile ? detail::read_text_file(source) : source, origin);
    if (hwloc_topology_set_xmlbuffer(topology.t, checked.c_str(), static_cast<int>(checked.size()) + 1) != 0) {
      throw InputError(origin, "hwloc cannot read this XML file");
    }
  }
  if (hwloc_topology_load(topology.t) != 0) throw InputError(origin + ": hwloc cannot load this topology");
  const int pus = hwloc_get_nbobjs_by_type(topology.t, HWLOC_OBJ_PU);
  if (pus > kMaxNodePus) throw InputError(origin + ": the node has more than " + std::to_string(kMaxNodePus) + " PUs");
  if (pus < 1) throw InputError(origin + ": the topology has no PU");
  for (int i = 0; i < pus; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(topology.t, HWLOC_OBJ_PU, static_cast<unsigned>(i));
    std::vector<std::uint64_t> chain;
    for (hwloc_obj_t obj = pu; obj != nullptr; obj = obj->parent) chain.push_back(obj->gp_index);
    ancestors_.emplace_back(chain.rbegin(), chain.rend());
    // The logical index of the PU's core: what an Open MPI rankfile's slot= names.
    const hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topology.t, HWLOC_OBJ_CORE, pu);
    core_of_.push_back(core == nullptr ? -1 : static_cast<std::int64_t>(core->logical_index));
  }
  bool symmetric = true;
  const int depth = hwloc_topology_get_depth(topology.t);
  for (int d = 0; d + 1 < depth && symmetric; ++d) {
    const auto count = static_cast<unsigned>(hwloc_get_nbobjs_by_depth(topology.t, d));
    const unsigned arity = hwloc_get_obj_by_depth(topology.t, d, 0)->arity;
    for (unsigned k = 0; k < count; ++k)
      symmetric = symmetric && hwloc_get_obj_by_depth(topology.t, d, k)->arity == arity;
    if (arity > 1) arities_.push_back(arity);
  }
  if (!symmetric) arities_.clear();
  if (const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology.t), "HostName")) {
    host_name_ = host;
    if (host_name_.find_first_of(" \t\n=") != std::string::npos || host_name_.size() > 255) host_name_.clear();
  }
  char* buffer = nullptr;
  int length = 0;
  if (hwloc_topology_export_xmlbuffer(topology.t, &buffer, &length, 0) == 0 && buffer != nullptr) {
    xml_.assign(buffer, static_cast<std::size_t>(std::max(length - 1, 0)));
    hwloc_free_xmlbuffer(topology.t, buffer);
  }
  // The exact largest distance (the tree's diameter over PUs) in
  // O(PUs x depth): at each object, the two deepest PUs below different
  // children.
  struct Best {
    std::int64_t first = -1;
    std::uint64_t first_child = 0;
    std::int64_t second = -1;
  };
  std::unordered_map<std::uint64_t, Best> best;
  for (const auto& chain : ancestors_) {
    const auto leaf_depth = static_cast<std::int64_t>(chain.size()) - 1;
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
      auto& b = best[chain[k]];
      if (b.first < 0 || leaf_depth > b.first) {
        if (b.first >= 0 && b.first_child != chain[k + 1]) b.second = b.first;
        b.first = leaf_depth;
        b.first_child = chain[k + 1];
      } else if (chain[k + 1] != b.first_child && leaf_depth > b.second) {
        b.second = leaf_depth;
      }
      if (b.second >= 0) {
        max_distance_ = std::max<Distance>(max_distance_, b.first + b.second - 2 * static_cast<std::int64_t>(k));
      }
    }
  }
}

Distance HwlocTreeTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto& x = ancestors_[a];
  const auto& y = ancestors_[b];
  std::size_t common = 0;
  while (common < x.size() && common < y.size() && x[common] == y[common]) ++common;
  return static_cast<Distance>((x.size() - common) + (y.size() - common));
}

}  // namespace tmap::topo
