#include "sched/slurm_topology.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sched/libslurm_session.hpp"

#if TMAP_HAVE_LIBSLURM
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#endif

namespace tmap::sched {

namespace {

/// Largest topology.conf read (Slurm's own lines are at most 1,024
/// characters; a million of them is far beyond any machine).
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;

/// The topology.conf beside `conf`, the tree it holds (or why not).
SlurmSwitchTree from_file(const std::string& conf) {
  SlurmSwitchTree tree;
  if (conf.empty()) {
    tree.unavailable = "no Slurm configuration found (SLURM_CONF, /etc/slurm/slurm.conf)";
    return tree;
  }
  // Slurm's rule: topology.yaml when it exists (topology.conf is then ignored).
  const auto folder = std::filesystem::path(conf).parent_path();
  const auto yaml = (folder / "topology.yaml").string();
  std::error_code error;
  const auto path = std::filesystem::is_regular_file(yaml, error) ? yaml : (folder / "topology.conf").string();
  if (!std::filesystem::is_regular_file(path, error)) {
    tree.unavailable = "no " + path + " (nor topology.yaml) beside " + conf;
    return tree;
  }
  if (std::filesystem::file_size(path, error) > kMaxFileBytes) {
    tree.unavailable = path + " is larger than 1 GiB";
    return tree;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    tree.unavailable = "cannot read " + path;
    return tree;
  }
  tree.text = text.str();
  tree.origin = path;
  return tree;
}

#if TMAP_HAVE_LIBSLURM

/// The controller's tree: one line per switch record. A switch above
/// others lists, in Slurm's record, every node below it, so its children
/// are its switches alone; a leaf switch's are its nodes.
SlurmSwitchTree from_controller(std::string& why_not) {
  SlurmSwitchTree tree;
  if (const auto down = controller_unreachable(); !down.empty()) {
    why_not = down;  // not libslurm's 18-27 s of retries
    return tree;
  }
  topo_info_response_msg_t* records = nullptr;
  CapturedStderr log;
  const int rc = slurm_load_topo(&records);
  const int error = slurm_get_errno();
  const auto said = log.first_line();
  if (rc != SLURM_SUCCESS || records == nullptr) {
    why_not = std::string("slurmctld did not answer: ") + slurm_strerror(error) +
              (said.empty() ? "" : " (libslurm: " + said + ")");
    return tree;
  }
  std::string text;
  for (std::uint32_t k = 0; k < records->record_count; ++k) {
    const topo_info_t& record = records->topo_array[k];
    if (record.name == nullptr) continue;
    text += "SwitchName=";
    text += record.name;
    if (record.switches != nullptr && *record.switches != '\0') {
      text += " Switches=";
      text += record.switches;
    } else if (record.nodes != nullptr && *record.nodes != '\0') {
      text += " Nodes=";
      text += record.nodes;
    }
    text += '\n';
  }
  slurm_free_topo_info_msg(records);
  tree.origin = "slurmctld (scontrol show topology)";
  if (text.empty()) {
    tree.unavailable = "Slurm has no switch tree (its TopologyPlugin is not topology/tree)";
  } else {
    tree.text = std::move(text);
  }
  return tree;
}

#endif

}  // namespace

SlurmSwitchTree slurm_switch_tree() {
  const auto conf = slurm_configuration();
#if TMAP_HAVE_LIBSLURM
  if (!conf.empty()) {
    std::string why_not;
    auto tree = from_controller(why_not);
    if (why_not.empty()) return tree;
    // No controller to ask (a node cut off, a login node without its
    // address): the file Slurm read is the same tree.
    auto file = from_file(conf);
    if (!file.unavailable.empty()) file.unavailable = why_not + "; " + file.unavailable;
    return file;
  }
#endif
  return from_file(conf);
}

}  // namespace tmap::sched
