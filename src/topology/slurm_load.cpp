// Slurm's descriptions of a cluster, read as Slurm reads them: the
// topology.conf of its topology/tree plugin (switches, several parents,
// parts no switch joins) and of topology/block (blocks of nodes aggregated
// by BlockSizes), each a network of switches with the nodes it names.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "routing/switch_tree.hpp"
#include "tmap/error.hpp"
#include "topology/cluster_load.hpp"
#include "util/hostlist.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

/// One line's settings: (key in lower case, value), in order.
std::vector<std::pair<std::string, std::string_view>> settings_of(std::string_view line) {
  std::vector<std::pair<std::string, std::string_view>> settings;
  std::string_view token;
  while (detail::next_token(line, token)) {
    const auto eq = token.find('=');
    std::string key(token.substr(0, eq));
    for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    settings.emplace_back(std::move(key), eq == std::string_view::npos ? std::string_view{} : token.substr(eq + 1));
  }
  return settings;
}

}  // namespace

namespace {

/// topology.conf's logical lines, as Slurm's parser reads them: comments
/// cut at '#', and a line ending in '\\' joined with the next. Each with
/// the number of its first physical line.
std::vector<std::pair<std::int64_t, std::string>> logical_lines(std::string_view text) {
  std::vector<std::pair<std::int64_t, std::string>> result;
  detail::LineReader lines(text);
  std::string_view line;
  std::string joined;
  std::int64_t first = 0;
  while (lines.next(line)) {
    auto kept = detail::strip_comment(line, '#');
    while (!kept.empty() && (kept.back() == ' ' || kept.back() == '\t' || kept.back() == '\r')) kept.remove_suffix(1);
    if (joined.empty()) first = lines.line_number();
    const bool continues = kept.ends_with('\\');
    if (continues) kept.remove_suffix(1);
    joined.append(kept);
    if (continues) {
      joined.push_back(' ');
      continue;
    }
    result.emplace_back(first, std::move(joined));
    joined.clear();
  }
  if (!joined.empty()) result.emplace_back(first, std::move(joined));
  return result;
}

}  // namespace

