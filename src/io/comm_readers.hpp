// The individual communication-matrix readers behind read_comm().
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "tmap/comm_matrix.hpp"
#include "util/text.hpp"

namespace tmap::detail {

CommMatrix parse_dense(std::string_view text, const std::string& origin, std::string_view separators);
CommMatrix parse_coo(std::string_view text, const std::string& origin);
CommMatrix parse_phases(std::string_view text, const std::string& origin);
/// A matrix as a .phases file: its phases, or one phase when it has none.
std::string format_phases(const CommMatrix& comm);

/// Blank, or a '#' or '%' comment (the triplet formats).
bool is_comment_or_blank(std::string_view line);
/// A line of a triplet file (.coo, .phases): its first tokens (up to 4: a
/// fourth says there are too many) and its number.
struct TripletLine {
  std::array<std::string_view, 4> tokens;
  std::size_t count = 0;
  std::int64_t at = 0;
};

/// Reads a triplet file's lines: blanks and comments skipped, a first line
/// of one number (not `keyword`) taken as the rank count.
class TripletReader {
 public:
  TripletReader(std::string_view text, std::string origin, std::string_view keyword)
      : lines_(text), origin_(std::move(origin)), keyword_(keyword) {}
  /// The next line that is neither the rank count, a blank nor a comment.
  bool next(TripletLine& out);
  /// The line as "i j bytes" (InputError naming it otherwise).
  CommEntry entry(const TripletLine& line);
  /// The rank count given, else the largest rank read + 1; InputError
  /// "no entries found (`none`)" when there is neither.
  [[nodiscard]] Rank ranks(std::string_view none) const;

 private:
  LineReader lines_;
  std::string origin_;
  std::string_view keyword_;
  std::int64_t ranks_ = -1;
  std::int64_t largest_ = -1;
  bool first_ = true;
};

/// One "i j bytes" line of a triplet file (`n` < 0: the rank count is not
/// known yet); InputError naming the line otherwise.
CommEntry parse_coo_entry(std::span<const std::string_view> tokens, std::int64_t n, const std::string& origin,
                          std::int64_t at);
CommMatrix parse_matrix_market(std::string_view text, const std::string& origin);
CommMatrix parse_scotch_graph(std::string_view text, const std::string& origin);
CommMatrix parse_metis_graph(std::string_view text, const std::string& origin);

/// Undirected edges (both arcs listed in the file) to a matrix that stores
/// each edge once, A[min][max] = load. `line_of_vertex` names the vertex line
/// when an arc has no matching reverse arc.
struct Arc {
  Rank from;
  Rank to;
  Volume load;
};
CommMatrix graph_to_matrix(Rank n, std::vector<Arc> arcs, const std::vector<std::int64_t>& line_of_vertex,
                           const std::string& origin, std::int64_t base);

}  // namespace tmap::detail
