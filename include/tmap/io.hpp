// Reading and writing what tmap exchanges with users: communication matrices,
// mappings and constraint files (contract sections 3-5).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/export.h"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"

TMAP_API_BEGIN

namespace tmap {

/// Communication-matrix file formats.
enum class CommFormat {
  Dense,         ///< .mat: n rows of n numbers (TopoMatch/TreeMatch)
  Csv,           ///< .csv: dense, comma separated
  Coo,           ///< .coo: "i j bytes" triplets, 0-based, optional first line "n"
  MatrixMarket,  ///< .mtx: MatrixMarket coordinate or array
  ScotchGraph,   ///< .grf: Scotch source graph (undirected, edge load = bytes)
  MetisGraph,    ///< .graph: METIS graph (undirected, edge weight = bytes)
};

/// "mat", "csv", "coo", "mtx", "grf", "graph" (InputError otherwise).
[[nodiscard]] CommFormat comm_format_from_name(std::string_view name);
[[nodiscard]] std::string_view comm_format_name(CommFormat format);
/// From the file extension; InputError when it is not one of the above.
[[nodiscard]] CommFormat comm_format_from_path(const std::string& path);

/// Reads a communication matrix. Graph formats store each undirected edge
/// once (A[min][max] = load) so that hop-bytes count it once (contract 3).
[[nodiscard]] CommMatrix read_comm(const std::string& path, std::optional<CommFormat> format = std::nullopt);
/// Same from text already in memory; `origin` names it in messages.
[[nodiscard]] CommMatrix parse_comm(std::string_view text, CommFormat format, const std::string& origin);
/// Writes a matrix in a format (graph formats need a symmetric matrix).
[[nodiscard]] std::string format_comm(const CommMatrix& comm, CommFormat format);

/// Mapping output formats. The launcher formats need host names:
/// Rankfile = Open MPI "rank R=HOST slot=CORE", Hostfile = one host per line
/// in rank order (SLURM_HOSTFILE with --distribution=arbitrary),
/// Machinefile = MPICH/Hydra "host:count" runs in rank order (Hydra starts
/// one proxy per line, so a host whose ranks are not consecutive gets
/// several); Hydra = a Hydra -configfile, "-n COUNT -host HOST PROGRAM"
/// per run in rank order, which Hydra serves with one proxy per host.
enum class MappingFormat { Perm, Json, TopoMatch, Scotch, Rankfile, Hostfile, Machinefile, Hydra };
[[nodiscard]] MappingFormat mapping_format_from_name(std::string_view name);
[[nodiscard]] std::string_view mapping_format_name(MappingFormat format);

/// What goes along with a mapping in the richer formats.
struct MappingReport {
  std::string strategy;
  std::string topology;
  std::int64_t num_pes = 0;
  Metrics metrics;
  /// Link metrics when the topology has a routing model.
  std::optional<RouteMetrics> routes;
  /// The refinement after the strategy, when one ran (--refine).
  std::optional<RefineStats> refine;
  double time_s = 0.0;
  std::uint64_t seed = 0;
  /// For the launcher formats: a PE's host name and its slot on that host.
  std::function<std::string(PE)> host_of;
  std::function<std::int64_t(PE)> slot_of;
  /// For the Hydra format: the program and its arguments, as one line.
  std::string program;
  /// For the Scotch format: the terminal a PE belongs to (unset: the PE).
  std::function<std::int64_t(PE)> scotch_terminal_of;
};

/// Renders a mapping; every format ends with a newline.
[[nodiscard]] std::string format_mapping(MappingFormat format, std::span<const PE> mapping,
                                         const MappingReport& report);
/// The JSON object of one result (keys of contract section 4).
[[nodiscard]] std::string mapping_json(std::span<const PE> mapping, const MappingReport& report);

/// Reads a mapping written as perm, json, TopoMatch or Scotch .map (detected
/// from the content).
[[nodiscard]] Mapping read_mapping(const std::string& path);
/// The same for a topology: a Scotch .map on a target whose Scotch
/// terminals are nodes (deco, cmpltw, Tianhe-3) names nodes by label, and
/// each node's ranks get its PEs in rank order.
[[nodiscard]] Mapping read_mapping(const std::string& path, const Topology& topology);
/// `was_scotch`, when given, tells whether the text was a Scotch .map.
[[nodiscard]] Mapping parse_mapping(std::string_view text, const std::string& origin, bool* was_scotch = nullptr);

/// Reads a TopoMatch-style constraint file: PE ids separated by white space
/// (or commas), `#` starts a comment. Every id must lie in [0, num_pes) and
/// appear once; InputError names the line otherwise.
[[nodiscard]] std::vector<PE> read_pe_list(const std::string& path, PE num_pes);
[[nodiscard]] std::vector<PE> parse_pe_list(std::string_view text, const std::string& origin, PE num_pes);

/// Parses node id ranges as `--alloc` takes them ("0-95,192-287", "7").
/// InputError naming the bad item otherwise. Range checks against the
/// topology happen in Constraints::on_nodes.
[[nodiscard]] std::vector<NodeId> parse_node_ranges(std::string_view list, const std::string& origin = "--alloc");

/// Reads a whole file (a leading UTF-8 byte-order mark dropped); InputError
/// naming it when it cannot be read, or when it is a stream (pipe, device)
/// longer than 256 MiB.
[[nodiscard]] std::string read_file(const std::string& path);
/// Writes a file whole or not at all: a regular file through a temporary
/// file in its folder and rename (mode kept; a symlink's target is written,
/// the link stays); FIFOs and devices in place. InputError naming the path
/// when it cannot be written, including every write, sync and close error.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace tmap

TMAP_API_END
