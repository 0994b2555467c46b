// A .dist file: a distance matrix between PEs (its size first), read as a
// table of distances (kinds/distance_matrix.hpp). A file is one by its
// extension, or, without one, by starting with a number.
#include <cctype>
#include <vector>

#include "topology/kinds/distance_matrix.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

namespace {

bool recognise(const MachineInput& input) {
  if (!input.is_file()) return false;
  const auto extension = input.extension();
  return extension == ".dist" ||
         (extension.empty() && std::isdigit(static_cast<unsigned char>(input.first_char())) != 0);
}

std::unique_ptr<Topology> load(const MachineInput& input) {
  return parse_dist(input.text(), input.origin());
}

std::vector<KindExample> examples() {
  return {{"three.dist", "3\n0 2 5\n2 0 4\n5 4 0\n"}, {"pair", "2\n0 7\n7 0\n"}};
}

}  // namespace

MachineKind dist_kind() {
  return {.name = "dist", .how_written = "a .dist matrix", .recognise = recognise, .load = load, .examples = examples};
}

}  // namespace tmap::topo
