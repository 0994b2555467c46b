// Reading what tmap exchanges with users: communication matrices, mappings
// and constraint files (contract sections 3 and 5). Writing a mapping with
// its report (section 4, launcher files) is in tmap/report.hpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/export.h"
#include "tmap/mapping.hpp"

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
  /// "prof": Open MPI's monitoring output, PREFIX.<rank>.prof (read only;
  /// read_comm takes the prefix, a rank file or the folder).
  OmpiMonitoring,
  /// .phases: the triplets of .coo in phases ("phase [REPEAT]" lines), the
  /// order the job runs them (the matrix is their sum).
  Phases,
};

/// "mat", "csv", "coo", "mtx", "grf", "graph", "prof", "phases" (InputError otherwise).
[[nodiscard]] CommFormat comm_format_from_name(std::string_view name);
[[nodiscard]] std::string_view comm_format_name(CommFormat format);
/// Every format's name, in the order above (--comm-format's choices).
[[nodiscard]] std::vector<std::string> comm_format_names();
/// From the file extension; InputError when it is not one of the above.
[[nodiscard]] CommFormat comm_format_from_path(const std::string& path);

/// Which lines of Open MPI's monitoring output count, and what they count.
struct MonitoringSelection {
  /// Line kinds: E (the application's point-to-point), I (the point-to-point
  /// messages collectives are made of), S and R (one-sided put and get), C
  /// (collective totals: the same traffic as I). Empty (the default): what
  /// crosses the network from two-sided traffic, E and I in Open MPI's
  /// output, E and C in a recording of libtmap-mpi's (TMAP_RECORD, whose
  /// files have no I lines).
  std::string kinds;
  /// Count messages instead of bytes.
  bool messages = false;
};

/// Reads the files PREFIX.<rank>.prof Open MPI writes with
/// `--mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3
/// --mca pml_monitoring_filename PREFIX`: A[i][j] = what rank i sent to j.
/// `given`: the prefix, one of the files, or a folder holding one run's
/// files. InputError naming the file (and line) for a missing or duplicated
/// rank file, files of mixed runs, or a malformed line.
[[nodiscard]] CommMatrix read_ompi_monitoring(const std::string& given, const MonitoringSelection& selection = {});
/// Whether `path` names Open MPI monitoring output (a prefix with rank files
/// beside it, one rank file, or a folder holding some).
[[nodiscard]] bool is_ompi_monitoring(const std::string& path);
/// The rank files read_ompi_monitoring would read, rank 0 first.
[[nodiscard]] std::vector<std::string> ompi_monitoring_files(const std::string& given);

/// Reads a communication matrix. Graph formats store each undirected edge
/// once (A[min][max] = load) so that hop-bytes count it once (contract 3).
/// Open MPI monitoring output is recognised without a format (the prefix,
/// a rank file or a folder; see read_ompi_monitoring).
[[nodiscard]] CommMatrix read_comm(const std::string& path, std::optional<CommFormat> format = std::nullopt,
                                   const MonitoringSelection& monitoring = {});
/// Same from text already in memory; `origin` names it in messages.
[[nodiscard]] CommMatrix parse_comm(std::string_view text, CommFormat format, const std::string& origin);
/// Writes a matrix in a format (graph formats need a symmetric matrix).
[[nodiscard]] std::string format_comm(const CommMatrix& comm, CommFormat format);

/// Reads a mapping written as perm, json, TopoMatch or Scotch .map (detected
/// from the content; a Cray rank order needs the machine: the overloads
/// below).
[[nodiscard]] Mapping read_mapping(const std::string& path);
/// The same for a topology: a Scotch .map on a target whose Scotch
/// terminals are nodes (deco, cmpltw, Tianhe-3) names nodes by label, and
/// each node's ranks get its PEs in rank order.
[[nodiscard]] Mapping read_mapping(const std::string& path, const Topology& topology);
/// The same within constraints: a node's ranks get its allowed PEs, each
/// constraints.capacity() times, PE after PE (the .map tm-map writes with -o K
/// reads back as it was written). InputError naming the file for a node
/// given more ranks than its slots, or none of whose PEs is allowed.
[[nodiscard]] Mapping read_mapping(const std::string& path, const Topology& topology, const Constraints& constraints);

/// Where Cray MPICH runs a rank order (MPICH_RANK_ORDER, --format
/// rank-order): the listed ranks fill the job's nodes in order, `per_node`
/// each (0: as many as a node has slots), on each node's allowed PEs in
/// increasing order (`capacity` each). InputError naming `origin` when the
/// nodes cannot hold them. A rank order file read with read_mapping is
/// placed so, with the ranks per node tmap's file states.
[[nodiscard]] Mapping rank_order_placement(std::span<const Rank> order, std::int64_t per_node, const Topology& topology,
                                           const Constraints& constraints, const std::string& origin);
/// `was_scotch`, when given, tells whether the text was a Scotch .map.
[[nodiscard]] Mapping parse_mapping(std::string_view text, const std::string& origin, bool* was_scotch = nullptr);

/// Reads a TopoMatch-style constraint file: PE ids separated by white space
/// (or commas), `#` starts a comment. Every id must lie in [0, num_pes) and
/// appear once; InputError names the line otherwise.
[[nodiscard]] std::vector<PE> read_pe_list(const std::string& path, PE num_pes);
[[nodiscard]] std::vector<PE> parse_pe_list(std::string_view text, const std::string& origin, PE num_pes);

/// Reads the ranks' weights (--weights): one non-negative integer per rank,
/// in rank order, separated by white space, `#` starts a comment. InputError
/// naming the file and line for a bad value, the count when it is not
/// `num_ranks`, or a sum past 2^63-1.
[[nodiscard]] std::vector<Volume> read_rank_weights(const std::string& path, Rank num_ranks);
[[nodiscard]] std::vector<Volume> parse_rank_weights(std::string_view text, const std::string& origin, Rank num_ranks);

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
