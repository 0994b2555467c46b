// A GPU node from the text its vendor's tool prints, saved to a file:
// `nvidia-smi topo -m` (a matrix of link words between GPUs and NICs, each
// GPU's "CPU Affinity") or `rocm-smi --showtopo` (its "Link Type between
// two GPUs" matrix and "Numa Nodes"). Legends and other sections are
// skipped; what the matrix holds is checked.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "topology/gpu/gpu_node.hpp"
#include "util/text.hpp"

namespace tmap::topo {

namespace {

/// A line's words, split at blanks.
std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  std::string_view token;
  while (detail::next_token(line, token)) words.push_back(token);
  return words;
}

/// "GPU12" and the like: a name and a number.
bool is_numbered(std::string_view word, std::string_view prefix) {
  return word.size() > prefix.size() && word.starts_with(prefix) &&
         std::all_of(word.begin() + static_cast<std::ptrdiff_t>(prefix.size()), word.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

constexpr std::string_view kNvidiaWords = "X, NV#, PIX, PXB, PHB, NODE, SYS";
constexpr std::int64_t kMostCpu = std::int64_t{1} << 20;

/// "0-19,40-59" -> its CPUs; "N/A" -> none.
std::vector<std::int32_t> cpu_list(std::string_view text, const std::string& origin, std::int64_t line) {
  std::vector<std::int32_t> cpus;
  if (text == "N/A") return cpus;
  std::string_view item;
  while (detail::next_token(text, item, ",")) {
    const auto [first, last] = detail::parse_range(item, 0, kMostCpu, "a CPU number", origin, line);
    if (static_cast<std::int64_t>(cpus.size()) + last - first >= kMostCpu) {
      throw InputError(origin, line, "the CPU affinity lists more than 2^20 CPUs");
    }
    for (auto cpu = first; cpu <= last; ++cpu) cpus.push_back(static_cast<std::int32_t>(cpu));
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

/// nvidia-smi's header: device names, then the columns after them ("CPU
/// Affinity", "NUMA Affinity", "GPU NUMA ID").
struct Header {
  std::vector<std::string> devices;
  std::vector<std::string> trailing;
  std::int64_t line = 0;
};

bool is_header(const std::vector<std::string_view>& words) {
  return words.size() >= 2 && is_numbered(words[0], "GPU") && words[1] != "X";
}

Header header_of(const std::vector<std::string_view>& words, std::int64_t line, const std::string& origin) {
  Header header;
  header.line = line;
  std::size_t k = 0;
  for (; k < words.size() && words[k] != "CPU" && words[k] != "NUMA" && words[k] != "GPU"; ++k) {
    header.devices.emplace_back(words[k]);
  }
  for (; k < words.size(); ++k) {
    if (words[k] == "CPU" && k + 1 < words.size() && words[k + 1] == "Affinity") {
      header.trailing.emplace_back("CPU Affinity");
      ++k;
    } else if (words[k] == "NUMA" && k + 1 < words.size() && words[k + 1] == "Affinity") {
      header.trailing.emplace_back("NUMA Affinity");
      ++k;
    } else if (words[k] == "GPU" && k + 2 < words.size() && words[k + 1] == "NUMA" && words[k + 2] == "ID") {
      header.trailing.emplace_back("GPU NUMA ID");
      k += 2;
    } else {
      throw InputError(origin, line,
                       fmt::format("the header's '{}' is no column nvidia-smi topo -m writes (after the devices: CPU "
                                   "Affinity, NUMA Affinity, GPU NUMA ID)",
                                   words[k]));
    }
  }
  return header;
}

GpuNodeModel read_nvidia(std::string_view text, const std::string& origin) {
  detail::LineReader lines(text);
  std::string_view line;
  Header header;
  std::map<std::string, std::pair<std::vector<std::string_view>, std::int64_t>, std::less<>> rows;
  std::map<std::string, std::string, std::less<>> nic_legend;  // "NIC0" -> "mlx5_0"
  while (lines.next(line)) {
    const auto words = words_of(line);
    if (words.empty()) continue;
    if (header.devices.empty()) {
      if (is_header(words)) header = header_of(words, lines.line_number(), origin);
      continue;
    }
    if (words.size() == 2 && is_numbered(words[0].substr(0, words[0].size() - 1), "NIC") && words[0].ends_with(':')) {
      nic_legend.emplace(words[0].substr(0, words[0].size() - 1), words[1]);  // "NIC0: mlx5_0"
      continue;
    }
    const auto it = std::find(header.devices.begin(), header.devices.end(), words[0]);
    if (it == header.devices.end() || rows.contains(words[0])) continue;  // the legend, a second table
    rows.emplace(words[0],
                 std::make_pair(std::vector<std::string_view>(words.begin() + 1, words.end()), lines.line_number()));
  }
  if (header.devices.empty()) throw InputError(origin, "no header line 'GPU0 GPU1 ...' of nvidia-smi topo -m");
  GpuNodeModel node;
  node.source = "nvidia-smi topo -m of " + origin;
  std::vector<std::size_t> gpu_columns;
  std::vector<std::size_t> nic_columns;
  for (std::size_t c = 0; c < header.devices.size(); ++c) {
    const auto& name = header.devices[c];
    if (is_numbered(name, "GPU")) {
      if (name != fmt::format("GPU{}", node.gpus.size())) {
        throw InputError(
            origin, header.line,
            fmt::format("column '{}' where GPU{} comes next (GPUs in index order)", name, node.gpus.size()));
      }
      node.gpus.push_back(name);
      gpu_columns.push_back(c);
    } else {
      const auto legend = nic_legend.find(name);
      node.nics.push_back(legend == nic_legend.end() ? name : legend->second);
      nic_columns.push_back(c);
    }
  }
  const auto n = node.gpus.size();
  node.links.assign(n * n, GpuLink::Self);
  node.nic_links.assign(n * node.nics.size(), GpuLink::Self);
  node.widths.assign(n * n, 0);
  node.cpus.assign(n, {});
  const auto cpu_column = std::find(header.trailing.begin(), header.trailing.end(), "CPU Affinity");
  for (std::size_t a = 0; a < n; ++a) {
    const auto row = rows.find(node.gpus[a]);
    if (row == rows.end()) {
      throw InputError(origin,
                       fmt::format("no row for {} (the header at line {} names it)", node.gpus[a], header.line));
    }
    // Named, not bound: lambdas below use them.
    const auto& cells = row->second.first;
    const auto line_number = row->second.second;
    if (cells.size() < header.devices.size() || cells.size() > header.devices.size() + header.trailing.size()) {
      throw InputError(origin, line_number,
                       fmt::format("{} has {} cells; the header names {} devices and {} more columns", node.gpus[a],
                                   cells.size(), header.devices.size(), header.trailing.size()));
    }
    const auto link_at = [&](std::size_t column) {
      const auto link = link_of_word(cells[column]);
      if (!link) {
        throw InputError(origin, line_number,
                         fmt::format("{}'s cell for {} is '{}': not a link nvidia-smi writes ({})", node.gpus[a],
                                     header.devices[column], cells[column], kNvidiaWords));
      }
      return *link;
    };
    for (std::size_t b = 0; b < n; ++b) {
      node.links[a * n + b] = link_at(gpu_columns[b]);
      // NV12: a bond of 12 NVLinks.
      std::int64_t width = 0;
      const auto cell = cells[gpu_columns[b]];
      if (cell.starts_with("NV") && detail::parse_int(cell.substr(2), width) && width >= 1 && width <= 1024) {
        node.widths[a * n + b] = static_cast<std::int32_t>(width);
      }
    }
    for (std::size_t k = 0; k < nic_columns.size(); ++k)
      node.nic_links[a * nic_columns.size() + k] = link_at(nic_columns[k]);
    if (cpu_column != header.trailing.end()) {
      const auto at = header.devices.size() + static_cast<std::size_t>(cpu_column - header.trailing.begin());
      if (at < cells.size()) node.cpus[a] = cpu_list(cells[at], origin, line_number);
    }
  }
  if (std::all_of(node.cpus.begin(), node.cpus.end(), [](const auto& c) { return c.empty(); })) node.cpus.clear();
  // Every pair on a bond of one width, more than 4 GPUs: NVSwitch (DGX-2,
  // DGX A100 and H100 boards); 4-GPU boards join each pair directly.
  const auto first = node.widths.size() > 1 ? node.widths[1] : 0;
  node.switched = n > 4 && first > 0 && std::all_of(node.links.begin(), node.links.end(), [](GpuLink l) {
                    return l == GpuLink::Gpu || l == GpuLink::Self;
                  });
  for (std::size_t a = 0; a < n && node.switched; ++a) {
    for (std::size_t b = 0; b < n; ++b) node.switched = node.switched && (a == b || node.widths[a * n + b] == first);
  }
  return node;
}

/// rocm-smi's sections: a "==== Title ====" line, then its lines.
GpuNodeModel read_amd(std::string_view text, const std::string& origin) {
  detail::LineReader lines(text);
  std::string_view line;
  std::string section;
  std::vector<std::string> columns;
  std::int64_t header_line = 0;
  std::map<std::size_t, std::pair<std::vector<std::string_view>, std::int64_t>> rows;
  std::map<std::size_t, std::string> numa;
  while (lines.next(line)) {
    const auto words = words_of(line);
    if (words.empty()) continue;
    if (words[0].starts_with("===")) {
      section.clear();
      for (const auto w : words) {
        if (!w.starts_with("===")) section += (section.empty() ? "" : " ") + std::string(w);
      }
      continue;
    }
    if (section == "Link Type between two GPUs") {
      if (columns.empty()) {
        if (std::all_of(words.begin(), words.end(), [](std::string_view w) { return is_numbered(w, "GPU"); })) {
          for (const auto w : words) columns.emplace_back(w);
          header_line = lines.line_number();
        }
        continue;
      }
      const auto it = std::find(columns.begin(), columns.end(), words[0]);
      if (it != columns.end()) {
        rows.emplace(
            static_cast<std::size_t>(it - columns.begin()),
            std::make_pair(std::vector<std::string_view>(words.begin() + 1, words.end()), lines.line_number()));
      }
    } else if (section == "Numa Nodes" && words.size() >= 2 && words[0].starts_with("GPU[") &&
               line.find("Numa Node:") != std::string_view::npos) {
      std::int64_t gpu = 0;
      if (detail::parse_int(words[0].substr(4, words[0].size() - 5), gpu) && gpu >= 0) {
        numa[static_cast<std::size_t>(gpu)] = std::string(words.back());
      }
    }
  }
  if (columns.empty()) throw InputError(origin, "no 'Link Type between two GPUs' table of rocm-smi --showtopo");
  GpuNodeModel node;
  node.vendor = GpuVendor::Amd;
  node.source = "rocm-smi --showtopo of " + origin;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] != fmt::format("GPU{}", c)) {
      throw InputError(origin, header_line, fmt::format("column '{}' where GPU{} comes next", columns[c], c));
    }
    node.gpus.push_back(columns[c]);
  }
  const auto n = node.gpus.size();
  node.links.assign(n * n, GpuLink::Self);
  for (std::size_t a = 0; a < n; ++a) {
    const auto row = rows.find(a);
    if (row == rows.end()) throw InputError(origin, fmt::format("no row for GPU{} in the link type table", a));
    const auto& [cells, line_number] = row->second;
    if (cells.size() != n) {
      throw InputError(origin, line_number, fmt::format("GPU{} has {} cells for {} GPUs", a, cells.size(), n));
    }
    for (std::size_t b = 0; b < n; ++b) {
      const auto cell = cells[b];
      GpuLink link = GpuLink::Self;
      if (cell == "XGMI") {
        link = GpuLink::Gpu;
      } else if (cell == "PCIE") {
        const bool same_numa = numa.contains(a) && numa.contains(b) && numa[a] == numa[b];
        link = same_numa ? GpuLink::Node : GpuLink::Sys;
      } else if (cell != "0") {
        throw InputError(
            origin, line_number,
            fmt::format("GPU{}'s cell for GPU{} is '{}': not a link type rocm-smi writes (0, XGMI, PCIE)", a, b, cell));
      }
      node.links[a * n + b] = link;
    }
  }
  return node;
}

bool is_rocm_text(std::string_view text) {
  return text.find("Link Type between two GPUs") != std::string_view::npos;
}

}  // namespace

bool is_gpu_topology_text(std::string_view text) {
  if (is_rocm_text(text)) return true;
  // nvidia-smi's header within the first lines, before anything else.
  detail::LineReader lines(text.substr(0, 1 << 16));
  std::string_view line;
  for (int k = 0; k < 8 && lines.next(line); ++k) {
    const auto words = words_of(line);
    if (words.empty()) continue;
    return is_header(words);
  }
  return false;
}

GpuNodeModel read_gpu_topology_text(std::string_view text, const std::string& origin) {
  auto node = is_rocm_text(text) ? read_amd(text, origin) : read_nvidia(text, origin);
  node.check();
  return node;
}

}  // namespace tmap::topo
