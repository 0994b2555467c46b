// Format names, detection by extension, and the writers of tm-gen.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "tmap/io.hpp"
#include "util/names.hpp"

namespace tmap {

namespace {

constexpr std::array<detail::Named<CommFormat>, 8> kFormats{{
    {CommFormat::Dense, "mat"},
    {CommFormat::Csv, "csv"},
    {CommFormat::Coo, "coo"},
    {CommFormat::MatrixMarket, "mtx"},
    {CommFormat::ScotchGraph, "grf"},
    {CommFormat::MetisGraph, "graph"},
    {CommFormat::OmpiMonitoring, "prof"},
    {CommFormat::Phases, "phases"},
}};

std::string format_list() {
  return detail::joined_names(kFormats);
}

/// A -> undirected edge loads: bytes exchanged in total by each pair.
CommMatrix edge_loads(const CommMatrix& comm) {
  return comm.symmetrized();
}

}  // namespace

CommFormat comm_format_from_name(std::string_view name) {
  if (const auto format = detail::find_by_name(kFormats, name)) return *format;
  throw InputError("unknown communication format '" + std::string(name) + "' (known: " + format_list() + ")");
}

std::vector<std::string> comm_format_names() {
  return detail::all_names(kFormats);
}

std::string_view comm_format_name(CommFormat format) {
  if (const auto name = detail::name_of(kFormats, format)) return *name;
  throw InternalError("unnamed communication format");
}

CommFormat comm_format_from_path(const std::string& path) {
  auto ext = std::filesystem::path(path).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  if (const auto format = detail::find_by_name(kFormats, ext)) return *format;
  throw InputError(path, "cannot tell the communication format from the extension '." + ext +
                             "' (known: " + format_list() + "; or name the format)");
}

namespace {

CommMatrix parse_any(std::string_view text, CommFormat format, const std::string& origin) {
  switch (format) {
    case CommFormat::Dense:
      return detail::parse_dense(text, origin, " \t\r\v\f");
    case CommFormat::Csv:
      return detail::parse_dense(text, origin, ", \t\r\v\f");
    case CommFormat::Coo:
      return detail::parse_coo(text, origin);
    case CommFormat::MatrixMarket:
      return detail::parse_matrix_market(text, origin);
    case CommFormat::ScotchGraph:
      return detail::parse_scotch_graph(text, origin);
    case CommFormat::MetisGraph:
      return detail::parse_metis_graph(text, origin);
    case CommFormat::Phases:
      return detail::parse_phases(text, origin);
    case CommFormat::OmpiMonitoring:
      throw InputError(origin,
                       "Open MPI monitoring output is read from its files: -c PREFIX, a rank file or the folder");
  }
  throw InternalError("unhandled communication format");
}

/// Strategies work on A + A^T: refuse, naming the file, a pair whose two
/// directions together exceed 2^63-1 bytes (each alone was checked).
void check_pair_totals(const CommMatrix& m, const std::string& origin) {
  for (Rank i = 0; i < m.num_ranks(); ++i) {
    const auto cols = m.targets(i);
    const auto vols = m.volumes(i);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const Rank j = cols[k];
      if (j <= i) continue;
      const auto back = m.targets(j);
      const auto at = std::lower_bound(back.begin(), back.end(), i);
      if (at == back.end() || *at != i) continue;
      Volume sum = 0;
      if (__builtin_add_overflow(vols[k], m.volumes(j)[static_cast<std::size_t>(at - back.begin())], &sum)) {
        throw InputError(origin, "ranks " + std::to_string(i) + " and " + std::to_string(j) +
                                     " exchange more than 2^63-1 bytes in total (both directions)");
      }
    }
  }
}

}  // namespace

CommMatrix parse_comm(std::string_view text, CommFormat format, const std::string& origin) {
  auto m = parse_any(text, format, origin);
  check_pair_totals(m, origin);
  return m;
}

CommMatrix read_comm(const std::string& path, std::optional<CommFormat> format, const MonitoringSelection& monitoring) {
  if (format == CommFormat::OmpiMonitoring || (!format && is_ompi_monitoring(path))) {
    auto m = read_ompi_monitoring(path, monitoring);
    check_pair_totals(m, path);
    return m;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a file");
  const auto chosen = format ? *format : comm_format_from_path(path);
  return parse_comm(read_file(path), chosen, path);
}

std::string format_comm(const CommMatrix& comm, CommFormat format) {
  if (format == CommFormat::OmpiMonitoring) throw InputError("Open MPI monitoring output cannot be written, only read");
  if (format == CommFormat::Phases) return detail::format_phases(comm);
  const Rank n = comm.num_ranks();
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  switch (format) {
    case CommFormat::Dense:
    case CommFormat::Csv: {
      const char* sep = format == CommFormat::Csv ? "," : " ";
      for (Rank i = 0; i < n; ++i) {
        const auto cols = comm.targets(i);
        const auto vols = comm.volumes(i);
        std::size_t k = 0;
        for (Rank j = 0; j < n; ++j) {
          const Volume v = (k < cols.size() && cols[k] == j) ? vols[k++] : 0;
          fmt::format_to(it, "{}{}", j == 0 ? "" : sep, v);
        }
        fmt::format_to(it, "\n");
      }
      break;
    }
    case CommFormat::Coo:
      fmt::format_to(it, "{}\n", n);
      for (Rank i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < comm.targets(i).size(); ++k) {
          fmt::format_to(it, "{} {} {}\n", i, comm.targets(i)[k], comm.volumes(i)[k]);
        }
      }
      break;
    case CommFormat::MatrixMarket:
      fmt::format_to(it, "%%MatrixMarket matrix coordinate integer general\n{} {} {}\n", n, n, comm.num_entries());
      for (Rank i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < comm.targets(i).size(); ++k) {
          fmt::format_to(it, "{} {} {}\n", i + 1, comm.targets(i)[k] + 1, comm.volumes(i)[k]);
        }
      }
      break;
    case CommFormat::ScotchGraph: {
      // Vertex loads only where the ranks carry weights (gmap reads them).
      const auto g = edge_loads(comm);
      const bool weighted = !comm.rank_weights().empty();
      fmt::format_to(it, "0\n{} {}\n0 {}\n", n, g.num_entries(), weighted ? "011" : "010");
      for (Rank i = 0; i < n; ++i) {
        if (weighted) fmt::format_to(it, "{} ", comm.rank_weight(i));
        fmt::format_to(it, "{}", g.targets(i).size());
        for (std::size_t k = 0; k < g.targets(i).size(); ++k) {
          fmt::format_to(it, " {} {}", g.volumes(i)[k], g.targets(i)[k]);
        }
        fmt::format_to(it, "\n");
      }
      break;
    }
    case CommFormat::MetisGraph: {
      const auto g = edge_loads(comm);
      const bool weighted = !comm.rank_weights().empty();
      fmt::format_to(it, "{} {} {}\n", n, g.num_entries() / 2, weighted ? "011" : "001");
      for (Rank i = 0; i < n; ++i) {
        if (weighted) fmt::format_to(it, "{}{}", comm.rank_weight(i), g.targets(i).empty() ? "" : " ");
        for (std::size_t k = 0; k < g.targets(i).size(); ++k) {
          fmt::format_to(it, "{}{} {}", k == 0 ? "" : " ", g.targets(i)[k] + 1, g.volumes(i)[k]);
        }
        fmt::format_to(it, "\n");
      }
      break;
    }
    case CommFormat::Phases:
    case CommFormat::OmpiMonitoring:
      break;  // written or refused above
  }
  return fmt::to_string(out);
}

}  // namespace tmap
