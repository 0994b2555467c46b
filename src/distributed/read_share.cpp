#include "distributed/read_share.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <tuple>
#include <vector>

#include "tmap/error.hpp"

namespace tmap::dist {

void agree_on_errors(MPI_Comm comm, const std::string& mine) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int failing = mine.empty() ? std::numeric_limits<int>::max() : rank;
  int first = 0;
  MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == std::numeric_limits<int>::max()) return;
  int length = rank == first ? static_cast<int>(mine.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::string message = rank == first ? mine : std::string(static_cast<std::size_t>(length), ' ');
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw InputError(message);
}

namespace {

bool whole(const std::string& token, long long& value) {
  if (token.empty()) return false;
  std::size_t used = 0;
  try {
    value = std::stoll(token, &used);
  } catch (...) {
    return false;
  }
  return used == token.size();
}

}  // namespace

LocalGraph read_share(MPI_Comm comm, const std::string& path) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::string error;
  std::error_code ec;
  const auto bytes = static_cast<long long>(std::filesystem::file_size(path, ec));
  if (ec) error = path + ": cannot read (" + ec.message() + ")";
  agree_on_errors(comm, error);

  // Lines whose first byte lies in [lo, hi) are this process's.
  const long long lo = bytes * rank / size;
  const long long hi = bytes * (rank + 1) / size;
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  long long at = 0;
  if (lo > 0) {
    in.seekg(lo - 1);
    std::string skipped;
    std::getline(in, skipped);  // the end of a line that started before lo
    at = lo - 1 + static_cast<long long>(skipped.size()) + 1;
  }
  for (std::string line; at < hi && std::getline(in, line);) {
    at += static_cast<long long>(line.size()) + 1;
    lines.push_back(std::move(line));
  }
  auto mine = static_cast<long long>(lines.size());
  long long before = 0;
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (rank == 0) before = 0;

  // Parse: an optional first line "n", then "i j bytes".
  std::vector<CommEntry> entries;
  long long declared = -1;
  long long largest = -1;
  for (std::size_t k = 0; k < lines.size() && error.empty(); ++k) {
    const auto line_number = before + static_cast<long long>(k) + 1;
    std::istringstream fields(lines[k]);
    std::vector<std::string> tokens;
    for (std::string t; fields >> t;) tokens.push_back(t);
    // A UTF-8 byte-order mark (some editors write one) opens the file, as
    // tm-map's reader reads it.
    if (line_number == 1 && !tokens.empty() && tokens[0].starts_with("\xEF\xBB\xBF")) {
      tokens[0].erase(0, 3);
      if (tokens[0].empty()) tokens.erase(tokens.begin());
    }
    if (tokens.empty() || tokens[0][0] == '#' || tokens[0][0] == '%') continue;
    const auto where = path + ":" + std::to_string(line_number) + ": ";
    long long i = 0;
    long long j = 0;
    long long v = 0;
    if (line_number == 1 && tokens.size() == 1) {
      if (!whole(tokens[0], declared) || declared < 1) error = where + "the rank count must be a positive integer";
      continue;
    }
    if (tokens.size() != 3 || !whole(tokens[0], i) || !whole(tokens[1], j) || !whole(tokens[2], v)) {
      error = where + "expected 'i j bytes' (three integers)";
    } else if (i < 0 || j < 0 || i >= (1LL << 30) || j >= (1LL << 30)) {
      error = where + "rank ids must be between 0 and 2^30 - 1";
    } else if (v < 0) {
      error = where + "bytes must not be negative";
    } else {
      largest = std::max({largest, i, j});
      if (i != j && v > 0) entries.push_back({i, j, v});
    }
  }
  agree_on_errors(comm, error);
  long long n_declared = 0;
  long long n_seen = 0;
  MPI_Allreduce(&declared, &n_declared, 1, MPI_LONG_LONG, MPI_MAX, comm);
  MPI_Allreduce(&largest, &n_seen, 1, MPI_LONG_LONG, MPI_MAX, comm);
  if (n_declared > 0 && n_seen >= n_declared) {
    error = path + ": rank " + std::to_string(n_seen) + " is beyond the " + std::to_string(n_declared) +
            " ranks the first line declares";
  }
  const Rank n = n_declared > 0 ? n_declared : n_seen + 1;
  if (n < 1 && error.empty()) error = path + ": no traffic and no rank count";
  agree_on_errors(comm, rank == 0 ? error : std::string{});

  return local_graph_from_entries(comm, n, entries);
}

}  // namespace tmap::dist
