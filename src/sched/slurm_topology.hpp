// The switch tree of a Slurm cluster (its topology/tree plugin), as Slurm
// itself has it: asked of the controller through libslurm (what `scontrol
// show topology` prints), else read from the topology.yaml or
// topology.conf beside the slurm.conf Slurm's tools read (Slurm's rule: the
// same folder, the YAML file first).
#pragma once

#include <string>

namespace tmap::sched {

struct SlurmSwitchTree {
  /// The tree in topology.conf's form (SwitchName= Switches= Nodes= lines);
  /// empty when Slurm has none.
  std::string text;
  /// Where it came from, for messages: "slurmctld (scontrol show
  /// topology)" or the file's path.
  std::string origin;
  /// Why there is none (empty when there is one): tmap built without
  /// libslurm and no topology.conf, a cluster on topology/none, ...
  std::string unavailable;
};

/// The cluster's switch tree, as Slurm has it now.
[[nodiscard]] SlurmSwitchTree slurm_switch_tree();

}  // namespace tmap::sched
