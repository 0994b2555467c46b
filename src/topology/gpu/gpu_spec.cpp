// A GPU node described by hand: "gpu:4 link:all package:1 nic:4 pu:64".
#include <fmt/format.h>

#include <map>
#include <string>

#include "tmap/error.hpp"
#include "topology/gpu/gpu_node.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

constexpr std::string_view kSyntax =
    "gpu:N [link:all|pairs|switch|none] [width:W] [package:P] [nic:K] [pu:C] [vendor:nvidia|amd|intel]";

/// The spec's "key:value" words, each key once.
std::map<std::string, std::string, std::less<>> words_of(std::string_view spec) {
  std::map<std::string, std::string, std::less<>> words;
  std::string_view rest = spec;
  std::string_view token;
  while (detail::next_token(rest, token)) {
    const std::string word(token);
    const auto colon = word.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == word.size()) {
      throw InputError(fmt::format("--node '{}': '{}' is not KEY:VALUE (expected {})", spec, word, kSyntax));
    }
    auto key = word.substr(0, colon);
    if (key != "gpu" && key != "link" && key != "width" && key != "package" && key != "nic" && key != "pu" &&
        key != "vendor") {
      throw InputError(fmt::format("--node '{}': unknown '{}' (expected {})", spec, key, kSyntax));
    }
    if (!words.emplace(key, word.substr(colon + 1)).second) {
      throw InputError(fmt::format("--node '{}': '{}' given twice", spec, key));
    }
  }
  return words;
}

std::int64_t count_of(const std::map<std::string, std::string, std::less<>>& words, std::string_view key,
                      std::int64_t absent, std::int64_t least, std::int64_t most, std::string_view spec) {
  const auto it = words.find(key);
  if (it == words.end()) return absent;
  std::int64_t value = 0;
  if (!detail::parse_int(it->second, value) || value < least || value > most) {
    throw InputError(
        fmt::format("--node '{}': {}:{} is not a count from {} to {}", spec, key, it->second, least, most));
  }
  return value;
}

}  // namespace

bool is_gpu_spec(std::string_view spec) {
  return spec.starts_with("gpu:");
}

GpuNodeModel gpu_node_of_spec(std::string_view spec) {
  const auto words = words_of(spec);
  constexpr std::int64_t kMostGpus = 1 << 12;
  const auto n = count_of(words, "gpu", 0, 1, kMostGpus, spec);
  const auto packages = count_of(words, "package", 1, 1, n, spec);
  const auto nic_count = count_of(words, "nic", 0, 0, n, spec);
  const auto pus = count_of(words, "pu", 0, packages, std::int64_t{1} << 20, spec);
  const auto link = words.contains("link") ? words.at("link") : std::string("all");
  if (link != "all" && link != "pairs" && link != "switch" && link != "none") {
    throw InputError(fmt::format("--node '{}': link:{} is none of all, pairs, switch, none", spec, link));
  }
  const auto width = count_of(words, "width", 1, 1, 1024, spec);
  GpuNodeModel node;
  if (words.contains("vendor")) {
    const auto& vendor = words.at("vendor");
    if (vendor == "amd") {
      node.vendor = GpuVendor::Amd;
    } else if (vendor == "intel") {
      node.vendor = GpuVendor::Intel;
    } else if (vendor != "nvidia") {
      throw InputError(fmt::format("--node '{}': vendor:{} is none of nvidia, amd, intel", spec, vendor));
    }
  }
  node.source = "'" + std::string(spec) + "'";
  const auto package_of = [&](std::int64_t g) { return g * packages / n; };
  const auto switch_of = [&](std::int64_t g) { return nic_count > 0 ? g * nic_count / n : -1 - g; };
  const auto between = [&](std::int64_t a, std::int64_t b, bool gpus) {
    if (a == b && gpus) return GpuLink::Self;
    if (gpus && (link == "all" || link == "switch" || (link == "pairs" && a / 2 == b / 2))) return GpuLink::Gpu;
    if (switch_of(a) == switch_of(b)) return GpuLink::Pix;
    return package_of(a) == package_of(b) ? GpuLink::Node : GpuLink::Sys;
  };
  for (std::int64_t g = 0; g < n; ++g) node.gpus.push_back(fmt::format("GPU{}", g));
  for (std::int64_t k = 0; k < nic_count; ++k) node.nics.push_back(fmt::format("NIC{}", k));
  node.switched = link == "switch";
  for (std::int64_t a = 0; a < n; ++a) {
    for (std::int64_t b = 0; b < n; ++b) {
      node.links.push_back(between(a, b, true));
      node.widths.push_back(node.links.back() == GpuLink::Gpu ? static_cast<std::int32_t>(width) : 0);
    }
  }
  // NIC k sits on the PCIe switch of the GPUs it serves (the first of them
  // stands for it).
  std::vector<std::int64_t> first_gpu(static_cast<std::size_t>(nic_count), -1);
  for (std::int64_t g = n - 1; g >= 0; --g) {
    if (nic_count > 0) first_gpu[static_cast<std::size_t>(switch_of(g))] = g;
  }
  for (std::int64_t a = 0; a < n; ++a) {
    for (std::int64_t k = 0; k < nic_count; ++k) {
      node.nic_links.push_back(between(a, first_gpu[static_cast<std::size_t>(k)], false));
    }
  }
  if (pus > 0) {
    for (std::int64_t g = 0; g < n; ++g) {
      const auto p = package_of(g);
      auto& cpus = node.cpus.emplace_back();
      for (auto cpu = p * pus / packages; cpu < (p + 1) * pus / packages; ++cpu) {
        cpus.push_back(static_cast<std::int32_t>(cpu));
      }
    }
  }
  return node;
}

}  // namespace tmap::topo