namespace {

/// A host list of line `at`, its errors naming the file and the line.
std::vector<std::string> hosts_at(std::string_view list, const std::string& path, std::int64_t at,
                                  const std::string& key) {
  try {
    return detail::expand_hostlist(list, key);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(path, at, e.what());
  }
}

/// The cluster of a Slurm file's switches (or blocks): `children[s]` below
/// switch s, `switch_of_node[n]` above node n named hosts[n]; the network's
/// refusals named with the file.
std::unique_ptr<Topology> slurm_cluster(std::vector<std::string> names, std::vector<std::vector<std::int64_t>> children,
                                        std::vector<std::int64_t> switch_of_node, std::vector<std::string> hosts,
                                        const std::string& path, const NodeSpecs& nodes) {
  std::shared_ptr<const routing::Network> network;
  try {
    network = std::make_shared<routing::SwitchTreeNetwork>(std::move(names), std::move(children),
                                                           std::move(switch_of_node), path);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError(path, e.problem());
  }
  return cluster_of(std::move(network), nodes, std::move(hosts), path + ": Nodes=");
}

/// The first setting's key: "switchname" (topology/tree), "blockname" or
/// "blocksizes" (topology/block), else another.
std::string first_key(std::string_view text) {
  for (const auto& [at, line] : logical_lines(text)) {
    const auto settings = settings_of(line);
    if (!settings.empty()) return settings.front().first;
  }
  return {};
}

/// Slurm's topology/block: blocks of nodes (BlockName=b1 Nodes=...) in
/// file order, aggregated as Slurm aggregates them: at each level of
/// BlockSizes (node counts: the base block's, then powers of two of it;
/// default 1, 2, 4 and 8 base blocks) consecutive runs of that many blocks,
/// from a multiple of it, form one aggregated block; a short run at the end
/// is left to the level below. A network of switches: each block a switch
/// above its nodes, each aggregate a switch above its members. Blocks no
/// aggregate joins are parts no job spans.
std::unique_ptr<Topology> load_slurm_blocks(std::string_view text, const std::string& path, const NodeSpecs& nodes) {
  constexpr int kMostLevel = 15;  // Slurm's: at most 2^15 base blocks an aggregate
  std::vector<std::string> names;
  std::vector<std::int64_t> line_of_block;
  std::map<std::string, std::int64_t, std::less<>> index_of;
  std::vector<std::string> hosts;
  std::vector<std::int64_t> block_of_node;
  std::map<std::string, std::int64_t, std::less<>> line_of_host;
  std::vector<std::int64_t> nodes_in;
  std::string sizes_text;
  std::int64_t sizes_line = 0;
  for (const auto& [at, line] : logical_lines(text)) {
    const auto settings = settings_of(line);
    if (settings.empty()) continue;
    const auto& [key, value] = settings.front();
    if (key == "blocksizes") {
      if (settings.size() > 1) throw InputError(path, at, "BlockSizes= stands alone on its line");
      if (!sizes_text.empty()) throw InputError(path, at, "BlockSizes is given twice");
      sizes_text = std::string(value);
      sizes_line = at;
      if (sizes_text.empty()) throw InputError(path, at, "BlockSizes= gives no size");
      continue;
    }
    if (key != "blockname" || value.empty()) {
      throw InputError(path, at, "expected BlockName=NAME or BlockSizes= (Slurm's topology/block topology.conf)");
    }
    const std::string name(value);
    if (!index_of.emplace(name, static_cast<std::int64_t>(names.size())).second) {
      throw InputError(path, at, "block " + name + " is defined twice");
    }
    std::int64_t count = 0;
    for (std::size_t k = 1; k < settings.size(); ++k) {
      const auto& [setting, list] = settings[k];
      if (setting != "nodes") {
        throw InputError(path, at, "unknown setting '" + setting + "' (a block has Nodes=)");
      }
      for (auto& host : hosts_at(list, path, at, "Nodes")) {
        if (const auto [it, fresh] = line_of_host.emplace(host, at); !fresh) {
          throw InputError(path, at,
                           "node " + host + " is in two blocks (also on line " + std::to_string(it->second) + ")");
        }
        hosts.push_back(std::move(host));
        block_of_node.push_back(static_cast<std::int64_t>(names.size()));
        ++count;
      }
    }
    if (count == 0) throw InputError(path, at, "block " + name + " has no nodes (Slurm refuses it too)");
    names.push_back(name);
    line_of_block.push_back(at);
    nodes_in.push_back(count);
  }
  if (names.empty()) throw InputError(path, "no block (BlockName=...) in the file");
  // The levels: base blocks 2^level of them, as Slurm reads BlockSizes.
  std::int64_t base = nodes_in.front();
  std::vector<bool> level_set(kMostLevel + 1, false);
  if (sizes_text.empty()) {
    for (int k = 0; k < 4; ++k) level_set[static_cast<std::size_t>(k)] = true;
  } else {
    base = 0;
    std::string_view rest = sizes_text;
    std::string_view item;
    while (detail::next_token(rest, item, ",")) {
      std::int64_t size = 0;
      if (!detail::parse_int(item, size) || size < 1) {
        throw InputError(path, sizes_line, "BlockSizes: '" + std::string(item) + "' is not a count of nodes");
      }
      if (base == 0) base = size;
      const auto ratio = size / base;
      int level = 0;
      while ((std::int64_t{1} << level) < ratio && level <= kMostLevel) ++level;
      if (size % base != 0 || (std::int64_t{1} << level) != ratio || level > kMostLevel) {
        throw InputError(path, sizes_line,
                         fmt::format("BlockSizes: {} is not the base block's {} nodes times a power of two up to "
                                     "2^15 (Slurm refuses it too)",
                                     size, base));
      }
      level_set[static_cast<std::size_t>(level)] = true;
    }
  }
  for (std::size_t b = 0; b < names.size(); ++b) {
    if (nodes_in[b] < base) {
      throw InputError(path, line_of_block[b],
                       fmt::format("block {} has {} nodes, fewer than the base block's {} (Slurm refuses it too)",
                                   names[b], nodes_in[b], base));
    }
  }
  // Aggregates, in base blocks, up to the first that holds every block.
  const auto blocks = static_cast<std::int64_t>(names.size());
  std::vector<std::int64_t> sizes;
  for (int level = 0; level <= kMostLevel; ++level) {
    if (!level_set[static_cast<std::size_t>(level)]) continue;
    sizes.push_back(std::int64_t{1} << level);
    if (sizes.back() >= blocks) break;
  }
  std::vector<std::vector<std::int64_t>> children(names.size());
  std::vector<std::int64_t> below(names.size());  // the switch each block stands under at the level below
  for (std::int64_t b = 0; b < blocks; ++b) below[static_cast<std::size_t>(b)] = b;
  for (std::size_t j = 1; j < sizes.size(); ++j) {
    // A run of sizes[j] blocks from each multiple of it; a run the level
    // below covers already (Slurm's rule for the last, short one) is left.
    std::vector<std::int64_t> next(below);
    for (std::int64_t start = 0; start < blocks; start += sizes[j]) {
      const auto remaining = blocks - start;
      if (sizes[j] > remaining && sizes[j - 1] >= remaining) continue;
      const auto end = std::min(blocks, start + sizes[j]);
      const auto id = static_cast<std::int64_t>(names.size());
      names.push_back(
          fmt::format("{}..{}", names[static_cast<std::size_t>(start)], names[static_cast<std::size_t>(end - 1)]));
      std::vector<std::int64_t> members;
      for (std::int64_t b = start; b < end; ++b) members.push_back(below[static_cast<std::size_t>(b)]);
      std::sort(members.begin(), members.end());
      members.erase(std::unique(members.begin(), members.end()), members.end());
      children.push_back(std::move(members));
      for (std::int64_t b = start; b < end; ++b) next[static_cast<std::size_t>(b)] = id;
    }
    below = std::move(next);
  }
  return slurm_cluster(std::move(names), std::move(children), std::move(block_of_node), std::move(hosts), path, nodes);
}

/// Whether `text` is Slurm 25.05's topology.yaml: a YAML list whose first
/// entry starts with "topology:" (after comments and a "---").
bool is_topology_yaml(std::string_view text) {
  detail::LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    auto kept = detail::strip_comment(line, '#');
    const auto first = kept.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    kept.remove_prefix(first);
    if (kept.starts_with("---")) continue;
    if (!kept.starts_with("-")) return false;
    kept.remove_prefix(1);
    const auto word = kept.find_first_not_of(" \t");
    return word != std::string_view::npos && kept.substr(word).starts_with("topology:");
  }
  return false;
}

