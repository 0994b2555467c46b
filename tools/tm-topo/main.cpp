// tm-topo: emits Tianhe-3 targets (contract section 6), and the Scotch view
// of any network of nodes (a deco 0 of its exact distances) for scotch_gmap.
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "cli.hpp"
#include "tmap/describe.hpp"
#include "tmap/job.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/tianhe3.hpp"
#include "tmap/topology_views.hpp"

namespace {

/// The most PEs a deco 0 view is written for: its distance table has
/// N(N-1)/2 entries (8,192 PEs: 33.5 million, as tm-topo's Tianhe-3 bound).
constexpr tmap::PE kMostViewPEs = 8192;

/// The machine as a Scotch tleaf with its exact distances, when its tree
/// view (Topology::tree_path) has one fan-out per level; "" otherwise. A
/// level of fan-out 1 splits no pair: its edge goes into the cost of the
/// branching level above it (tleaf's distance counts each level below the
/// lowest common ancestor once; tmap's counts each edge on both sides).
std::string tleaf_view(const tmap::Topology& t) {
  using tmap::PE;
  std::vector<std::vector<std::int64_t>> paths(static_cast<std::size_t>(t.size()));
  for (PE p = 0; p < t.size(); ++p) {
    if (!tree_path(t, p, paths[static_cast<std::size_t>(p)]) ||
        paths[static_cast<std::size_t>(p)].size() != paths[0].size()) {
      return {};
    }
  }
  const auto depth = paths[0].size();
  // Fan-out of each level: the distinct branches under each prefix, alike everywhere.
  std::vector<std::int64_t> fanout(depth, 0);
  for (std::size_t level = 0; level < depth; ++level) {
    std::map<std::vector<std::int64_t>, std::set<std::int64_t>> children;
    for (const auto& path : paths) {
      children[std::vector<std::int64_t>(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(level))].insert(
          path[level]);
    }
    for (const auto& [prefix, branches] : children) {
      const auto n = static_cast<std::int64_t>(branches.size());
      if (fanout[level] != 0 && fanout[level] != n) return {};
      fanout[level] = n;
    }
  }
  // Kept levels (fan-out >= 2), each costing 2 per edge down to the next kept one.
  std::vector<std::size_t> kept;
  for (std::size_t level = 0; level < depth; ++level) {
    if (fanout[level] > 1) kept.push_back(level);
  }
  if (kept.empty()) return {};
  std::string text = fmt::format("tleaf {}", kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const auto next = k + 1 < kept.size() ? kept[k + 1] : depth;
    text += fmt::format(" {} {}", fanout[kept[k]], 2 * (next - kept[k]));
  }
  return text + "\n";
}

/// A network of nodes as Scotch sees it: a deco 0 with the exact distances,
/// terminal k = PE k, so that plain Scotch (scotch_gmap, tm-map -s scotch
/// on the file) maps on the very machine tmap maps on.
int write_network_view(const std::string& spec, const std::vector<std::string>& node_args,
                       const std::string& host_names, const std::string& pe, const std::string& tgt_file,
                       const std::string& tree_file, const std::string& xml_file) {
  using namespace tmap;
  if (!xml_file.empty()) throw UnsupportedError("--xml: for tianhe3; a network's node is --node itself");
  JobSpec job;
  job.machine.topology = spec;
  job.machine.nodes = node_args;
  job.machine.host_names = host_names;
  job.machine.pe = pe;
  std::shared_ptr<const Topology> topology;
  try {
    topology = Job(std::move(job)).machine_shared();
  } catch (const InputError& e) {  // say which argument it was: the machine
    if (!e.file().empty()) throw;
    throw InputError("machine '" + spec + "' (tianhe3, or a machine as tm-map -t reads it): " + e.problem());
  }
  std::vector<std::pair<std::string, std::string>> outputs;  // written only when all were built
  if (!tgt_file.empty()) {
    if (topology->size() > kMostViewPEs) {
      throw ResourceError(fmt::format("{}: {} PEs; tm-topo writes a deco 0 view of at most {} PEs ({} distances)", spec,
                                      topology->size(), kMostViewPEs, kMostViewPEs * (kMostViewPEs - 1) / 2));
    }
    outputs.emplace_back(tgt_file, scotch_target(*topology));
  }
  if (!tree_file.empty()) {
    const auto tree = tleaf_view(*topology);
    if (tree.empty()) {
      throw UnsupportedError(spec +
                             ": --tree needs a machine that is a tree with the same fan-out at every branch of a "
                             "level (a fat tree of alike nodes, a symmetric topology.conf); --tgt writes a deco 0");
    }
    outputs.emplace_back(tree_file, tree);
  }
  for (const auto& [file, text] : outputs) cli::emit(text, file == "-" ? "" : file);
  return cli::kExitOk;
}

/// tmap_plots.py beside the tools (the build tree) or in share/tmap (installed).
std::string plots_folder() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  for (const auto& folder : {self.parent_path(), self.parent_path().parent_path() / "share" / "tmap"}) {
    if (std::filesystem::is_regular_file(folder / "tmap_plots.py", error)) return folder.string();
  }
  return {};
}

