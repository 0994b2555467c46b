// A job's errors in its front end's words: the library writes tm-map's
// flags ("-t '...'", "--node: ...", "host-names: ..."); a front end's
// JobWords say what its user typed instead (machine=, TMAP_NODE, ...).
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "job/job_state.hpp"
#include "tmap/job.hpp"

namespace tmap {

JobWords JobWords::python() {
  JobWords w;
  w.topology = "machine";
  w.node = "node";
  w.host_names = "host_names";
  w.hosts_file = "hosts";
  w.host_pattern = "host_pattern";
  w.alloc = "alloc";
  w.constraints = "allowed";
  w.oversubscription = "oversubscription";
  w.imbalance = "imbalance";
  w.cpus_per_rank = "cpus_per_rank";
  w.pes_per_node = "pes_per_node";
  w.het_group = "het_group";
  w.pe = "pe";
  w.options = Options::Arguments;
  return w;
}

JobWords JobWords::mpi() {
  JobWords w;
  w.topology = "TMAP_TOPOLOGY (topo_tmap_topology)";
  w.node = "TMAP_NODE (topo_tmap_node)";
  w.host_names = "TMAP_HOST_NAMES (topo_tmap_host_names)";
  w.pe = "TMAP_PE (topo_tmap_pe)";
  w.options = Options::Variables;
  return w;
}

namespace {

/// Each field's key (set_job_field's) and its word: one table for the
/// front ends' words and for saying the library's messages in them.
constexpr std::array<std::pair<std::string_view, std::string JobWords::*>, 14> kFields{{
    {"machine", &JobWords::topology},
    {"node", &JobWords::node},
    {"host-names", &JobWords::host_names},
    {"hosts", &JobWords::hosts_file},
    {"host-pattern", &JobWords::host_pattern},
    {"alloc", &JobWords::alloc},
    {"alloc-from-env", &JobWords::scheduler},
    {"constraints", &JobWords::constraints},
    {"oversubscription", &JobWords::oversubscription},
    {"imbalance", &JobWords::imbalance},
    {"cpus-per-rank", &JobWords::cpus_per_rank},
    {"pes-per-node", &JobWords::pes_per_node},
    {"het-group", &JobWords::het_group},
    {"pe", &JobWords::pe},
}};

/// "--host-names" -> "host-names": the key the library's messages also use.
std::string_view bare(std::string_view flag) {
  while (flag.starts_with('-')) flag.remove_prefix(1);
  return flag;
}

}  // namespace

std::string named(const std::string& message, std::string_view key, const std::string& word) {
  if (message.starts_with(key) && message.size() > key.size() &&
      (message[key.size()] == ':' || message[key.size()] == ' ')) {
    return word + message.substr(key.size());
  }
  return word + ": " + message;
}

std::string JobWords::option(std::string_view key) const {
  switch (options) {
    case Options::Flags:
      return "--" + std::string(key);
    case Options::Arguments:
      return std::string(key);
    case Options::Variables: {
      std::string variable = "TMAP_";
      std::string parameter = "topo_tmap_";
      for (const char c : key) {
        variable += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        parameter += c == '-' ? '_' : c;
      }
      return variable + " (" + parameter + ")";
    }
  }
  return std::string(key);
}

std::string JobWords::field(std::string_view key) const {
  for (const auto& [name, word] : kFields) {
    if (name == key) return this->*word;
  }
  return option(key);
}

std::string JobWords::say(std::string message) const {
  const JobWords library;
  std::array<std::pair<const std::string*, const std::string*>, kFields.size()> fields{};
  for (std::size_t k = 0; k < kFields.size(); ++k)
    fields[k] = {&(library.*kFields[k].second), &(this->*kFields[k].second)};
  // The field a message starts with: "-t '...'", "--node: ...", or its key
  // alone ("node: ...", "host-names: ..."), which tm-map says as its flag.
  for (const auto& [from, to] : fields) {
    const auto key = bare(*from);
    bool said = false;
    for (const std::string_view word : {std::string_view(*from), key}) {
      if (word.size() < 2 || !message.starts_with(word) || message.size() == word.size()) continue;
      // A key is a field's only before a colon ("hosts cn1 and cn5 ..." is a sentence).
      const bool flag = word.data() == from->data();
      if (message[word.size()] != ':' && (!flag || message[word.size()] != ' ')) continue;
      message = *to + message.substr(word.size());
      said = true;
      break;
    }
    if (said) break;
  }
  // Advice inside a message ("name them: --host-names 'cn[01-16]'", "or
  // --node this"): a flag standing as a word, followed by its value.
  for (const auto& [from, to] : fields) {
    if (*from == *to || !from->starts_with('-')) continue;
    for (auto at = message.find(*from); at != std::string::npos; at = message.find(*from, at + 1)) {
      const auto end = at + from->size();
      const bool word_start = at == 0 || std::string_view(" '(,;").find(message[at - 1]) != std::string_view::npos;
      const bool value_follows = end < message.size() && (message[end] == ' ' || message[end] == '\'');
      if (!word_start || !value_follows) continue;
      message.replace(at, from->size(), *to);
      at += to->size() - 1;
    }
  }
  return message;
}

}  // namespace tmap
