#include "targets.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "strategies/grid2d/grid2d.hpp"
#include "tmap/config.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/tmap.hpp"
#include "topology/cluster_load.hpp"
#include "topology/gpu/gpu_node.hpp"
#include "topology/gpu/hwloc_gpus.hpp"
#include "topology/hwloc_tree.hpp"
#include "topology/kinds/distance_matrix.hpp"
#include "topology/kinds/kind.hpp"

namespace tmap::fuzz {

namespace {

std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Runs f; a reported error is the expected outcome of bad input (invalid
/// input, a refused size, an unsupported kind), an internal one is a bug:
/// rethrown, libFuzzer reports it.
template <typename F>
void expect_input_errors_only(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Internal) throw;
  }
}

}  // namespace

void tgt(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] {
    const auto t = parse_tgt(text_of(data, size), "fuzz.tgt");
    if (t->size() <= 64) {
      for (PE a = 0; a < t->size(); ++a) (void)t->distance(a, t->size() - 1 - a);
      (void)scotch_target(*t);
    }
  });
}

void comm(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const CommFormat formats[] = {CommFormat::Dense,        CommFormat::Csv,         CommFormat::Coo,
                                CommFormat::MatrixMarket, CommFormat::ScotchGraph, CommFormat::MetisGraph,
                                CommFormat::Phases};
  const auto format = formats[data[0] % std::size(formats)];
  expect_input_errors_only([&] {
    const auto m = parse_comm(text_of(data + 1, size - 1), format, "fuzz.comm");
    (void)m.symmetrized();
    (void)m.total_volume();
    (void)m.total_rank_weight();
  });
}

void pe_list(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] { (void)parse_pe_list(text_of(data, size), "fuzz.pes", 1000); });
  // The other list of numbers a user writes by hand: --weights.
  expect_input_errors_only([&] { (void)parse_rank_weights(text_of(data, size), "fuzz.weights", 100); });
}

void hostlist(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] {
    const auto a = parse_allocation(text_of(data, size));
    const auto t = load_topology("tianhe3:2x2,nodes=8");
    a.check(*t);
  });
}

void mapping(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] { (void)parse_mapping(text_of(data, size), "fuzz.map"); });
}

void hwloc(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] { (void)topo::HwlocTreeTopology::from_xml_text(text_of(data, size), "fuzz.xml"); });
}

void dist(const std::uint8_t* data, std::size_t size) {
  expect_input_errors_only([&] { (void)topo::parse_dist(text_of(data, size), "fuzz.dist"); });
}

void tables(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const auto text = text_of(data + 1, size - 1);
  expect_input_errors_only([&] {
    if (data[0] % 2 == 0) {
      // --link-bw on the Tianhe-3 and mesh models.
      for (const char* spec : {"tianhe3:1x2,nodes=4", "mesh2D 3 2"}) {
        const auto t = load_topology(spec);
        auto routing = make_routing(*t);
        routing->set_bandwidths(text);
      }
    } else {
      // --grid2d-bw tables.
      const auto table = strategies::grid2d::BandwidthTable::parse(text, "fuzz.bw");
      (void)table.get(0, 1, "fuzz.bw");
    }
  });
}

void cluster(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const auto text = text_of(data + 1, size - 1);
  expect_input_errors_only([&] {
    // A network of nodes as -t names it, or a Slurm topology.conf's text;
    // one PE a node (--node reads files and hwloc's synthetic strings).
    const auto t =
        data[0] % 2 == 0 ? topo::load_cluster(text, {}, {}) : topo::load_slurm_cluster(text, "fuzz.conf", {});
    for (PE a = 0; a < std::min<PE>(t->size(), 64); ++a) (void)t->distance(a, t->size() - 1 - a);
    if (t->size() <= 4096) {
      auto routing = make_routing(*t);
      (void)routing;
    }
  });
}

void machine(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const auto text = text_of(data + 1, size - 1);
  expect_input_errors_only([&] {
    // What the kind table's recognisers see: -t's text as a spec, or a
    // file's content under a name that says (or does not say) its kind.
    constexpr std::array<const char*, 5> kNames{"fuzz.tgt", "fuzz.xml", "fuzz.dist", "fuzz", "topology.conf"};
    const auto pick = data[0] % (kNames.size() + 1);
    const auto t = pick == kNames.size() ? topo::read_machine(topo::MachineInput::spec(text))
                                         : parse_topology_file(text, kNames[pick]);
    for (PE a = 0; a < std::min<PE>(t->size(), 64); ++a) (void)t->distance(a, t->size() - 1 - a);
    if (t->size() <= 64) (void)scotch_target(*t);
  });
}

void gpu(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const auto text = text_of(data + 1, size - 1);
  expect_input_errors_only([&] {
    const auto pick = data[0] % 3;
    auto model = pick == 0   ? topo::read_gpu_topology_text(text, "fuzz.txt")
                 : pick == 1 ? topo::gpu_node_of_hwloc_xml(text, "fuzz.xml")
                             : topo::gpu_node_of_spec(text);
    const topo::GpuNodeTopology node(std::move(model));
    const auto routing = node.routing_model();
    std::vector<LinkId> links;
    for (PE a = 0; a < std::min<PE>(node.size(), 64); ++a) {
      (void)node.distance(a, node.size() - 1 - a);
      (void)node.device_slot(a);
      links.clear();
      routing->route(a, node.size() - 1 - a, links);
    }
  });
}

void config(const std::uint8_t* data, std::size_t size) {
  // --config: a --dump-config file or a tm-map JSON result.
  expect_input_errors_only([&] { (void)load_config(text_of(data, size), "fuzz.json"); });
}

Target find(std::string_view name) {
  if (name == "tgt") return tgt;
  if (name == "comm") return comm;
  if (name == "pe_list") return pe_list;
  if (name == "hostlist") return hostlist;
  if (name == "mapping") return mapping;
  if (name == "hwloc") return hwloc;
  if (name == "tables") return tables;
  if (name == "dist") return dist;
  if (name == "cluster") return cluster;
  if (name == "config") return config;
  if (name == "machine") return machine;
  if (name == "gpu") return gpu;
  return nullptr;
}

}  // namespace tmap::fuzz
