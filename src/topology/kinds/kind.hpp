// A kind of machine as one row of a table (Scotch's archClassTab, hwloc's
// discovery components): the words users write it with, how tmap recognises
// it among everything -t, --node and schedulers give, and how it loads.
//
// A kind's file, topology/kinds/<kind>.cpp, holds its recognition, its
// loader and its row, and for the kinds that need no more than that file,
// the machine itself: distances, views (tree, grid, graph), routes and the
// Scotch target it saves as. kinds/table.cpp lists the rows in the order
// they are asked; kinds/sources.cpp is the one place that tells inputs apart
// (a path or text, a file's name and content) and asks the rows. Adding a
// kind is one file and one row (docs/development.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap::topo {

/// What a network's nodes hold: `node` (see load_node; empty: one PE)
/// for every node but those of `by_hosts`, (Slurm host list, node) pairs
/// naming the nodes of other kinds.
struct NodeSpecs {
  std::string node;
  std::vector<std::pair<std::string, std::string>> by_hosts;
  /// What a PE is (--pe): "" or "cpu" the node's PUs, "gpu" its GPUs.
  std::string pe = {};
};

/// What a user gave as a machine, as the rows' recognisers see it: -t's text
/// (a spec such as "mesh2D 4 4" or "fattree:..."), or a file (its name and
/// its content, read once and bounded), with the nodes and host names given
/// beside it for networks of nodes.
class MachineInput {
 public:
  /// -t's text as written (no file of that name exists).
  [[nodiscard]] static MachineInput spec(std::string_view text);
  /// A regular file, read when a row first asks for its content (a library
  /// such as hwloc may read it from its path itself).
  [[nodiscard]] static MachineInput file(std::string path);
  /// A file's content already read (a pipe, or a scheduler's answer) and the
  /// name it goes by; `hwloc_xml` when the caller knows it is one.
  [[nodiscard]] static MachineInput content(std::string text, std::string name, bool hwloc_xml = false);

  /// The spec, or the file's content.
  [[nodiscard]] std::string_view text() const;
  /// Where messages point: "-t" for a spec, else the file's name.
  [[nodiscard]] const std::string& origin() const noexcept { return origin_; }
  [[nodiscard]] bool is_file() const noexcept { return is_file_; }
  /// A regular file that can be opened again by its path.
  [[nodiscard]] bool is_regular_file() const noexcept { return regular_file_; }
  /// The extension of the file's name (".xml", ".dist"), empty for a spec.
  [[nodiscard]] std::string extension() const;
  /// The first character of the text that is no white space, or '\0'.
  [[nodiscard]] char first_char() const;
  /// The first word of the text (up to white space or ':').
  [[nodiscard]] std::string_view first_word() const;
  [[nodiscard]] bool said_hwloc_xml() const noexcept { return hwloc_xml_; }

  /// For networks of nodes: what their nodes hold and their host names.
  NodeSpecs nodes;
  std::vector<std::string> host_names;

 private:
  MachineInput() = default;
  std::string origin_;
  bool is_file_ = false;
  bool regular_file_ = false;
  bool hwloc_xml_ = false;
  mutable std::optional<std::string> text_;
};

/// A word of Scotch's target grammar a kind reads ("mesh2D", "tleaf"), and
/// its reader, which takes the words after it from `in`.
struct ScotchWord {
  std::string_view word;
  std::unique_ptr<Topology> (*read)(detail::TokenStream& in);
};

/// A machine of a kind: a -t spec (`content` empty), or a file of that
/// name holding `content`.
struct KindExample {
  std::string name;
  std::string content = {};
  /// What its nodes hold, for a network of nodes (--node).
  std::string node = {};
};

struct MachineKind {
  /// The kind's name in docs and tests ("mesh", "network").
  std::string_view name = {};
  /// How users write it, as messages list the machines tmap knows (empty
  /// for Scotch's kinds, which the message lists by their words).
  std::string_view how_written = {};
  /// The words a spec of this kind starts with ("fattree" in
  /// "fattree:..."), which a misspelt -t is compared with.
  std::vector<std::string_view> spec_words = {};
  /// The Scotch target words it reads, in Scotch text (a .tgt or -t).
  std::vector<ScotchWord> scotch_words = {};
  /// Whether an input other than Scotch text is of this kind (a spec's
  /// prefix, a file's extension or content); nullptr: Scotch text only.
  bool (*recognise)(const MachineInput& input) = nullptr;
  std::unique_ptr<Topology> (*load)(const MachineInput& input) = nullptr;
  /// A network of nodes: it takes what its nodes hold (--node) and, unless
  /// it names its hosts itself, their host names.
  bool takes_nodes = false;
  bool names_its_hosts = true;
  /// Machines of this kind, for each row's round trip in test_topology
  /// (load, save as a Scotch target, load that: the same distances).
  std::vector<KindExample> (*examples)() = nullptr;
};

/// Every kind, in the order recognisers are asked (kinds/table.cpp).
[[nodiscard]] const std::vector<MachineKind>& machine_kinds();

/// The reader of a Scotch target word, and its kind into `kind`; nullptr
/// where no kind reads it.
[[nodiscard]] const ScotchWord* find_scotch_word(std::string_view word, const MachineKind** kind = nullptr);
/// The Scotch target words tmap reads, for messages ("cmplt, cmpltw, ...").
[[nodiscard]] std::string scotch_words_known();

/// The machine of Scotch target text at `in`'s position (a kind word and
/// its numbers): what `sub` reads its base with.
[[nodiscard]] std::unique_ptr<Topology> read_scotch_target(detail::TokenStream& in);

/// What -t's value is: a spec a row recognises, a regular file, Scotch
/// text, or a stream (a pipe, FIFO or device) read once. Decided here only.
[[nodiscard]] MachineInput input_of(std::string_view spec);

/// The machine of `input`: the first row that recognises it, else Scotch
/// text. `kind` is set to the row that read it. InputError naming the
/// origin and the problem (a misspelt kind: the one it most likely meant).
[[nodiscard]] std::unique_ptr<Topology> read_machine(const MachineInput& input, const MachineKind** kind = nullptr);

}  // namespace tmap::topo
