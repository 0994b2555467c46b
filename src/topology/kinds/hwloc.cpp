// hwloc XML (lstopo's output): one node's hardware tree (topology/
// hwloc_tree.hpp), read through libhwloc. A file is one by its extension
// ".xml", by starting with '<', or when its caller says so (-x), whatever
// its name. Without hwloc in the build the row stays and says so.
#include <filesystem>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "topology/kinds/kind.hpp"
#include "util/file.hpp"
#if TMAP_HAVE_HWLOC
#include "topology/gpu/hwloc_gpus.hpp"
#include "topology/hwloc_tree.hpp"
#endif

namespace tmap::topo {

namespace {

std::unique_ptr<Topology> from_text(std::string_view text, const std::string& origin) {
#if TMAP_HAVE_HWLOC
  return HwlocTreeTopology::from_xml_text(std::string(text), origin);
#else
  (void)text;
  throw UnsupportedError(origin +
                         ": this tmap was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): hwloc XML machines cannot "
                         "be read; rebuild with hwloc, or describe the machine as a Scotch target (tleaf, deco)");
#endif
}

bool recognise(const MachineInput& input) {
  return input.is_file() && (input.said_hwloc_xml() || input.extension() == ".xml" || input.first_char() == '<');
}

std::unique_ptr<Topology> load(const MachineInput& input) {
#if TMAP_HAVE_HWLOC
  // --pe gpu: the node's GPUs, read from the XML's I/O objects.
  if (input.nodes.pe == "gpu") {
    return std::make_unique<GpuNodeTopology>(gpu_node_of_hwloc_xml(input.text(), input.origin()));
  }
#endif
  // libhwloc reads a regular file itself (its own size limits and errors).
  if (input.is_regular_file()) return load_hwloc_xml(input.origin());
  return from_text(input.text(), input.origin());
}

std::vector<KindExample> examples() {
#if TMAP_HAVE_HWLOC
  return {{"node.xml", HwlocTreeTopology("package:2 core:2 pu:2", false).xml()},
          {"node-without-extension", HwlocTreeTopology("package:1 l3:2 core:3 pu:1", false).xml()}};
#else
  return {};
#endif
}

}  // namespace

MachineKind hwloc_kind() {
  return {
      .name = "hwloc", .how_written = "an hwloc XML file", .recognise = recognise, .load = load, .examples = examples};
}

}  // namespace tmap::topo

namespace tmap {

std::unique_ptr<Topology> load_hwloc_xml(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "cannot open the hwloc XML file (no such file)");
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not an hwloc XML file");
#if TMAP_HAVE_HWLOC
  // A pipe or FIFO (-x <(lstopo --of xml)) is read as a bounded stream.
  if (!std::filesystem::is_regular_file(path, ec)) return topo::from_text(detail::read_text_file(path), path);
  return std::make_unique<topo::HwlocTreeTopology>(path, true);
#else
  return topo::from_text({}, path);
#endif
}

}  // namespace tmap
