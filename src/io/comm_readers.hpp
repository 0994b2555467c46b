// The individual communication-matrix readers behind read_comm().
#pragma once

#include <string>
#include <string_view>

#include "tmap/comm_matrix.hpp"

namespace tmap::detail {

CommMatrix parse_dense(std::string_view text, const std::string& origin, std::string_view separators);
CommMatrix parse_coo(std::string_view text, const std::string& origin);
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