/// A scalar or a list of scalars as one Slurm host list ("s[1-2]", or
/// [s1, s2] -> "s1,s2"); InputError naming the line otherwise.
std::string host_list_of(const YAML::Node& node, const std::string& path, const char* what) {
  const auto line = static_cast<std::int64_t>(node.Mark().line) + 1;
  if (node.IsScalar()) return node.Scalar();
  if (node.IsSequence()) {
    std::string joined;
    for (const auto& item : node) {
      if (!item.IsScalar()) throw InputError(path, line, std::string(what) + ": expected names");
      joined += (joined.empty() ? "" : ",") + item.Scalar();
    }
    return joined;
  }
  throw InputError(path, line, std::string(what) + ": expected a host list");
}

/// topology.yaml as the topology.conf lines Slurm reads for its chosen
/// topology (the first with cluster_default: true, else the first), each
/// line with the YAML line it came from.
std::pair<std::string, std::vector<std::int64_t>> conf_of_yaml(std::string_view text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw InputError(path, static_cast<std::int64_t>(e.mark.line) + 1, "not valid YAML: " + e.msg);
  }
  if (!root.IsSequence() || root.size() == 0)
    throw InputError(path, "expected a list of topologies (- topology: NAME)");
  YAML::Node chosen;
  bool found = false;
  for (const auto& entry : root) {
    if (!entry.IsMap() || !entry["topology"]) {
      throw InputError(path, static_cast<std::int64_t>(entry.Mark().line) + 1, "a topology without 'topology: NAME'");
    }
    const auto is_default = entry["cluster_default"];
    if (!found && is_default && is_default.IsScalar() && is_default.Scalar() == "true") {
      chosen.reset(entry);
      found = true;
    }
  }
  if (!found) chosen.reset(root[0]);
  const auto name = chosen["topology"].IsScalar() ? chosen["topology"].Scalar() : std::string("?");
  const auto at = [](const YAML::Node& n) { return static_cast<std::int64_t>(n.Mark().line) + 1; };
  std::string conf;
  std::vector<std::int64_t> line_of;
  const auto add = [&](const std::string& line, std::int64_t from) {
    conf += line + "\n";
    line_of.push_back(from);
  };
  if (const auto tree = chosen["tree"]) {
    const auto switches = tree["switches"];
    if (!switches || !switches.IsSequence())
      throw InputError(path, at(tree), "topology " + name + ": tree without switches");
    for (const auto& s : switches) {
      if (!s.IsMap() || !s["switch"] || !s["switch"].IsScalar()) {
        throw InputError(path, at(s), "a switch without 'switch: NAME'");
      }
      std::string line = "SwitchName=" + s["switch"].Scalar();
      if (s["children"]) line += " Switches=" + host_list_of(s["children"], path, "children");
      if (s["nodes"]) line += " Nodes=" + host_list_of(s["nodes"], path, "nodes");
      add(line, at(s));
    }
  } else if (const auto block = chosen["block"]) {
    const auto blocks = block["blocks"];
    if (!blocks || !blocks.IsSequence())
      throw InputError(path, at(block), "topology " + name + ": block without blocks");
    for (const auto& b : blocks) {
      if (!b.IsMap() || !b["block"] || !b["block"].IsScalar()) {
        throw InputError(path, at(b), "a block without 'block: NAME'");
      }
      std::string line = "BlockName=" + b["block"].Scalar();
      if (b["nodes"]) line += " Nodes=" + host_list_of(b["nodes"], path, "nodes");
      add(line, at(b));
    }
    if (const auto sizes = block["block_sizes"]) {
      add("BlockSizes=" + host_list_of(sizes, path, "block_sizes"), at(sizes));
    }
  } else if (chosen["flat"]) {
    throw InputError(path, at(chosen),
                     "topology " + name +
                         " is flat: it names no switch and no node; describe the network (-t 'fattree:...' with "
                         "--node and --host-names) or choose a tree or block topology");
  } else {
    throw InputError(path, at(chosen), "topology " + name + " has none of tree, block or flat");
  }
  return {std::move(conf), std::move(line_of)};
}

}  // namespace