/// Draws `json` (a description) into the PNG `picture` with matplotlib
/// (tmap_plots.machine_picture), written whole or not at all.
void draw_picture(const std::string& json, const std::string& picture) {
  const auto folder = plots_folder();
  if (folder.empty()) throw tmap::UnsupportedError("--picture: tmap_plots.py is not beside tm-topo nor in share/tmap");
  char scratch_name[] = "/tmp/tm-topo-XXXXXX";
  if (mkdtemp(scratch_name) == nullptr) throw tmap::SystemError("--picture: cannot make a scratch folder");
  const std::filesystem::path scratch(scratch_name);
  struct Cleanup {
    std::filesystem::path path;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{scratch};
  const auto json_path = (scratch / "machine.json").string();
  const auto png_path = (scratch / "machine.png").string();
  const auto err_path = (scratch / "python.err").string();
  tmap::cli::emit(json, json_path);
  std::vector<std::string> words{"python3",
                                 "-c",
                                 "import json, sys\n"
                                 "sys.path.insert(0, sys.argv[1])\n"
                                 "import tmap_plots\n"
                                 "try:\n"
                                 "    tmap_plots.machine_picture(json.load(open(sys.argv[2])), sys.argv[3])\n"
                                 "except ValueError as e:\n"
                                 "    sys.exit(f'{e}')\n",
                                 folder,
                                 json_path,
                                 png_path};
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // Debian's python3, whose matplotlib tm-report uses too (a python3
  // earlier on PATH, a virtualenv's, may have none).
  std::error_code error;
  const std::string python = std::filesystem::exists("/usr/bin/python3", error) ? "/usr/bin/python3" : "python3";
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw tmap::UnsupportedError("--picture: cannot run python3 (Debian's python3-matplotlib draws it)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    auto said = tmap::cli::read_text(err_path);
    const auto last = said.find_last_not_of('\n');
    said = last == std::string::npos ? std::string() : said.substr(0, last + 1);
    if (const auto line = said.rfind('\n'); line != std::string::npos) said = said.substr(line + 1);
    throw tmap::ResourceError("--picture: the machine could not be drawn" + (said.empty() ? "" : ": " + said));
  }
  std::ifstream png(png_path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(png)), std::istreambuf_iterator<char>());
  if (bytes.empty()) throw tmap::SystemError("--picture: matplotlib wrote no picture");
  tmap::cli::emit(bytes, picture);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tmap;
  using namespace tmap::cli;
  CLI::App app{
      "tm-topo: writes the Tianhe-3 prototype's network as Scotch targets and its node as hwloc XML, and any\n"
      "network of nodes (fattree:..., dragonfly:..., torus:..., a Slurm topology.conf; --node) as a deco 0.\n"
      "  --tgt  a deco 0 target with the exact hop table (one terminal per node, weight = cores)\n"
      "  --tree a tleaf of chip, side, node and the node's hwloc levels (link costs approximate\n"
      "         the hop table; the worst error is printed)\n"
      "  --xml  the node's hwloc XML",
      "tm-topo"};
  app.set_version_flag("--version", std::string("tm-topo ") + tmap::version());
  std::string machine;
  Tianhe3Shape shape;
  std::optional<std::int64_t> cores;
  std::optional<std::string> alloc;
  std::string host_pattern;
  std::vector<std::string> node_args;
  std::string node_synthetic = "pack:1 numa:8 l2:2 core:4 pu:1";
  constexpr std::int64_t kDefaultNodePUs = 64;  // of that description
  std::string node_xml;
  std::string tgt_file;
  std::string tree_file;
  std::string xml_file;
  bool quiet = false;
  app.add_option("machine", machine,
                 "The machine model: tianhe3, or a network of nodes as tm-map -t takes it (fattree:..., "
                 "dragonfly:..., torus:..., a Slurm topology.conf)")
      ->required();
  std::string host_names;
  app.add_option("--host-names", host_names, "A network's node names, a Slurm host list (as tm-map)");
  std::string pe;
  app.add_option("--pe", pe, "What a PE is: cpu (default) or gpu, as tm-map --pe")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  auto* rows = app.add_option("--rows", shape.rows, "Chip rows (tianhe3)")->transform(whole_number(1, 1 << 20));
  auto* cols = app.add_option("--cols", shape.cols, "Chip columns (tianhe3)")->transform(whole_number(1, 1 << 20));
  app.add_option("--nodes", shape.nodes, "Nodes per chip, even (default 96)")->transform(whole_number(2, 1 << 24));
  app.add_option("--cores", cores, "PEs per node (default: the node's PUs)")->transform(whole_number(1, 1 << 20));
  app.add_option("--alloc", alloc,
                 "Only these nodes, with whole-machine distances: id ranges (0-95,192-287) or a Slurm host list "
                 "(cn[0-95,192-287]), as tm-map --alloc; terminal labels are the node ids");
  app.add_option("--host-pattern", host_pattern,
                 "Regular expression matching a whole host name, its first group the node id");
  auto* synth = app.add_option("--node", node_args,
                               "The node as an hwloc synthetic description (default: FT-2000+-like, 64 cores: "
                               "'pack:1 numa:8 l2:2 core:4 pu:1'); for a network, as tm-map --node: repeatable, "
                               "HOSTS=SPEC for the nodes of a host list");
  app.add_option("--node-xml", node_xml, "The node as an lstopo XML file")->excludes(synth);
  app.add_option("--tgt", tgt_file, "Write the deco 0 target here (- for stdout)");
  app.add_option("--tree", tree_file, "Write the tleaf target here (- for stdout)");
  app.add_option("--xml", xml_file, "Write the node's hwloc XML here (- for stdout)");
  app.add_flag("-q,--quiet", quiet, "No notes on stderr");
  bool describe = false;
  std::string format = "text";
  std::string picture;
  app.add_flag("--describe", describe,
               "Say what the machine is, as tmap reads it: nodes and their names, PEs per node, switches and "
               "cables kind by kind, one example pair per distance with its route (any machine tm-map -t takes)");
  app.add_option("--format", format, "--describe's form: text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--picture", picture,
                 "With --describe: the network drawn into this PNG (switch levels, nodes "
                 "by name, cables per link; matplotlib)");

  return run("tm-topo", app, argc, argv, [&]() -> int {
    if (!picture.empty() && !describe) throw ParameterError("--picture draws what --describe says: give --describe");
    if (describe) {
      if (!picture.empty()) check_outputs({picture});
      std::shared_ptr<const Topology> topology;
      if (machine == "tianhe3") {
        if (rows->count() == 0 || cols->count() == 0) throw InputError("tianhe3: --rows and --cols are needed");
        shape.cores = cores.value_or(1);
        topology = tianhe3_topology(shape);
      } else {
        if (!node_xml.empty()) node_args.insert(node_args.begin(), node_xml);
        JobSpec job;
        job.machine.topology = machine;
        job.machine.nodes = node_args;
        job.machine.host_names = host_names;
        job.machine.pe = pe;
        topology = Job(std::move(job)).machine_shared();
      }
      const auto description = describe_machine(*topology);
      const auto json = description_json(description);
      if (!picture.empty() && description.graph.empty()) {
        throw UnsupportedError(
            "--picture draws a network of nodes (fattree:..., dragonfly:..., torus:..., a Slurm topology.conf); this "
            "machine's links have no named ends, and --describe lists them");
      }
      if (!picture.empty()) draw_picture(json, picture);
      emit(format == "json" ? json : description_text(description), "");
      return kExitOk;
    }
    if (tgt_file.empty() && tree_file.empty() && xml_file.empty()) {
      throw InputError("nothing to write: give --tgt, --tree and/or --xml (or --describe)");
    }
    for (const auto* file : {&tgt_file, &tree_file, &xml_file}) {
      if (!file->empty() && *file != "-") check_outputs({*file});
    }
    if (machine != "tianhe3") {
      if (!node_xml.empty()) node_args.insert(node_args.begin(), node_xml);
      return write_network_view(machine, node_args, host_names, pe, tgt_file, tree_file, xml_file);
    }
    if (node_args.size() > 1) throw ParameterError("--node: tianhe3 has one kind of node");
    if (!node_args.empty()) node_synthetic = node_args.front();
    if (rows->count() == 0 || cols->count() == 0) throw InputError("tianhe3: --rows and --cols are needed");
    if (!have_hwloc() && (!node_xml.empty() || synth->count() > 0 || !tree_file.empty() || !xml_file.empty())) {
      throw UnsupportedError(
          "this tm-topo was built without hwloc (cmake -DTMAP_WITH_HWLOC=OFF): --node, --node-xml, --tree and --xml "
          "need it; --tgt works (with --cores)");
    }
    // With hwloc the node is always read: its PUs are --cores' default.
    std::optional<NodeDescription> node;
    if (have_hwloc()) node = node_xml.empty() ? describe_node(node_synthetic, false) : describe_node(node_xml, true);
    shape.cores = cores.value_or(node ? node->pus : kDefaultNodePUs);
    const std::shared_ptr<const Topology> machine_model = tianhe3_topology(shape);
    std::vector<NodeId> nodes;
    if (alloc) {
      // As tm-map --alloc reads it: id ranges or a Slurm host list.
      JobSpec job;
      job.machine.built = machine_model;
      job.machine.host_pattern = host_pattern;
      job.allocation.kind = AllocationSource::Kind::Hosts;
      job.allocation.hosts = *alloc;
      nodes = Job(std::move(job)).allocation()->nodes;
      std::sort(nodes.begin(), nodes.end());
    }
    // Build everything first: outputs are written only when all succeeded.
    std::vector<std::pair<std::string, std::string>> outputs;
    if (!tgt_file.empty()) {
      if (nodes.empty()) {
        try {
          outputs.emplace_back(tgt_file, tianhe3_target(shape));
        } catch (const ResourceError& e) {  // the library's advice, in this tool's flag
          throw ResourceError(std::string(e.what()) + " (--alloc LIST)");
        }
      } else {
        outputs.emplace_back(tgt_file, tianhe3_target(shape, nodes));
      }
    }
    if (!tree_file.empty()) {
      if (node->symmetric_arities.empty() && node->pus > 1) {
        throw InputError("--tree needs a symmetric node tree; this hwloc node is not");
      }
      if (shape.cores != node->pus) {
        throw InputError("--tree: the node has " + std::to_string(node->pus) + " PUs but --cores is " +
                         std::to_string(shape.cores));
      }
      const auto tree = tianhe3_tree_target(shape, node->symmetric_arities, nodes);
      outputs.emplace_back(tree_file, tree.tgt);
      if (!quiet) {
        fmt::print(stderr,
                   "tm-topo: tree link costs approximate the hop table; worst error {:.2f} hops between chips\n",
                   tree.worst_error_hops);
      }
    }
    if (!xml_file.empty()) outputs.emplace_back(xml_file, node->xml);
    for (const auto& [file, text] : outputs) emit(text, file == "-" ? "" : file);
    return kExitOk;
  });
}
