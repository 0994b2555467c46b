// The smallest use of the C++ API: an 8x8 stencil onto an 8x8 mesh, mapped
// in order, scored with hop-bytes.
#include <iostream>
#include <tmap/generators.hpp>
#include <tmap/tmap.hpp>

int main() {
  try {
    const auto topology = tmap::load_topology("mesh2D 8 8");
    const auto comm = tmap::gen::stencil({8, 8}, 5, 1000);
    const auto constraints = tmap::Constraints::all(*topology);
    const tmap::Problem problem{comm, *topology, constraints};
    tmap::Context context = tmap::preset("default");  // the configuration: strategy and every option
    context.strategy = "inorder";
    const auto mapping = tmap::map(problem, context);
    const auto metrics = tmap::evaluate(comm, *topology, mapping);
    std::cout << "hop_bytes " << metrics.hop_bytes << "\n";
    return 0;
  } catch (const tmap::Error& e) {
    std::cerr << "tmap-simple: " << e.what() << "\n";
    return 1;
  }
}
