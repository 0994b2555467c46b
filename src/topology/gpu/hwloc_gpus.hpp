// A GPU node from an hwloc XML (built only with hwloc, whose XML it reads).
#pragma once

#include <string>
#include <string_view>

#include "topology/gpu/gpu_node.hpp"

namespace tmap::topo {

/// The GPUs, NICs, links and nearest CPUs an hwloc XML of one node
/// records (hwloc_gpus.cpp says how). InputError naming `origin` (and the
/// line) when it names no GPU or holds a malformed part.
[[nodiscard]] GpuNodeModel gpu_node_of_hwloc_xml(std::string_view xml, const std::string& origin);

}  // namespace tmap::topo
