// What tmap gives libhwloc, checked first: libhwloc 2.9 crashes or spins on
// malformed XML (a missing complete_cpuset is a NULL dereference inside
// hwloc_topology_load) and builds billions of objects for a synthetic
// description such as "pack:1000 core:1000 pu:1000". tmap runs inside MPI
// ranks, where it may not start a sandbox process, so inputs are validated and
// bounded here and only then loaded, in-process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tmap::topo {

/// An XML document libxml2 parsed (its xmlDocPtr, kept opaque here so that
/// libxml2's headers stay in the readers), freed with it.
class XmlDocument {
 public:
  explicit XmlDocument(void* doc) noexcept : doc_(doc) {}
  ~XmlDocument();
  XmlDocument(XmlDocument&& other) noexcept : doc_(other.doc_) { other.doc_ = nullptr; }
  XmlDocument(const XmlDocument&) = delete;
  XmlDocument& operator=(const XmlDocument&) = delete;
  XmlDocument& operator=(XmlDocument&&) = delete;
  /// The xmlDocPtr.
  [[nodiscard]] void* get() const noexcept { return doc_; }

 private:
  void* doc_;
};

/// `xml` parsed with libxml2 (no network, no entity expansion, nothing
/// printed), its root a <topology>. InputError naming `origin` (and the
/// line) otherwise. What sanitized_hwloc_xml and the GPU reader start from.
[[nodiscard]] XmlDocument parse_topology_xml(std::string_view xml, const std::string& origin);

/// The bits of a cpuset as hwloc writes it ("0x00000303,,0x0"), nullopt
/// for a malformed or infinite one.
[[nodiscard]] std::optional<std::vector<std::int32_t>> cpus_of_bitmap(std::string_view text);

/// Most PUs a node may have (a malformed cpuset can claim millions).
inline constexpr int kMaxNodePus = 65536;

/// Parses lstopo XML with libxml2 (no network, no entity expansion, nothing
/// printed) and rebuilds it with only what tmap needs and hwloc can load
/// safely: the tree of CPU and memory objects (Machine, Package, Die,
/// Group, caches, Core, PU, NUMANode, MemCache) with their type, indices,
/// the four cpu/node sets and cache and group attributes, and their `info`
/// pairs. I/O and Misc objects, distances and memory attributes are left
/// out. Checked: every kept object carries valid cpuset, complete_cpuset,
/// nodeset and complete_nodeset bitmaps; children's sets lie within their
/// parent's; every PU has exactly one bit, equal to its os_index, unique;
/// at most kMaxNodePus PUs, 2^20 objects, 64 levels. InputError naming
/// `origin` and the line otherwise.
[[nodiscard]] std::string sanitized_hwloc_xml(std::string_view xml, const std::string& origin);

/// Puts this thread's libxml2 error handlers back to libxml2's own. hwloc's
/// libxml plugin sets the generic handler to a function of the plugin and is
/// unloaded when its topology is destroyed: the handler would then point
/// into unmapped memory, and the next error libxml2 reports through it (in
/// tmap or in the program around it) jumps there. fuzz_hwloc found it as a
/// SEGV "at a non-executable region". Called after every hwloc topology.
void reset_libxml_error_handlers() noexcept;

/// Checks a synthetic description ("pack:1 numa:8 l2:2 core:4 pu:1"): items
/// TYPE:COUNT (an optional "(attributes)" after the count), whose product,
/// the number of PUs, is at most kMaxNodePus. InputError otherwise.
void check_hwloc_synthetic(std::string_view description);

}  // namespace tmap::topo
