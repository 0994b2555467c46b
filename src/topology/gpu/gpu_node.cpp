#include "topology/gpu/gpu_node.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "tmap/error.hpp"

namespace tmap::topo {

namespace {

constexpr std::array<std::string_view, 7> kLinkWords{"X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS"};

/// A GPU's exit where the source names no NIC: through the host bridge.
constexpr Distance kExitWithoutNic = link_distance(GpuLink::Phb) + 1;

/// Consecutive runs of sorted CPU numbers: {0,1,2,5,6} -> {0,3}, {5,7}.
std::vector<std::pair<std::int32_t, std::int32_t>> runs_of(const std::vector<std::int32_t>& cpus) {
  std::vector<std::pair<std::int32_t, std::int32_t>> runs;
  for (const auto cpu : cpus) {
    if (!runs.empty() && runs.back().second == cpu) {
      ++runs.back().second;
    } else {
      runs.emplace_back(cpu, cpu + 1);
    }
  }
  return runs;
}

/// The CPUs of each GPU's share: the GPUs with the same nearest CPUs take,
/// in GPU order, equal parts of each run of them (Linux numbers a core's
/// second hardware threads in a run of their own, so a core's threads go
/// to one GPU); a GPU whose part would be empty shares the whole set.
std::vector<std::vector<std::int32_t>> shares_of(const std::vector<std::vector<std::int32_t>>& cpus) {
  std::map<std::vector<std::int32_t>, std::vector<std::size_t>> sharing;
  for (std::size_t g = 0; g < cpus.size(); ++g) {
    if (!cpus[g].empty()) sharing[cpus[g]].push_back(g);
  }
  std::vector<std::vector<std::int32_t>> shares(cpus.size());
  for (const auto& [set, gpus] : sharing) {
    const auto parts = static_cast<std::int64_t>(gpus.size());
    for (std::int64_t i = 0; i < parts; ++i) {
      auto& share = shares[gpus[static_cast<std::size_t>(i)]];
      for (const auto& [begin, end] : runs_of(set)) {
        const std::int64_t length = end - begin;
        for (auto cpu = begin + length * i / parts; cpu < begin + length * (i + 1) / parts; ++cpu) {
          share.push_back(static_cast<std::int32_t>(cpu));
        }
      }
      if (share.empty()) share = set;
    }
  }
  return shares;
}

}  // namespace

std::optional<GpuLink> link_of_word(std::string_view word) {
  if (word == "SOC") return GpuLink::Sys;  // older drivers' word for SYS
  // NV#: a bond of # NVLinks (up to 4 digits: no GPU has thousands).
  const auto digits = word.size() > 2 ? word.substr(2) : std::string_view();
  if ((word.starts_with("NV") && !digits.empty() && digits.size() <= 4 &&
       digits.find_first_not_of("0123456789") == std::string_view::npos) ||
      word == "XGMI") {
    return GpuLink::Gpu;
  }
  for (std::size_t k = 0; k < kLinkWords.size(); ++k) {
    if (word == kLinkWords[k]) return static_cast<GpuLink>(k);
  }
  return std::nullopt;
}

std::string_view word_of_link(GpuLink link) {
  return kLinkWords[static_cast<std::size_t>(link)];
}

std::string_view visible_devices_variable(GpuVendor vendor) {
  switch (vendor) {
    case GpuVendor::Amd:
      return "ROCR_VISIBLE_DEVICES";
    case GpuVendor::Intel:
      return "ZE_AFFINITY_MASK";
    case GpuVendor::Nvidia:
      break;
  }
  return "CUDA_VISIBLE_DEVICES";
}

void GpuNodeModel::check() {
  const auto n = gpus.size();
  if (n == 0) throw InputError(source, "names no GPU");
  if (links.size() != n * n || nic_links.size() != n * nics.size() || (!cpus.empty() && cpus.size() != n)) {
    throw InternalError("a GPU node's tables do not match its GPUs");
  }
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if ((a == b) != (link(a, b) == GpuLink::Self)) {
        throw InputError(source, fmt::format("{} and {}: 'X' (itself) belongs on the diagonal only", gpus[a], gpus[b]));
      }
      if (link(a, b) != link(b, a)) {
        throw InputError(source, fmt::format("{} -> {} is {} but {} -> {} is {}: links go both ways", gpus[a], gpus[b],
                                             word_of_link(link(a, b)), gpus[b], gpus[a], word_of_link(link(b, a))));
      }
    }
    if (widths.empty()) widths.assign(n * n, 0);
    if (widths.size() != n * n) throw InternalError("a GPU node's widths do not match its GPUs");
    for (std::size_t b = 0; b < n; ++b) {
      auto& width = widths[a * n + b];
      width = link(a, b) == GpuLink::Gpu ? std::max(width, 1) : 0;
    }
    for (std::size_t k = 0; k < nics.size(); ++k) {
      if (nic_links[a * nics.size() + k] <= GpuLink::Gpu) {
        throw InputError(source, fmt::format("{} and {}: a NIC is joined to a GPU by PCIe (PIX, PXB, PHB, NODE or "
                                             "SYS), not by '{}'",
                                             gpus[a], nics[k], word_of_link(nic_links[a * nics.size() + k])));
      }
    }
  }
}

GpuNodeTopology::GpuNodeTopology(GpuNodeModel model) : model_(std::move(model)) {
  model_.check();
  const auto n = model_.gpus.size();
  if (n > static_cast<std::size_t>(kMaxPEs)) throw InputError(model_.source, "more GPUs than tmap's PEs");
  exits_.assign(n, kExitWithoutNic);
  for (std::size_t g = 0; g < n && !model_.nics.empty(); ++g) {
    const auto* row = &model_.nic_links[g * model_.nics.size()];
    exits_[g] = link_distance(*std::min_element(row, row + model_.nics.size())) + 1;
  }
  if (!model_.cpus.empty()) shares_ = shares_of(model_.cpus);
  bool all_same = true;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      max_distance_ = std::max(max_distance_, link_distance(model_.link(a, b)));
      all_same = all_same && model_.link(a, b) == model_.link(0, 1);
    }
  }
  if (n == 1) {
    uniform_ = Distance{0};
  } else if (all_same) {
    uniform_ = link_distance(model_.link(0, 1));
  }
}

std::optional<DeviceSlot> GpuNodeTopology::device_slot(PE pe) const {
  DeviceSlot slot;
  slot.variable = std::string(visible_devices_variable(model_.vendor));
  slot.index = static_cast<std::int32_t>(pe);
  if (!shares_.empty()) slot.cpus = shares_[static_cast<std::size_t>(pe)];
  return slot;
}

std::string GpuNodeTopology::description() const {
  std::size_t linked = 0;
  const auto n = model_.gpus.size();
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) linked += model_.link(a, b) == GpuLink::Gpu ? 1 : 0;
  }
  return fmt::format("{} GPUs ({} of {} pairs on GPU links), {} NICs, from {}", n, linked, n * (n - 1) / 2,
                     model_.nics.size(), model_.source);
}

}  // namespace tmap::topo
