#include "topology/hwloc_input.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "tmap/error.hpp"
#include "topology/xml_nodes.hpp"

namespace tmap::topo {

namespace {

constexpr int kMaxDepth = 64;
constexpr std::int64_t kMaxObjects = std::int64_t{1} << 20;
constexpr std::size_t kMaxText = 1024;  ///< names, subtypes, info values

/// A cpu or node set as hwloc writes it (hwloc_bitmap_snprintf): 32-bit
/// hex words, most significant first, separated by commas; a zero word
/// between two others is written empty ("0x00000003,,0x0": bits 64 and 65),
/// and "0xf...f" first marks an infinite set. hwloc_bitmap_sscanf reads
/// each word with strtoul, so "0x" is optional and an empty word is 0.
struct Bitmap {
  std::vector<std::uint32_t> words;  ///< least significant first
  bool infinite = false;

  [[nodiscard]] bool bit(std::size_t b) const {
    const auto w = b / 32;
    if (w >= words.size()) return infinite;
    return ((words[w] >> (b % 32)) & 1U) != 0;
  }
  [[nodiscard]] std::int64_t count() const {
    std::int64_t c = 0;
    for (const auto w : words) c += __builtin_popcount(w);
    return c;
  }
  /// Is every bit of this set also in `outer`?
  [[nodiscard]] bool within(const Bitmap& outer) const {
    if (infinite && !outer.infinite) return false;
    const auto n = std::max(words.size(), outer.words.size());
    for (std::size_t w = 0; w < n; ++w) {
      const std::uint32_t mine = w < words.size() ? words[w] : (infinite ? ~0U : 0U);
      const std::uint32_t theirs = w < outer.words.size() ? outer.words[w] : (outer.infinite ? ~0U : 0U);
      if ((mine & ~theirs) != 0) return false;
    }
    return true;
  }
};

std::optional<Bitmap> parse_bitmap(std::string_view text) {
  Bitmap map;
  std::vector<std::uint32_t> words;  // most significant first
  // hwloc asserts on a leading comma and reads a trailing one as a shift
  // of the whole set; neither is written by hwloc: refused.
  if (text.empty() || text.front() == ',' || text.back() == ',') return std::nullopt;
  std::size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    auto end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    auto word = text.substr(start, end - start);
    if (first && word == "0xf...f") {
      map.infinite = true;
    } else {
      if (word.starts_with("0x") || word.starts_with("0X")) {
        word.remove_prefix(2);
        if (word.empty()) return std::nullopt;  // "0x" alone: strtoul reads nothing
      }
      std::uint32_t value = 0;  // an empty word is a zero word
      if (!word.empty()) {
        if (word.size() > 8) return std::nullopt;
        const auto [at, error] = std::from_chars(word.data(), word.data() + word.size(), value, 16);
        if (error != std::errc() || at != word.data() + word.size()) return std::nullopt;
      }
      words.push_back(value);
    }
    first = false;
    if (words.size() > static_cast<std::size_t>(kMaxNodePus / 32) + 1) return std::nullopt;
    start = end + 1;
  }
  map.words.assign(words.rbegin(), words.rend());
  // 64-bit hwloc packs the words into 64-bit longs: after "0xf...f" an odd
  // number of words leaves the upper half of the last long clear.
  if (map.infinite && map.words.size() % 2 == 1) map.words.push_back(0);
  return map;
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text, std::uint64_t most) {
  std::uint64_t value = 0;
  const auto [at, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || at != text.data() + text.size() || value > most) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_signed(std::string_view text, std::int64_t least, std::int64_t most) {
  std::int64_t value = 0;
  const auto [at, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || at != text.data() + text.size() || value < least || value > most) {
    return std::nullopt;
  }
  return value;
}

/// Object types kept (hwloc 2 names, and the hwloc 1.x names hwloc still
/// imports). I/O objects and Misc are left out: tmap maps onto PUs.
constexpr std::array<std::string_view, 17> kKeptTypes{
    "Machine", "Package", "Die",     "Core",    "PU",       "Group",    "NUMANode", "MemCache", "L1Cache",
    "L2Cache", "L3Cache", "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Socket"};
constexpr std::array<std::string_view, 5> kDroppedTypes{"Bridge", "PCIDev", "OSDev", "Misc", "System"};

struct XmlParser {
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  ~XmlParser() {
    if (ctxt != nullptr) xmlFreeParserCtxt(ctxt);
  }
};

/// Walks the input tree and writes the kept objects into the output tree.
class Sanitizer {
 public:
  Sanitizer(const std::string& origin, bool version1) : version1_(version1), origin_(origin) {}

  [[noreturn]] void fail(xmlNodePtr node, const std::string& problem) const {
    const long line = node != nullptr ? xmlGetLineNo(node) : -1;
    if (line > 0) throw InputError(origin_, line, problem);
    throw InputError(origin_, problem);
  }

  /// cpuset, complete_cpuset, nodeset, complete_nodeset.
  using Sets = std::array<Bitmap, 4>;

  void object(xmlNodePtr in, xmlNodePtr out_parent, const Sets* parent_sets, int depth,
              const std::string& parent_type = {}) {
    if (depth > kMaxDepth) fail(in, "objects nested more than " + std::to_string(kMaxDepth) + " deep");
    if (++objects_ > kMaxObjects) fail(in, "more than " + std::to_string(kMaxObjects) + " objects");
    bool present = false;
    const auto type = xml_attribute(in, "type", &present);
    if (std::find(kDroppedTypes.begin(), kDroppedTypes.end(), type) != kDroppedTypes.end()) return;
    if (std::find(kKeptTypes.begin(), kKeptTypes.end(), type) == kKeptTypes.end()) {
      fail(in, "unknown object type '" + type.substr(0, 64) + "'");
    }
    // Nesting first: a misplaced object is reported as such, not as the
    // sets it then cannot have.
    if (parent_type == "PU") fail(in, "a " + type + " object inside a PU: PUs are the leaves of the tree");
    if ((type == "Machine" || type == "System") && !parent_type.empty()) {
      fail(in, "a " + type + " object inside a " + parent_type + ": " + type + " is the root of the tree");
    }
    if (parent_type.empty()) {
      // hwloc 1.x wrote no nodesets on machines without NUMA nodes, and
      // hwloc 2 imports such files (adding the NUMA node): all or none.
      bool has_nodeset = false;
      (void)xml_attribute(in, "nodeset", &has_nodeset);
      nodesets_ = has_nodeset || !version1_;
    }
    if (!nodesets_ && type == "NUMANode") {
      fail(in,
           "a NUMANode object in a file without nodesets (hwloc 1.x files without NUMA nodes have none; "
           "re-export it with lstopo --of xml)");
    }
    xmlNodePtr out = xmlNewChild(out_parent, nullptr, reinterpret_cast<const xmlChar*>("object"), nullptr);
    set(out, "type", type);

    // The four sets, checked, each within the parent's same set, and an
    // object's own sets within its complete ones.
    static constexpr std::array<const char*, 4> kSets{"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"};
    Sets sets;
    for (std::size_t k = 0; k < kSets.size(); ++k) {
      const char* name = kSets[k];
      const auto text = xml_attribute(in, name, &present);
      if (k >= 2 && !nodesets_) {
        if (present) fail(in, type + " object with a " + name + " in a file whose root has none (all or none)");
        continue;
      }
      // hwloc 1.x files may give nodesets to the root and the NUMA nodes only
      // (libhwloc 2 imports them, computing the others): such an object
      // keeps the parent's for the checks below, and none in the output.
      if (k >= 2 && !present && version1_ && type != "NUMANode" && parent_sets != nullptr) {
        sets[k] = (*parent_sets)[k];
        continue;
      }
      if (!present) fail(in, type + " object without " + name + " (every CPU or memory object needs all four sets)");
      auto map = parse_bitmap(text);
      if (!map) fail(in, std::string(name) + " '" + text.substr(0, 64) + "' is not an hwloc bitmap");
      if (parent_sets != nullptr && !map->within((*parent_sets)[k])) {
        fail(in, std::string(name) + " '" + text.substr(0, 64) + "' is not within the parent's");
      }
      sets[k] = std::move(*map);
      set(out, name, text);
    }
    if (!sets[0].within(sets[1]) || (nodesets_ && !sets[2].within(sets[3]))) {
      fail(in, "the object's cpuset or nodeset is not within its complete set");
    }
    if (type == "Machine" || type == "System") {
      for (const char* name : {"allowed_cpuset", "allowed_nodeset"}) {
        const auto text = xml_attribute(in, name, &present);
        if (!present) continue;
        if (!parse_bitmap(text)) fail(in, std::string(name) + " '" + text.substr(0, 64) + "' is not an hwloc bitmap");
        set(out, name, text);
      }
    }
    numbers(in, out, type);
    if (type == "PU") pu(in, sets[0]);
    if (type == "NUMANode") numa(in, sets[2]);

    for (xmlNodePtr child = in->children; child != nullptr; child = child->next) {
      if (xml_named(child, "object")) {
        object(child, out, &sets, depth + 1, type);
      } else if (xml_named(child, "info")) {
        info(child, out);
      }
    }
  }

  void info(xmlNodePtr in, xmlNodePtr out_parent) {
    bool has_name = false;
    bool has_value = false;
    const auto name = xml_attribute(in, "name", &has_name);
    const auto value = xml_attribute(in, "value", &has_value);
    if (!has_name || !has_value) fail(in, "info without name or value");
    if (name.size() > kMaxText || value.size() > kMaxText) fail(in, "info longer than " + std::to_string(kMaxText));
    xmlNodePtr out = xmlNewChild(out_parent, nullptr, reinterpret_cast<const xmlChar*>("info"), nullptr);
    set(out, "name", name);
    set(out, "value", value);
  }

  [[nodiscard]] std::int64_t pus() const { return static_cast<std::int64_t>(pu_bits_.size()); }

 private:
  /// Whether the file carries nodesets (decided at its root object).
  bool nodesets_ = true;
  /// An hwloc 1.x file (no version, or 1.x): nodesets may be left out.
  bool version1_ = false;
  void set(xmlNodePtr node, const char* name, const std::string& value) {
    xmlNewProp(node, reinterpret_cast<const xmlChar*>(name), reinterpret_cast<const xmlChar*>(value.c_str()));
  }

  /// Numeric attributes: copied when valid, refused otherwise.
  void numbers(xmlNodePtr in, xmlNodePtr out, const std::string& type) {
    struct Rule {
      const char* name;
      std::int64_t least;
      std::int64_t most;
    };
    constexpr std::int64_t kBig = std::numeric_limits<std::int64_t>::max();
    static constexpr std::array<Rule, 11> kRules{{{"os_index", 0, std::numeric_limits<std::int32_t>::max()},
                                                  {"gp_index", 0, kBig},
                                                  {"cache_size", 0, kBig},
                                                  {"depth", 0, 16},
                                                  {"cache_linesize", 0, 1 << 20},
                                                  {"cache_associativity", -1, 1 << 20},
                                                  {"cache_type", 0, 2},
                                                  {"kind", 0, 1 << 20},
                                                  {"subkind", 0, 1 << 20},
                                                  {"dont_merge", 0, 1},
                                                  {"local_memory", 0, kBig}}};
    bool present = false;
    for (const auto& rule : kRules) {
      const auto text = xml_attribute(in, rule.name, &present);
      if (!present) continue;
      if (!parse_signed(text, rule.least, rule.most)) {
        fail(in, std::string(rule.name) + " '" + text.substr(0, 64) + "' is not a number between " +
                     std::to_string(rule.least) + " and " + std::to_string(rule.most));
      }
      set(out, rule.name, text);
    }
    for (const char* name : {"name", "subtype"}) {
      const auto text = xml_attribute(in, name, &present);
      if (!present) continue;
      if (text.size() > kMaxText) fail(in, std::string(name) + " longer than " + std::to_string(kMaxText));
      set(out, name, text);
    }
    (void)type;
  }

  /// A PU has exactly one bit, equal to its os_index, used once.
  void pu(xmlNodePtr in, const Bitmap& cpuset) {
    if (cpuset.infinite || cpuset.count() != 1) fail(in, "a PU's cpuset must hold exactly one PU");
    std::size_t bit = 0;
    while (!cpuset.bit(bit)) ++bit;
    bool present = false;
    const auto os_index =
        parse_unsigned(xml_attribute(in, "os_index", &present), std::numeric_limits<std::int32_t>::max());
    if (!present || !os_index) fail(in, "PU without a valid os_index");
    if (*os_index != bit)
      fail(in, "PU os_index " + std::to_string(*os_index) + " differs from its cpuset bit " + std::to_string(bit));
    if (!pu_bits_.insert(bit).second) fail(in, "PU " + std::to_string(bit) + " is listed twice");
    if (pus() > kMaxNodePus) fail(in, "the node has more than " + std::to_string(kMaxNodePus) + " PUs");
  }

  /// A NUMA node has exactly one nodeset bit, equal to its os_index, used
  /// once. Without an os_index hwloc numbers it 2^32 - 1 and grows every
  /// nodeset above it to 2^32 bits (fuzz_hwloc: 134 MB of XML exported
  /// from 162 objects, 58 s).
  void numa(xmlNodePtr in, const Bitmap& nodeset) {
    if (nodeset.infinite || nodeset.count() != 1) fail(in, "a NUMANode's nodeset must hold exactly one node");
    std::size_t bit = 0;
    while (!nodeset.bit(bit)) ++bit;
    bool present = false;
    const auto os_index =
        parse_unsigned(xml_attribute(in, "os_index", &present), std::numeric_limits<std::int32_t>::max());
    if (!present || !os_index) fail(in, "NUMANode without a valid os_index");
    if (*os_index != bit) {
      fail(in,
           "NUMANode os_index " + std::to_string(*os_index) + " differs from its nodeset bit " + std::to_string(bit));
    }
    if (!numa_bits_.insert(bit).second) fail(in, "NUMANode " + std::to_string(bit) + " is listed twice");
  }

  const std::string& origin_;
  std::int64_t objects_ = 0;
  std::set<std::size_t> numa_bits_;
  std::set<std::size_t> pu_bits_;
};

void ignore_xml_error(void* /*context*/, const char* /*message*/, ...) {}

/// libxml2's generic error handler of this thread set to one that prints
/// nothing, and libxml2's own put back at the end.
struct SilentXmlErrors {
  SilentXmlErrors() { xmlSetGenericErrorFunc(nullptr, ignore_xml_error); }
  ~SilentXmlErrors() { reset_libxml_error_handlers(); }
  SilentXmlErrors(const SilentXmlErrors&) = delete;
  SilentXmlErrors& operator=(const SilentXmlErrors&) = delete;
};

}  // namespace

void reset_libxml_error_handlers() noexcept {
  xmlSetGenericErrorFunc(nullptr, nullptr);
  xmlSetStructuredErrorFunc(nullptr, nullptr);
}

XmlDocument::~XmlDocument() {
  if (doc_ != nullptr) xmlFreeDoc(static_cast<xmlDocPtr>(doc_));
}

XmlDocument parse_topology_xml(std::string_view xml, const std::string& origin) {
  static std::once_flag init;
  std::call_once(init, [] { xmlInitParser(); });
  // Nothing printed from here (XML_PARSE_NOERROR covers the parser), and
  // never a handler hwloc's plugin left.
  const SilentXmlErrors silent;
  if (xml.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw InputError(origin, "the XML file is too large");
  }
  XmlParser parser;
  if (parser.ctxt == nullptr) throw InternalError("libxml2: cannot create a parser");
  // No network, no entity substitution, no DTD loading, nothing printed.
  constexpr int kOptions = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
  XmlDocument input(
      xmlCtxtReadMemory(parser.ctxt, xml.data(), static_cast<int>(xml.size()), origin.c_str(), nullptr, kOptions));
  if (input.get() == nullptr) {
    const xmlError* error = xmlCtxtGetLastError(parser.ctxt);
    std::string message = error != nullptr && error->message != nullptr ? error->message : "not well-formed";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    if (error != nullptr && error->line > 0) throw InputError(origin, error->line, "not valid XML: " + message);
    throw InputError(origin, "not valid XML: " + message);
  }
  const auto doc = static_cast<xmlDocPtr>(input.get());
  if (doc->intSubset != nullptr && doc->intSubset->entities != nullptr) {
    throw InputError(origin, "XML entity declarations are not accepted in a topology");
  }
  xmlNodePtr root = xmlDocGetRootElement(doc);
  if (root == nullptr || !xml_named(root, "topology"))
    throw InputError(origin, "not an hwloc topology (no <topology> root)");
  return input;
}

std::optional<std::vector<std::int32_t>> cpus_of_bitmap(std::string_view text) {
  const auto map = parse_bitmap(text);
  if (!map || map->infinite) return std::nullopt;
  std::vector<std::int32_t> cpus;
  for (std::size_t b = 0; b < map->words.size() * 32; ++b) {
    if (map->bit(b)) cpus.push_back(static_cast<std::int32_t>(b));
  }
  return cpus;
}

std::string sanitized_hwloc_xml(std::string_view xml, const std::string& origin) {
  const auto input = parse_topology_xml(xml, origin);
  // libxml2's tree functions print nothing either.
  const SilentXmlErrors silent;
  xmlNodePtr root = xmlDocGetRootElement(static_cast<xmlDocPtr>(input.get()));

  const XmlDocument output(xmlNewDoc(reinterpret_cast<const xmlChar*>("1.0")));
  const auto out_doc = static_cast<xmlDocPtr>(output.get());
  xmlNodePtr out_root = xmlNewNode(nullptr, reinterpret_cast<const xmlChar*>("topology"));
  xmlDocSetRootElement(out_doc, out_root);
  bool present = false;
  const auto version = xml_attribute(root, "version", &present);
  if (present) {
    if (version.empty() || version.size() > 8 || version.find_first_not_of("0123456789.") != std::string::npos) {
      throw InputError(origin, "bad topology version '" + version.substr(0, 16) + "'");
    }
    xmlNewProp(out_root, reinterpret_cast<const xmlChar*>("version"),
               reinterpret_cast<const xmlChar*>(version.c_str()));
  }
  // hwloc 1.x files (no version, or 1.x) may leave nodesets out; hwloc 2's
  // importer of version 2 files needs them.
  Sanitizer sanitizer(origin, !present || version.starts_with("1"));
  int machines = 0;
  for (xmlNodePtr child = root->children; child != nullptr; child = child->next) {
    if (!xml_named(child, "object")) continue;  // distances, memory attributes, CPU kinds: not needed
    if (++machines > 1) sanitizer.fail(child, "more than one root object");
    sanitizer.object(child, out_root, nullptr, 0);
  }
  if (machines == 0 || sanitizer.pus() == 0) throw InputError(origin, "the topology has no PU");

  xmlChar* buffer = nullptr;
  int size = 0;
  xmlDocDumpMemory(out_doc, &buffer, &size);
  if (buffer == nullptr) throw InternalError("libxml2: cannot write the checked topology");
  std::string text(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(size));
  xmlFree(buffer);
  return text;
}

void check_hwloc_synthetic(std::string_view description) {
  const std::string quoted = "'" + std::string(description.substr(0, 200)) + "'";
  std::int64_t pus = 1;
  std::size_t items = 0;
  std::size_t start = 0;
  while (start < description.size()) {
    const auto first = description.find_first_not_of(" \t\n", start);
    if (first == std::string_view::npos) break;
    auto end = description.find_first_of(" \t\n", first);
    if (end == std::string_view::npos) end = description.size();
    auto item = description.substr(first, end - first);
    start = end;
    ++items;
    if (const auto open = item.find('('); open != std::string_view::npos) {
      if (!item.ends_with(')')) {
        throw InputError("the synthetic description " + quoted + " has an unclosed '(' in '" + std::string(item) + "'");
      }
      item = item.substr(0, open);
    }
    const auto colon = item.find(':');
    // Any whole count is read; one past a node's PUs is "too large", not malformed.
    constexpr std::uint64_t kMostRead = std::uint64_t{1} << 62;
    const auto count =
        colon == std::string_view::npos ? std::nullopt : parse_unsigned(item.substr(colon + 1), kMostRead);
    if (count && *count > static_cast<std::uint64_t>(kMaxNodePus)) {
      throw InputError("the synthetic description " + quoted + " is too large: '" + std::string(item.substr(0, 64)) +
                       "' alone is more than a node's " + std::to_string(kMaxNodePus) + " PUs");
    }
    if (colon == 0 || !count || *count < 1) {
      throw InputError("hwloc synthetic description " + quoted +
                       ": expected items TYPE:COUNT (e.g. 'pack:1 core:4 pu:1'), "
                       "found '" +
                       std::string(item.substr(0, 64)) + "'");
    }
    pus *= static_cast<std::int64_t>(*count);
    if (pus > kMaxNodePus) {
      throw InputError("the synthetic description " + quoted + " is too large: more than a node's " +
                       std::to_string(kMaxNodePus) + " PUs");
    }
  }
  if (items == 0) throw InputError("the synthetic description is empty");
}

}  // namespace tmap::topo