bool is_slurm_topology(std::string_view text) {
  const auto key = first_key(text);
  return key == "switchname" || key == "blockname" || key == "blocksizes" || is_topology_yaml(text);
}

std::unique_ptr<Topology> load_slurm_cluster(std::string_view text, const std::string& path, const NodeSpecs& nodes) {
  if (is_topology_yaml(text)) {
    // Read as the topology.conf it stands for; errors name the YAML's lines.
    std::pair<std::string, std::vector<std::int64_t>> converted;
    try {
      converted = conf_of_yaml(text, path);
    } catch (const YAML::Exception& e) {  // a node of another shape than Slurm's
      throw InputError(path, static_cast<std::int64_t>(e.mark.line) + 1, "not Slurm's topology.yaml: " + e.msg);
    }
    const auto& [conf, line_of] = converted;
    try {
      return load_slurm_cluster(conf, path, nodes);
    } catch (const InputError& e) {
      if (e.line() > 0 && e.line() <= static_cast<std::int64_t>(line_of.size())) {
        throw InputError(path, line_of[static_cast<std::size_t>(e.line() - 1)], e.problem());
      }
      throw;
    }
  }
  if (const auto key = first_key(text); key == "blockname" || key == "blocksizes") {
    return load_slurm_blocks(text, path, nodes);
  }
  struct Switch {
    std::string name;
    std::int64_t line = 0;
    std::vector<std::string> children;
  };
  std::vector<Switch> switches;
  std::map<std::string, std::int64_t, std::less<>> index_of;
  std::vector<std::string> hosts;
  std::vector<std::int64_t> switch_of_node;
  std::map<std::string, std::int64_t, std::less<>> line_of_host;
  for (const auto& [at, line] : logical_lines(text)) {
    const auto settings = settings_of(line);
    if (settings.empty()) continue;
    if (settings.front().first != "switchname" || settings.front().second.empty()) {
      throw InputError(path, at, "expected SwitchName=NAME first (Slurm's topology.conf)");
    }
    const std::string name(settings.front().second);
    if (!index_of.emplace(name, static_cast<std::int64_t>(switches.size())).second) {
      throw InputError(path, at, "switch " + name + " is defined twice");
    }
    Switch s{name, at, {}};
    bool has_nodes = false;
    for (std::size_t k = 1; k < settings.size(); ++k) {
      const auto& [key, value] = settings[k];
      if (key == "switches") {
        auto names = hosts_at(value, path, at, "Switches");
        s.children.insert(s.children.end(), names.begin(), names.end());
      } else if (key == "nodes") {
        has_nodes = true;
        for (auto& host : hosts_at(value, path, at, "Nodes")) {
          if (const auto [it, fresh] = line_of_host.emplace(host, at); !fresh) {
            throw InputError(
                path, at, "node " + host + " hangs on two switches (also on line " + std::to_string(it->second) + ")");
          }
          hosts.push_back(std::move(host));
          switch_of_node.push_back(static_cast<std::int64_t>(switches.size()));
        }
      } else if (key != "linkspeed") {
        throw InputError(path, at,
                         "unknown setting '" + key + "' (topology.conf has SwitchName, Switches, Nodes, LinkSpeed)");
      }
    }
    if (has_nodes && !s.children.empty()) {
      // Slurm's own refusal ("has both child switches and nodes").
      throw InputError(path, at, "switch " + name + " has both Switches= and Nodes= (Slurm refuses it too)");
    }
    switches.push_back(std::move(s));
  }
  if (switches.empty()) throw InputError(path, "no switch (SwitchName=...) in the file");
  std::vector<std::vector<std::int64_t>> children(switches.size());
  std::vector<std::string> names;
  for (std::size_t p = 0; p < switches.size(); ++p) {
    names.push_back(switches[p].name);
    for (const auto& child : switches[p].children) {
      const auto it = index_of.find(child);
      if (it == index_of.end()) {
        throw InputError(path, switches[p].line,
                         "switch " + child + " (under " + switches[p].name + ") is not defined");
      }
      children[p].push_back(it->second);
    }
  }
  return slurm_cluster(std::move(names), std::move(children), std::move(switch_of_node), std::move(hosts), path, nodes);
}

}  // namespace tmap::topo
