// The one place where what users give as a machine is told apart: -t's
// value (a spec, a regular file, Scotch text, a stream), a file's content,
// a scheduler's answer; each is handed to the first kind whose recogniser
// claims it (kinds/table.cpp), else read as Scotch target text. The public
// loaders of tmap/machine.hpp are this file's thin doors.
#include <algorithm>
#include <filesystem>

#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/machine.hpp"
#include "tmap/scotch_export.hpp"
#include "topology/kinds/kind.hpp"
#include "util/file.hpp"
#include "util/text.hpp"

namespace tmap::topo {

MachineInput MachineInput::spec(std::string_view text) {
  MachineInput input;
  input.origin_ = "-t";
  input.text_ = std::string(text);
  return input;
}

MachineInput MachineInput::file(std::string path) {
  MachineInput input;
  input.origin_ = std::move(path);
  input.is_file_ = true;
  input.regular_file_ = true;
  return input;
}

MachineInput MachineInput::content(std::string text, std::string name, bool hwloc_xml) {
  MachineInput input;
  input.origin_ = std::move(name);
  input.is_file_ = true;
  input.hwloc_xml_ = hwloc_xml;
  input.text_ = std::move(text);
  return input;
}

std::string_view MachineInput::text() const {
  if (!text_) text_ = detail::read_text_file(origin_);
  return *text_;
}

std::string MachineInput::extension() const {
  return is_file_ ? std::filesystem::path(origin_).extension().string() : std::string();
}

namespace {

/// White space between the words of a machine's text, line breaks included.
constexpr std::string_view kWhiteSpace = " \t\r\n\v\f";

}  // namespace

char MachineInput::first_char() const {
  const auto all = text();
  const auto start = all.find_first_not_of(kWhiteSpace);
  return start == std::string_view::npos ? '\0' : all[start];
}

std::string_view MachineInput::first_word() const {
  std::string_view rest = text();
  std::string_view word;
  detail::next_token(rest, word, ":" + std::string(kWhiteSpace));
  return word;
}

const ScotchWord* find_scotch_word(std::string_view word, const MachineKind** kind) {
  for (const auto& row : machine_kinds()) {
    for (const auto& scotch : row.scotch_words) {
      if (scotch.word != word) continue;
      if (kind != nullptr) *kind = &row;
      return &scotch;
    }
  }
  return nullptr;
}

std::string scotch_words_known() {
  std::string list;
  for (const auto& row : machine_kinds()) {
    for (const auto& scotch : row.scotch_words) {
      if (scotch.word != "varcmplt" && scotch.word != "varhcub")
        list += (list.empty() ? "" : ", ") + std::string(scotch.word);
    }
  }
  return list;
}

std::unique_ptr<Topology> read_scotch_target(detail::TokenStream& in) {
  const auto name = in.expect("a Scotch target kind (" + scotch_words_known() + ")");
  const auto* scotch = find_scotch_word(name);
  if (scotch == nullptr) {
    in.fail("unknown or unsupported target kind " + detail::quote(name) + " (supported: " + scotch_words_known() + ")");
  }
  return scotch->read(in);
}

namespace {

void check_size(const Topology& topology, const std::string& origin) {
  if (topology.size() > kMaxPEs) {
    throw InputError(origin, "the target has " + std::to_string(topology.size()) + " PEs; tmap maps onto at most " +
                                 std::to_string(kMaxPEs) + " (2^21)");
  }
}

/// -t names nothing tmap knows: say what it most likely meant, and what a
/// machine can be, row by row.
[[noreturn]] void refuse_unknown(std::string_view spec) {
  const auto kind_end = std::min(spec.find_first_of(": \t"), spec.size());
  std::vector<std::string_view> words;
  std::string others;
  for (const auto& row : machine_kinds()) {
    words.insert(words.end(), row.spec_words.begin(), row.spec_words.end());
    for (const auto& scotch : row.scotch_words) words.push_back(scotch.word);
    if (!row.how_written.empty()) others += ", " + std::string(row.how_written);
  }
  const auto meant = detail::closest_name(spec.substr(0, kind_end), words);
  const auto suggestion =
      meant.empty() ? std::string()
                    : " (did you mean " + meant + (kind_end < spec.size() && spec[kind_end] == ':' ? ":" : "") + "?)";
  throw InputError("-t: cannot open topology file '" + std::string(spec.substr(0, 60)) +
                   "' (no such file), and it is no machine tmap knows" + suggestion +
                   ". A machine is a Scotch target or its file (" + scotch_words_known() + ")" + others);
}

}  // namespace

MachineInput input_of(std::string_view spec) {
  const auto first = spec.find_first_not_of(detail::kBlanks);
  if (first == std::string_view::npos) throw InputError("-t: the topology is empty");
  spec.remove_prefix(first);
  while (!spec.empty() && detail::kBlanks.find(spec.back()) != std::string_view::npos) spec.remove_suffix(1);
  auto as_spec = MachineInput::spec(spec);
  for (const auto& row : machine_kinds()) {
    if (row.recognise != nullptr && row.recognise(as_spec)) return as_spec;
  }
  const std::string path(spec);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return MachineInput::file(path);
  if (find_scotch_word(as_spec.first_word()) != nullptr) return as_spec;
  // A pipe, FIFO or device (-t <(tm-topo ...)): read once, bounded, and told
  // apart by its content (no extension to go by).
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec)) {
    return MachineInput::content(detail::read_text_file(path), path);
  }
  if (std::filesystem::exists(path, ec)) throw InputError(path, "is not a regular file");
  return as_spec;
}

