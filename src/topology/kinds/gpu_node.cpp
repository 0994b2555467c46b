// One GPU node as the whole machine (--pe gpu, one rank per GPU):
// `nvidia-smi topo -m` or `rocm-smi --showtopo` output saved to a file, or a
// "gpu:N ..." spec; an hwloc XML's GPUs are read by the hwloc row with
// --pe gpu. The model is topology/gpu/gpu_node.hpp.
#include "topology/gpu/gpu_node.hpp"

#include <vector>

#include "tmap/error.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::topo {

namespace {

bool recognise(const MachineInput& input) {
  if (!input.is_file()) return is_gpu_spec(input.text());
  return input.first_char() != '<' && is_gpu_topology_text(input.text());
}

std::unique_ptr<Topology> load(const MachineInput& input) {
  if (input.nodes.pe == "cpu") {
    throw ParameterError("pe: cpu, but " + input.origin() + " describes a node's GPUs, not its CPUs");
  }
  auto model = input.is_file() ? read_gpu_topology_text(input.text(), input.origin()) : gpu_node_of_spec(input.text());
  return std::make_unique<GpuNodeTopology>(std::move(model));
}

std::vector<KindExample> examples() {
  return {{"gpu:8 link:pairs package:2 nic:4 pu:16"},
          {"dgx.txt",
           "\tGPU0\tGPU1\tGPU2\tGPU3\tmlx5_0\tCPU Affinity\tNUMA Affinity\n"
           "GPU0\t X \tNV4\tNV4\tSYS\tPIX\t0-7\t0\n"
           "GPU1\tNV4\t X \tSYS\tNV4\tPIX\t0-7\t0\n"
           "GPU2\tNV4\tSYS\t X \tNV4\tSYS\t8-15\t1\n"
           "GPU3\tSYS\tNV4\tNV4\t X \tSYS\t8-15\t1\n"
           "mlx5_0\tPIX\tPIX\tSYS\tSYS\t X \n"
           "\nLegend:\n\n  X    = Self\n"}};
}

}  // namespace

MachineKind gpu_node_kind() {
  return {.name = "gpu-node",
          .how_written = "one GPU node (nvidia-smi topo -m or rocm-smi --showtopo output in a file, or 'gpu:N ...')",
          .spec_words = {"gpu"},
          .recognise = recognise,
          .load = load,
          .examples = examples};
}

}  // namespace tmap::topo
