// Turns what users give to -t into a Topology: Scotch target text (from a
// file or inline) through a name -> loader table, or a built-in spec.
#include <array>
#include <filesystem>
#include <functional>

#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "tmap/topology.hpp"
#include "topology/complete.hpp"
#include "topology/hypercube.hpp"
#include "topology/mesh.hpp"
#include "topology/tianhe3.hpp"
#include "topology/tree_leaf.hpp"
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

std::unique_ptr<Topology> load_tleaf(TokenStream& in) {
  const auto levels = in.expect_int("tleaf number of levels", 1, 64);
  std::vector<std::int64_t> fanouts;
  std::vector<Distance> links;
  for (std::int64_t k = 0; k < levels; ++k) {
    fanouts.push_back(in.expect_int("tleaf fan-out of level " + std::to_string(k), 1, kMaxDim));
    links.push_back(in.expect_int("tleaf link cost of level " + std::to_string(k), 1, std::int64_t{1} << 40));
  }
  try {
    return std::make_unique<topo::TreeLeafTopology>(std::move(fanouts), std::move(links));
  } catch (const InputError& e) {
    in.fail(e.problem());
  }
}

struct TargetKind {
  std::string_view name;
  std::function<std::unique_ptr<Topology>(TokenStream&)> load;
};

const std::array<TargetKind, 9>& target_kinds() {
  static const std::array<TargetKind, 9> kinds{{
      {"cmplt", load_cmplt},
      {"hcub", load_hcub},
      {"mesh2D", [](TokenStream& in) { return load_mesh(in, 2, false); }},
      {"mesh3D", [](TokenStream& in) { return load_mesh(in, 3, false); }},
      {"meshXD", [](TokenStream& in) { return load_mesh(in, 0, false); }},
      {"torus2D", [](TokenStream& in) { return load_mesh(in, 2, true); }},
      {"torus3D", [](TokenStream& in) { return load_mesh(in, 3, true); }},
      {"torusXD", [](TokenStream& in) { return load_mesh(in, 0, true); }},
      {"tleaf", load_tleaf},
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
  for (const auto& kind : target_kinds()) list += (list.empty() ? "" : ", ") + std::string(kind.name);
  return list;
}

}  // namespace

std::unique_ptr<Topology> parse_tgt(std::string_view text, const std::string& origin) {
  TokenStream in(text, origin);
  const auto name = in.expect("a Scotch target kind (" + known_kinds() + ")");
  const auto* kind = find_kind(name);
  if (kind == nullptr) {
    in.fail("unknown or unsupported target kind " + detail::quote(name) + " (supported: " +
            known_kinds() + ")");
  }
  auto topology = kind->load(in);
  std::string_view extra;
  if (in.next(extra)) in.fail("unexpected data after the target description: " + detail::quote(extra));
  return topology;
}

std::unique_ptr<Topology> load_topology(std::string_view spec) {
  const auto first = spec.find_first_not_of(detail::kBlanks);
  if (first == std::string_view::npos) throw InputError("-t: the topology is empty");
  spec.remove_prefix(first);
  while (!spec.empty() && detail::kBlanks.find(spec.back()) != std::string_view::npos) spec.remove_suffix(1);

  if (spec.starts_with("tianhe3:")) {
    return std::make_unique<topo::Tianhe3Topology>(topo::parse_tianhe3_spec(spec));
  }
  const std::string path(spec);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return parse_tgt(read_file(path), path);

  std::string_view rest = spec;
  std::string_view word;
  detail::next_token(rest, word);
  if (find_kind(word) != nullptr) return parse_tgt(spec, "-t");
  if (std::filesystem::exists(path, ec)) throw InputError(path, "is not a regular file");
  throw InputError("-t: cannot open topology file '" + path +
                   "' (no such file), and it is not a Scotch target description (" + known_kinds() +
                   ") or a tianhe3:RxC spec");
}

}  // namespace tmap
