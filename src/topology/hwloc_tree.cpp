#include "topology/hwloc_tree.hpp"

#include <hwloc.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <unistd.h>

#include "tmap/error.hpp"
#include "topology/deco.hpp"

namespace tmap::topo {

namespace {

struct HwlocTopology {
  hwloc_topology_t t = nullptr;
  HwlocTopology() {
    if (hwloc_topology_init(&t) != 0) throw InternalError("hwloc: cannot initialise a topology");
  }
  ~HwlocTopology() { hwloc_topology_destroy(t); }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
};

}  // namespace

namespace {

enum Kind { kXmlFile = 0, kSynthetic = 1, kXmlText = 2 };

/// Most PUs a node may have (a malformed cpuset can claim millions).
constexpr int kMaxPus = 65536;

/// In the child: load with hwloc and describe the tree on `fd` as text:
/// "OK", then the PU count, then per PU its ancestor count and ids, then the
/// symmetric arities, then the XML length and the XML; or "ERR <message>".
void describe(const std::string& source, int kind, int fd) {
  std::string out;
  HwlocTopology topology;
  int set = 0;
  if (kind == kXmlFile) set = hwloc_topology_set_xml(topology.t, source.c_str());
  if (kind == kSynthetic) set = hwloc_topology_set_synthetic(topology.t, source.c_str());
  if (kind == kXmlText) {
    set = source.empty() ? -1
                         : hwloc_topology_set_xmlbuffer(topology.t, source.c_str(), static_cast<int>(source.size()) + 1);
  }
  if (set != 0) {
    out = kind == kSynthetic ? "ERR synthetic" : "ERR read";
  } else if (hwloc_topology_load(topology.t) != 0) {
    out = "ERR load";
  } else if (hwloc_get_nbobjs_by_type(topology.t, HWLOC_OBJ_PU) > kMaxPus) {
    out = "ERR size";
  } else {
    const int pus = hwloc_get_nbobjs_by_type(topology.t, HWLOC_OBJ_PU);
    out = "OK " + std::to_string(pus) + "\n";
    for (int i = 0; i < pus; ++i) {
      std::vector<std::uint64_t> chain;
      for (hwloc_obj_t obj = hwloc_get_obj_by_type(topology.t, HWLOC_OBJ_PU, static_cast<unsigned>(i)); obj != nullptr;
           obj = obj->parent) {
        chain.push_back(obj->gp_index);
      }
      out += std::to_string(chain.size());
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) out += " " + std::to_string(*it);
      out += "\n";
    }
    bool symmetric = true;
    std::vector<unsigned> arities;
    const int depth = hwloc_topology_get_depth(topology.t);
    for (int d = 0; d + 1 < depth && symmetric; ++d) {
      const unsigned count = hwloc_get_nbobjs_by_depth(topology.t, d);
      const unsigned arity = hwloc_get_obj_by_depth(topology.t, d, 0)->arity;
      for (unsigned k = 0; k < count; ++k) symmetric = symmetric && hwloc_get_obj_by_depth(topology.t, d, k)->arity == arity;
      if (arity > 1) arities.push_back(arity);
    }
    if (!symmetric) arities.clear();
    out += std::to_string(arities.size());
    for (const auto a : arities) out += " " + std::to_string(a);
    out += "\n" + std::to_string(depth) + "\n";
    // Per PU the logical index of its core (what an Open MPI rankfile's
    // slot= names), -1 without a core; then the host name hwloc recorded.
    for (int i = 0; i < pus; ++i) {
      const auto* pu = hwloc_get_obj_by_type(topology.t, HWLOC_OBJ_PU, static_cast<unsigned>(i));
      const auto* core = hwloc_get_ancestor_obj_by_type(topology.t, HWLOC_OBJ_CORE, const_cast<hwloc_obj_t>(pu));
      out += core == nullptr ? std::string("-1 ") : std::to_string(core->logical_index) + " ";
    }
    const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology.t), "HostName");
    std::string host_name = host == nullptr ? "" : host;
    if (host_name.find_first_of(" \t\n=") != std::string::npos || host_name.size() > 255) host_name.clear();
    out += "\n" + std::to_string(host_name.size()) + " " + host_name + "\n";
    char* buffer = nullptr;
    int length = 0;
    std::string xml;
    if (hwloc_topology_export_xmlbuffer(topology.t, &buffer, &length, 0) == 0 && buffer != nullptr) {
      xml.assign(buffer, static_cast<std::size_t>(std::max(length - 1, 0)));
      hwloc_free_xmlbuffer(topology.t, buffer);
    }
    out += std::to_string(xml.size()) + "\n" + xml;
  }
  for (std::size_t done = 0; done < out.size();) {
    const auto n = ::write(fd, out.data() + done, out.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

HwlocTreeTopology::HwlocTreeTopology(const std::string& source, bool xml) : source_(source) {
  load_isolated(source, xml ? kXmlFile : kSynthetic, xml ? source : "'" + source + "'");
}

std::unique_ptr<HwlocTreeTopology> HwlocTreeTopology::from_xml_text(const std::string& text, const std::string& origin) {
  std::unique_ptr<HwlocTreeTopology> result(new HwlocTreeTopology());
  result->source_ = origin;
  result->load_isolated(text, kXmlText, origin);
  return result;
}

void HwlocTreeTopology::load_isolated(const std::string& source, int kind, const std::string& origin) {
  int fds[2];
  if (::pipe(fds) != 0) throw InternalError("hwloc: cannot create a pipe");
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw InternalError("hwloc: cannot fork");
  }
  if (child == 0) {
    ::close(fds[0]);
    describe(source, kind, fds[1]);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  // The child gets kHwlocSeconds: a hwloc that hangs on a bad file must not
  // hang tmap.
  constexpr int kHwlocSeconds = 10;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kHwlocSeconds);
  std::string reply;
  char chunk[65536];
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd watch{fds[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&watch, 1, static_cast<int>(left.count())) == 0) {
      timed_out = true;
      break;
    }
    const auto n = ::read(fds[0], chunk, sizeof chunk);
    if (n <= 0) break;
    reply.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  // The pipe's end is not the child's: it may still hang after closing it
  // (seen under libFuzzer, whose inherited crash handler can block), so the
  // deadline covers its exit too.
  int status = 0;
  while (!timed_out && ::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    ::usleep(1000);
  }
  if (timed_out) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
  }
  if (timed_out) {
    throw InputError(origin + ": hwloc took more than " + std::to_string(kHwlocSeconds) + " s on this input");
  }
  const bool xml = kind != kSynthetic;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    throw InputError(origin + ": hwloc failed on this " + (xml ? "XML (malformed?)" : "description"));
  }
  if (reply.starts_with("ERR size")) {
    throw InputError(origin + ": the node has more than " + std::to_string(kMaxPus) + " PUs");
  }
  if (reply.starts_with("ERR")) {
    if (kind == kSynthetic) {
      throw InputError("hwloc rejects the synthetic description " + origin + " (e.g. 'pack:1 numa:8 l2:2 core:4 pu:1')");
    }
    if (kind == kXmlFile && reply != "ERR load") throw InputError(origin, "hwloc cannot read this XML file");
    throw InputError(origin + ": hwloc cannot load this topology");
  }
  // Parse the child's description.
  std::size_t pos = 3;
  auto number = [&]() -> std::uint64_t {
    while (pos < reply.size() && (reply[pos] == ' ' || reply[pos] == '\n')) ++pos;
    std::uint64_t v = 0;
    while (pos < reply.size() && reply[pos] >= '0' && reply[pos] <= '9') v = v * 10 + static_cast<std::uint64_t>(reply[pos++] - '0');
    return v;
  };
  const auto pus = number();
  if (pus < 1) throw InputError(origin + ": the topology has no PU");
  for (std::uint64_t i = 0; i < pus; ++i) {
    std::vector<std::uint64_t> chain(number());
    for (auto& id : chain) id = number();
    ancestors_.push_back(std::move(chain));
  }
  arities_.resize(number());
  for (auto& a : arities_) a = static_cast<std::int64_t>(number());
  const auto depth = number();
  core_of_.resize(pus);
  for (auto& core : core_of_) {
    while (pos < reply.size() && reply[pos] == ' ') ++pos;
    const bool none = pos < reply.size() && reply[pos] == '-';
    if (none) ++pos;
    const auto value = static_cast<std::int64_t>(number());
    core = none ? -1 : value;
  }
  const auto host_size = number();
  ++pos;  // the space before the name
  host_name_ = reply.substr(std::min(pos, reply.size()), host_size);
  pos += host_size;
  const auto xml_size = number();
  ++pos;  // the newline before the XML
  xml_ = reply.substr(std::min(pos, reply.size()), xml_size);
  (void)depth;
  // The exact largest distance (the tree's diameter over PUs) in
  // O(PUs x depth): at each object, the two deepest PUs below different
  // children.
  struct Best {
    std::int64_t first = -1;
    std::uint64_t first_child = 0;
    std::int64_t second = -1;
  };
  std::unordered_map<std::uint64_t, Best> best;
  for (const auto& chain : ancestors_) {
    const auto leaf_depth = static_cast<std::int64_t>(chain.size()) - 1;
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
      auto& b = best[chain[k]];
      if (b.first < 0 || leaf_depth > b.first) {
        if (b.first >= 0 && b.first_child != chain[k + 1]) b.second = b.first;
        b.first = leaf_depth;
        b.first_child = chain[k + 1];
      } else if (chain[k + 1] != b.first_child && leaf_depth > b.second) {
        b.second = leaf_depth;
      }
      if (b.second >= 0) {
        max_distance_ = std::max<Distance>(max_distance_, b.first + b.second - 2 * static_cast<std::int64_t>(k));
      }
    }
  }
}

Distance HwlocTreeTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto& x = ancestors_[a];
  const auto& y = ancestors_[b];
  std::size_t common = 0;
  while (common < x.size() && common < y.size() && x[common] == y[common]) ++common;
  return static_cast<Distance>((x.size() - common) + (y.size() - common));
}

std::string HwlocTreeTopology::to_tgt() const {
  std::vector<std::int64_t> order(static_cast<std::size_t>(size()));
  for (PE p = 0; p < size(); ++p) order[p] = p;
  return format_deco0(order, std::vector<std::int64_t>(order.size(), 1),
                      [&](std::int64_t a, std::int64_t b) { return distance(a, b); });
}

}  // namespace tmap::topo
