// Dense matrices: TopoMatch's .mat (white space) and .csv (commas).
#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::detail {

CommMatrix parse_dense(std::string_view text, const std::string& origin, std::string_view separators) {
  LineReader lines(text);
  std::string_view line;
  std::int64_t n = -1;
  std::int64_t row = 0;
  std::vector<std::int64_t> row_begin{0};
  std::vector<Rank> column;
  std::vector<Volume> volume;
  std::vector<std::string_view> tokens;
  while (lines.next(line)) {
    line = strip_comment(line, '#');
    if (is_blank(line)) continue;
    std::string_view token;
    if (n < 0) {  // the first row fixes n
      tokens.clear();
      std::string_view rest = line;
      while (next_token(rest, token, separators)) tokens.push_back(token);
      n = static_cast<std::int64_t>(tokens.size());
      row_begin.reserve(static_cast<std::size_t>(n) + 1);
    }
    if (row == n) {
      throw InputError(origin, lines.line_number(),
                       "extra row: the first row has " + std::to_string(n) + " values, so the matrix has " +
                           std::to_string(n) + " rows");
    }
    // Values are parsed as they are found: no per-row token list.
    std::int64_t j = 0;
    while (next_token(line, token, separators)) {
      if (j < n) {
        const Volume v = token == "0" ? 0 : parse_volume(token, origin, lines.line_number());
        if (v != 0 && j != row) {
          column.push_back(j);
          volume.push_back(v);
        }
      }
      ++j;
    }
    if (j != n) {
      throw InputError(origin, lines.line_number(),
                       "expected " + std::to_string(n) + " values, found " + std::to_string(j));
    }
    row_begin.push_back(static_cast<std::int64_t>(column.size()));
    ++row;
  }
  if (n < 0) throw InputError(origin, "no matrix found (the file is empty)");
  if (row != n) {
    throw InputError(
        origin, "the matrix is not square: " + std::to_string(n) + " columns but " + std::to_string(row) + " rows");
  }
  return CommMatrix::from_csr(n, std::move(row_begin), std::move(column), std::move(volume));
}

}  // namespace tmap::detail