std::unique_ptr<Topology> read_machine(const MachineInput& input, const MachineKind** kind) {
  for (const auto& row : machine_kinds()) {
    if (row.recognise == nullptr || !row.recognise(input)) continue;
    auto machine = row.load(input);
    check_size(*machine, input.origin());
    if (kind != nullptr) *kind = &row;
    return machine;
  }
  const MachineKind* scotch_kind = nullptr;
  const bool scotch_text = find_scotch_word(input.first_word(), &scotch_kind) != nullptr;
  if (!input.is_file() && !scotch_text) refuse_unknown(input.text());
  if (input.is_file() && !scotch_text) {
    const auto text = input.text();
    const auto start = text.find_first_not_of(kWhiteSpace);
    if (start != std::string_view::npos && text[start] >= '0' && text[start] <= '9') {
      const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(start), '\n');
      throw InputError(input.origin(), line,
                       "this is not a machine: a Scotch target starts with its kind (" + scotch_words_known() +
                           "), this file with a number. A communication matrix goes to -c; a distance matrix "
                           "between PEs needs the extension .dist");
    }
  }
  if (kind != nullptr) *kind = scotch_kind;
  return parse_tgt(input.text(), input.origin());
}

}  // namespace tmap::topo

namespace tmap {

std::unique_ptr<Topology> parse_tgt(std::string_view text, const std::string& origin) {
  detail::TokenStream in(text, origin);
  auto topology = topo::read_scotch_target(in);
  std::string_view extra;
  if (in.next(extra)) in.fail("unexpected data after the target description: " + detail::quote(extra));
  topo::check_size(*topology, origin);
  // Every kind a target file describes has Scotch's view: it keeps the text.
  if (auto* view = topology->find<ScotchView>()) view->set_scotch_source(std::string(text));
  return topology;
}

std::unique_ptr<Topology> parse_topology_file(std::string_view text, const std::string& path, bool hwloc_xml) {
  return topo::read_machine(topo::MachineInput::content(std::string(text), path, hwloc_xml));
}

std::unique_ptr<Topology> load_topology(std::string_view spec) {
  return topo::read_machine(topo::input_of(spec));
}

std::unique_ptr<Topology> load_machine(const MachineSpec& spec) {
  auto input = spec.topology_text.empty() ? topo::input_of(spec.topology)
                                          : topo::MachineInput::content(spec.topology_text, spec.topology);
  if (!spec.pe.empty() && spec.pe != "cpu" && spec.pe != "gpu") {
    throw ParameterError("pe: '" + spec.pe + "' is neither cpu nor gpu");
  }
  input.nodes = topo::NodeSpecs{spec.node, spec.node_by_hosts, spec.pe};
  input.host_names = spec.host_names;
  // The machine first: a misspelt -t is -t's mistake, not --node's.
  const topo::MachineKind* kind = nullptr;
  auto machine = topo::read_machine(input, &kind);
  const auto shown = std::string(std::string_view(spec.topology).substr(0, 40));
  const bool takes_nodes = kind != nullptr && kind->takes_nodes;
  const bool names_its_hosts = kind == nullptr || kind->names_its_hosts;
  if (!takes_nodes && (!spec.node.empty() || !spec.node_by_hosts.empty())) {
    throw ParameterError(
        "node: only a network of nodes (fattree:..., dragonfly:..., torus:..., topology.conf) takes a node "
        "description; '" +
        shown + "' describes its PEs itself");
  }
  if (!spec.host_names.empty() && names_its_hosts) {
    if (takes_nodes) throw ParameterError("host-names: " + shown + " names its nodes itself");
    throw ParameterError(
        "host-names: only a network of nodes (fattree:..., dragonfly:..., torus:...) takes host names here; name the "
        "hosts of this machine with --hosts FILE or an allocation");
  }
  if (spec.pe == "gpu" && !device_slot(*machine, 0)) {
    throw ParameterError("pe: gpu, but " + machine->description().substr(0, 80) +
                         " has no GPUs (describe GPU nodes with nvidia-smi topo -m or rocm-smi --showtopo output, an "
                         "hwloc XML that lists them, or 'gpu:N ...')");
  }
  return machine;
}

}  // namespace tmap
