// Turns what users give to -t into a Topology: Scotch target text (from a
// file or inline) through a name -> loader table, or a built-in spec.
#include <algorithm>
#include <array>
#include <filesystem>
#include <functional>
#include <limits>

#include "tmap/error.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "topology/cluster_load.hpp"
#include "topology/complete.hpp"
#include "topology/distance_matrix.hpp"
#if TMAP_HAVE_HWLOC
#include "topology/hwloc_tree.hpp"
#endif
#include "topology/hypercube.hpp"
#include "topology/mesh.hpp"
#include "topology/subset.hpp"
#include "topology/tianhe3.hpp"
#include "topology/tianhe3_recognise.hpp"
#include "topology/tree_leaf.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap {

namespace {

using detail::TokenStream;
constexpr std::int64_t kMaxDim = std::int64_t{1} << 40;

std::unique_ptr<Topology> load_cmplt(TokenStream& in) {
  return std::make_unique<topo::CompleteTopology>(in.expect_int("cmplt size", 1, kMaxDim));
}

std::unique_ptr<Topology> load_hcub(TokenStream& in) {
  return std::make_unique<topo::HypercubeTopology>(static_cast<int>(in.expect_int("hcub dimension", 0, 40)));
}

std::unique_ptr<Topology> load_mesh(TokenStream& in, std::int64_t ndims, bool torus) {
  const std::string kind = torus ? "torus" : "mesh";
  if (ndims == 0) ndims = in.expect_int(kind + "XD number of dimensions", 1, 64);
  std::vector<std::int64_t> dims;
  for (std::int64_t k = 0; k < ndims; ++k) {
    dims.push_back(in.expect_int(kind + " dimension " + std::to_string(k), 1, kMaxDim));
  }
  try {
    return std::make_unique<topo::MeshTopology>(std::move(dims), torus);
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

std::unique_ptr<Topology> load_tleaf_kind(TokenStream& in, bool labeled) {
  const auto levels = in.expect_int("tleaf number of levels", 1, 64);
  std::vector<std::int64_t> fanouts;
  std::vector<Distance> links;
  for (std::int64_t k = 0; k < levels; ++k) {
    fanouts.push_back(in.expect_int("tleaf fan-out of level " + std::to_string(k), 1, kMaxDim));
    links.push_back(in.expect_int("tleaf link cost of level " + std::to_string(k), 1, std::int64_t{1} << 40));
  }
  std::vector<std::int64_t> permutation;
  if (labeled) {
    const auto count = in.expect_int("ltleaf permutation size", 1, kMaxDim);
    for (std::int64_t k = 0; k < count; ++k)
      permutation.push_back(in.expect_int("ltleaf permutation value", 0, kMaxDim));
  }
  try {
    return std::make_unique<topo::TreeLeafTopology>(std::move(fanouts), std::move(links), std::move(permutation));
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

std::unique_ptr<Topology> load_tleaf(TokenStream& in) {
  return load_tleaf_kind(in, false);
}
std::unique_ptr<Topology> load_ltleaf(TokenStream& in) {
  return load_tleaf_kind(in, true);
}

std::unique_ptr<Topology> load_cmpltw(TokenStream& in) {
  const auto n = in.expect_int("cmpltw size", 1, std::int64_t{1} << 24);
  std::vector<std::int64_t> weights;
  for (std::int64_t k = 0; k < n; ++k) weights.push_back(in.expect_int("cmpltw weight", 1, std::int64_t{1} << 30));
  return std::make_unique<topo::CompleteTopology>(n, std::move(weights));
}

std::unique_ptr<Topology> load_any(TokenStream& in);

/// Most `sub` targets nested in one another: each level is a recursive
/// call, and real targets nest one or two deep.
constexpr int kMaxSubDepth = 64;

std::unique_ptr<Topology> load_sub(TokenStream& in) {
  // The nesting depth of the sub being read on this thread.
  thread_local int depth = 0;
  struct Nested {
    Nested() { ++depth; }
    ~Nested() { --depth; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
  } nested;
  if (depth > kMaxSubDepth) in.fail("sub targets nested more than " + std::to_string(kMaxSubDepth) + " deep");
  const auto count = in.expect_int("sub number of terminals", 1, std::int64_t{1} << 31);
  std::vector<PE> terminals;
  for (std::int64_t k = 0; k < count; ++k) terminals.push_back(in.expect_int("sub terminal", 0, kMaxDim));
  const auto line = in.line();
  auto base = load_any(in);
  try {
    return std::make_unique<topo::SubTopology>(std::move(base), std::move(terminals));
  } catch (const InputError& e) {
    throw InputError(in.origin(), line, e.problem());
  }
}

/// deco 0 (terminals and their distance map) or deco 1 (Scotch's compiled
/// form: every domain and the domain distance array). We read both
/// ourselves: libscotch's terminal lookup on deco targets is off by one.
/// Terminal labels may be any distinct numbers (tm-topo writes node ids);
/// nodes are the terminals in label order, a terminal of weight w holding w
/// PEs. A target tm-topo wrote for Tianhe-3 is recognised as that machine.
std::unique_ptr<Topology> load_deco(TokenStream& in) {
  const auto type = in.expect_int("deco type", 0, 2);
  if (type == 2) in.fail("deco 2 targets only estimate distances and are not supported for mapping");
  const auto terminals = in.expect_int("deco number of terminals", 1, 1 << 15);
  const auto domains = in.expect_int("deco largest domain number", terminals, std::int64_t{1} << 30);
  // Every distance takes at least two characters: refuse what cannot fit
  // before allocating the terminals x terminals map.
  const std::int64_t listed = type == 0 ? terminals : domains;
  if (listed * (listed - 1) > in.remaining() + 1) {
    in.fail("a deco target of " + std::to_string(listed) + (type == 0 ? " terminals" : " domains") +
            " needs more distances than the file holds");
  }
  constexpr std::int64_t kMaxDistance = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t kMaxLabel = std::numeric_limits<std::int32_t>::max();
  // Terminals as listed: label and weight; then their ranks in label order.
  std::vector<std::int64_t> label;
  std::vector<std::int64_t> weight;
  std::vector<std::int64_t> term_of_domain;  // deco 1: domain -> listed terminal, or -1
  if (type == 0) {
    std::vector<char> seen_domain(static_cast<std::size_t>(domains) + 1, 0);  // domains^2 fit the file
    for (std::int64_t k = 0; k < terminals; ++k) {
      label.push_back(in.expect_int("deco terminal label", 0, kMaxLabel));
      weight.push_back(in.expect_int("deco terminal weight", 1, kMaxDistance));
      const auto domain = in.expect_int("deco terminal domain number", 1, domains);
      if (seen_domain[domain] != 0) in.fail("deco domain number " + std::to_string(domain) + " is used twice");
      seen_domain[domain] = 1;
    }
  } else {
    // Domain k (1-based) has a label, a size (1 for terminals) and a weight.
    term_of_domain.assign(static_cast<std::size_t>(domains) + 1, -1);
    for (std::int64_t k = 1; k <= domains; ++k) {
      const auto domain_label = in.expect_int("deco domain label", -1, kMaxLabel);
      const auto size = in.expect_int("deco domain size", 0, terminals);
      const auto domain_weight = in.expect_int("deco domain weight", 0, std::numeric_limits<std::int64_t>::max());
      if (size == 1) {
        if (domain_label < 0 || static_cast<std::int64_t>(label.size()) == terminals) {
          in.fail("deco 1: terminal domain " + std::to_string(k) + " has no valid label, or there are more than " +
                  std::to_string(terminals) + " terminal domains");
        }
        term_of_domain[k] = static_cast<std::int64_t>(label.size());
        label.push_back(domain_label);
        weight.push_back(std::clamp<std::int64_t>(domain_weight, 1, kMaxDistance));
      }
    }
    if (static_cast<std::int64_t>(label.size()) != terminals) {
      in.fail("deco 1 lists " + std::to_string(label.size()) + " terminal domains, not " + std::to_string(terminals));
    }
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(terminals));  // label order -> listed
  for (std::int64_t k = 0; k < terminals; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return label[a] < label[b]; });
  std::vector<std::int64_t> rank(static_cast<std::size_t>(terminals));  // listed -> label order
  std::vector<std::int64_t> sorted_labels(static_cast<std::size_t>(terminals));
  std::vector<std::int64_t> sorted_weights(static_cast<std::size_t>(terminals));
  for (std::int64_t r = 0; r < terminals; ++r) {
    rank[order[r]] = r;
    sorted_labels[r] = label[order[r]];
    sorted_weights[r] = weight[order[r]];
    if (r > 0 && sorted_labels[r] == sorted_labels[r - 1]) {
      in.fail("deco terminal label " + std::to_string(sorted_labels[r]) + " is used twice");
    }
  }
  std::vector<std::uint32_t> d(static_cast<std::size_t>(terminals * terminals), 0);
  auto set = [&](std::int64_t a, std::int64_t b, std::int64_t value) {
    d[static_cast<std::size_t>(rank[a] * terminals + rank[b])] = static_cast<std::uint32_t>(value);
    d[static_cast<std::size_t>(rank[b] * terminals + rank[a])] = static_cast<std::uint32_t>(value);
  };
  if (type == 0) {
    for (std::int64_t i = 1; i < terminals; ++i) {
      for (std::int64_t j = 0; j < i; ++j) set(i, j, in.expect_int("deco distance", 1, kMaxDistance));
    }
  } else {
    // Distance array: for domains i > j, entry (i-1)(i-2)/2 + j - 1.
    for (std::int64_t i = 2; i <= domains; ++i) {
      for (std::int64_t j = 1; j < i; ++j) {
        const auto value = in.expect_int("deco domain distance", 0, kMaxDistance);
        if (term_of_domain[i] >= 0 && term_of_domain[j] >= 0) set(term_of_domain[i], term_of_domain[j], value);
      }
    }
  }
  try {
    auto deco =
        std::make_unique<topo::DistanceMatrixTopology>(std::move(sorted_labels), sorted_weights, std::move(d), "deco");
    if (auto machine = topo::recognise_tianhe3(*deco)) return machine;
    return deco;
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

[[noreturn]] std::unique_ptr<Topology> refuse_variable(TokenStream& in) {
  in.fail("variable-sized targets (varcmplt, varhcub) are not supported for mapping: give a fixed-size target");
}

struct TargetKind {
  std::string_view name;
  std::function<std::unique_ptr<Topology>(TokenStream&)> load;
};

const std::array<TargetKind, 15>& target_kinds() {
  static const std::array<TargetKind, 15> kinds{{
      {"cmplt", load_cmplt},
      {"cmpltw", load_cmpltw},
      {"hcub", load_hcub},
      {"mesh2D", [](TokenStream& in) { return load_mesh(in, 2, false); }},
      {"mesh3D", [](TokenStream& in) { return load_mesh(in, 3, false); }},
      {"meshXD", [](TokenStream& in) { return load_mesh(in, 0, false); }},
      {"torus2D", [](TokenStream& in) { return load_mesh(in, 2, true); }},
      {"torus3D", [](TokenStream& in) { return load_mesh(in, 3, true); }},
      {"torusXD", [](TokenStream& in) { return load_mesh(in, 0, true); }},
      {"tleaf", load_tleaf},
      {"ltleaf", load_ltleaf},
      {"sub", load_sub},
      {"deco", load_deco},
      {"varcmplt", refuse_variable},
      {"varhcub", refuse_variable},
  }};
  return kinds;
}

const TargetKind* find_kind(std::string_view name) {
  for (const auto& kind : target_kinds()) {
    if (kind.name == name) return &kind;
  }
  return nullptr;
}

std::string known_kinds() {
  std::string list;
  for (const auto& kind : target_kinds()) {
    if (kind.name != "varcmplt" && kind.name != "varhcub") list += (list.empty() ? "" : ", ") + std::string(kind.name);
  }
  return list;
}

std::unique_ptr<Topology> load_any(TokenStream& in) {
  const auto name = in.expect("a Scotch target kind (" + known_kinds() + ")");
  const auto* kind = find_kind(name);
  if (kind == nullptr) {
    in.fail("unknown or unsupported target kind " + detail::quote(name) + " (supported: " + known_kinds() + ")");
  }
  return kind->load(in);
}

void check_size(const Topology& topology, const std::string& origin) {
  if (topology.size() > kMaxPEs) {
    throw InputError(origin, "the target has " + std::to_string(topology.size()) + " PEs; tmap maps onto at most " +
                                 std::to_string(kMaxPEs) + " (2^21)");
  }
}

}  // namespace

std::unique_ptr<Topology> parse_tgt(std::string_view text, const std::string& origin) {
  TokenStream in(text, origin);
  auto topology = load_any(in);
  std::string_view extra;
  if (in.next(extra)) in.fail("unexpected data after the target description: " + detail::quote(extra));
  check_size(*topology, origin);
  // Every kind a target file describes has Scotch's view: it keeps the text.
  if (auto* view = topology->find<ScotchView>()) view->set_scotch_source(std::string(text));
  return topology;
}

namespace {

std::unique_ptr<Topology> hwloc_xml_from_text(std::string_view text, const std::string& path) {
#if TMAP_HAVE_HWLOC
  return topo::HwlocTreeTopology::from_xml_text(std::string(text), path);
#else
  (void)text;
  throw UnsupportedError(path +
                         ": this tmap was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): hwloc XML machines cannot "
                         "be read; rebuild with hwloc, or describe the machine as a Scotch target (tleaf, deco)");
#endif
}

}  // namespace

std::unique_ptr<Topology> parse_topology_file(std::string_view text, const std::string& path, bool hwloc_xml) {
  const auto start = text.find_first_not_of(detail::kBlanks);
  const auto ext = std::filesystem::path(path).extension().string();
  // Told apart by the content first: an XML file is hwloc's whatever its name.
  if (hwloc_xml || ext == ".xml" || (start != std::string_view::npos && text[start] == '<')) {
    return hwloc_xml_from_text(text, path);
  }
  if (ext == ".dist") return topo::parse_dist(text, path);
  if (topo::is_slurm_topology(text)) return topo::load_slurm_cluster(text, path, topo::NodeSpecs{});
  const bool numeric = start != std::string_view::npos && text[start] >= '0' && text[start] <= '9';
  if (numeric) {
    // A stream or a file without an extension that starts with a number is a
    // .dist (its size first); any other name is a mistake worth naming.
    if (ext.empty()) return topo::parse_dist(text, path);
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(start), '\n');
    throw InputError(path, line,
                     "this is not a machine: a Scotch target starts with its kind (" + known_kinds() +
                         "), this file with a number. A communication matrix goes to -c; a distance matrix "
                         "between PEs needs the extension .dist");
  }
  return parse_tgt(text, path);
}

std::unique_ptr<Topology> load_hwloc_xml(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "cannot open the hwloc XML file (no such file)");
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not an hwloc XML file");
#if TMAP_HAVE_HWLOC
  // A pipe or FIFO (-x <(lstopo --of xml)) is read as a bounded stream.
  if (!std::filesystem::is_regular_file(path, ec)) return hwloc_xml_from_text(detail::read_text_file(path), path);
  return std::make_unique<topo::HwlocTreeTopology>(path, true);
#else
  return hwloc_xml_from_text({}, path);
#endif
}

std::unique_ptr<Topology> load_topology(std::string_view spec) {
  const auto first = spec.find_first_not_of(detail::kBlanks);
  if (first == std::string_view::npos) throw InputError("-t: the topology is empty");
  spec.remove_prefix(first);
  while (!spec.empty() && detail::kBlanks.find(spec.back()) != std::string_view::npos) spec.remove_suffix(1);

  if (spec.starts_with("tianhe3:")) {
    auto machine = std::make_unique<topo::Tianhe3Topology>(topo::parse_tianhe3_spec(spec));
    check_size(*machine, "-t");
    return machine;
  }
  if (topo::is_cluster_spec(spec)) return topo::load_cluster(spec, {}, {});
  const std::string path(spec);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    // libhwloc reads an XML file itself (its own size limits and errors).
    if (std::filesystem::path(path).extension() == ".xml") return load_hwloc_xml(path);
    const auto text = detail::read_text_file(path);
    const auto start = text.find_first_not_of(detail::kBlanks);
    if (start != std::string::npos && text[start] == '<') return load_hwloc_xml(path);
    return parse_topology_file(text, path);
  }

  std::string_view rest = spec;
  std::string_view word;
  detail::next_token(rest, word);
  if (find_kind(word) != nullptr) return parse_tgt(spec, "-t");
  // A pipe, FIFO or device (-t <(tm-topo ...)): read as a stream, bounded,
  // and told apart by its content (no extension to go by).
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec)) {
    return parse_topology_file(detail::read_text_file(path), path);
  }
  if (std::filesystem::exists(path, ec)) throw InputError(path, "is not a regular file");
  // A misspelt kind ("fatree:...", "torus2d 4 4"): the kind it most likely meant.
  const auto kind_end = std::min(spec.find_first_of(": \t"), spec.size());
  std::vector<std::string_view> kinds{"fattree", "dragonfly", "torus", "tianhe3"};
  for (const auto& kind : target_kinds()) kinds.push_back(kind.name);
  const auto meant = detail::closest_name(spec.substr(0, kind_end), kinds);
  const auto suggestion =
      meant.empty() ? std::string()
                    : " (did you mean " + meant + (kind_end < spec.size() && spec[kind_end] == ':' ? ":" : "") + "?)";
  throw InputError("-t: cannot open topology file '" + std::string(spec.substr(0, 60)) +
                   "' (no such file), and it is no machine tmap knows" + suggestion +
                   ". A machine is a Scotch target or its file (" + known_kinds() +
                   "), tianhe3:RxC, a network of nodes (fattree:L;d1,..;u1,..;p1,.., dragonfly:G,gl;C,cl;R,rl;N, "
                   "torus:X,Y[,Z]) with a description of its nodes, a Slurm topology.conf, an hwloc XML file, or a "
                   ".dist matrix");
}

std::unique_ptr<Topology> load_machine(const MachineSpec& spec) {
  const topo::NodeSpecs nodes{spec.node, spec.node_by_hosts};
  if (!spec.topology_text.empty()) {
    if (!topo::is_slurm_topology(spec.topology_text)) {
      if (!spec.node.empty() || !spec.node_by_hosts.empty() || !spec.host_names.empty()) {
        throw ParameterError("node: " + spec.topology + " describes its PEs itself");
      }
      return parse_topology_file(spec.topology_text, spec.topology);
    }
    if (!spec.host_names.empty()) throw ParameterError("host-names: " + spec.topology + " names its nodes itself");
    return topo::load_slurm_cluster(spec.topology_text, spec.topology, nodes);
  }
  const auto first = spec.topology.find_first_not_of(detail::kBlanks);
  const std::string_view topology =
      first == std::string::npos ? std::string_view{} : std::string_view(spec.topology).substr(first);
  if (topo::is_cluster_spec(topology)) return topo::load_cluster(topology, nodes, spec.host_names);
  // A Slurm topology.conf: its switches and the nodes it names.
  std::error_code ec;
  if (!topology.empty() && std::filesystem::is_regular_file(std::string(topology), ec)) {
    const auto text = detail::read_text_file(std::string(topology));
    if (topo::is_slurm_topology(text)) {
      if (!spec.host_names.empty()) {
        throw ParameterError("host-names: " + std::string(topology) + " names its nodes itself");
      }
      return topo::load_slurm_cluster(text, std::string(topology), nodes);
    }
  }
  // The machine first: a misspelt -t is -t's mistake, not --node's.
  auto machine = load_topology(spec.topology);
  if (!spec.node.empty() || !spec.node_by_hosts.empty()) {
    throw ParameterError(
        "node: only a network of nodes (fattree:..., dragonfly:..., torus:..., topology.conf) takes a node "
        "description; '" +
        std::string(topology.substr(0, 40)) + "' describes its PEs itself");
  }
  if (!spec.host_names.empty()) {
    throw ParameterError(
        "host-names: only a network of nodes (fattree:..., dragonfly:..., torus:...) takes host names here; name the "
        "hosts "
        "of this machine with --hosts FILE or an allocation");
  }
  return machine;
}

}  // namespace tmap
