// Sparse text matrices: triplets (.coo) and MatrixMarket (.mtx).
#include <algorithm>
#include <limits>

#include "io/comm_readers.hpp"
#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::detail {

bool is_comment_or_blank(std::string_view line) {
  const auto first = first_not_blank(line);
  return first == std::string_view::npos || line[first] == '#' || line[first] == '%';
}

bool TripletReader::next(TripletLine& out) {
  std::string_view line;
  while (lines_.next(line)) {
    if (is_comment_or_blank(line)) continue;
    out.count = 0;
    std::string_view token;
    while (out.count < out.tokens.size() && next_token(line, token)) out.tokens[out.count++] = token;
    out.at = lines_.line_number();
    const bool first = first_;
    first_ = false;
    if (first && out.count == 1 && out.tokens[0] != keyword_) {
      ranks_ = parse_int_in(out.tokens[0], 0, kMaxRanks, "number of ranks", origin_, out.at);
      continue;
    }
    return true;
  }
  return false;
}

CommEntry TripletReader::entry(const TripletLine& line) {
  const auto e = parse_coo_entry({line.tokens.data(), line.count}, ranks_, origin_, line.at);
  largest_ = std::max({largest_, e.from, e.to});
  return e;
}

Rank TripletReader::ranks(std::string_view none) const {
  if (ranks_ < 0 && largest_ < 0) throw InputError(origin_, "no entries found (" + std::string(none) + ")");
  return ranks_ >= 0 ? ranks_ : largest_ + 1;
}

CommEntry parse_coo_entry(std::span<const std::string_view> tokens, std::int64_t n, const std::string& origin,
                          std::int64_t at) {
  if (tokens.size() != 3) {
    throw InputError(origin, at,
                     "expected 'i j bytes', found " + std::to_string(tokens.size() > 3 ? 4 : tokens.size()) +
                         (tokens.size() > 3 ? " or more values" : " value(s)"));
  }
  const auto hi = n < 0 ? kMaxRanks - 1 : n - 1;
  for (int k = 0; k < 2; ++k) {
    std::int64_t value = 0;
    if (n > 0 && parse_int(tokens[k], value) && value == n) {
      throw InputError(origin, at,
                       std::string(k == 0 ? "rank i" : "rank j") + " must be between 0 and " + std::to_string(hi) +
                           ", found " + std::to_string(n) +
                           ": ranks are numbered from 0 (is the file numbered "
                           "from 1? subtract 1 from every rank)");
    }
  }
  const auto i = parse_int_in(tokens[0], 0, hi, "rank i", origin, at);
  const auto j = parse_int_in(tokens[1], 0, hi, "rank j", origin, at);
  return {i, j, parse_volume(tokens[2], origin, at)};
}

CommMatrix parse_coo(std::string_view text, const std::string& origin) {
  TripletReader reader(text, origin, {});
  std::vector<CommEntry> entries;
  TripletLine line;
  while (reader.next(line)) entries.push_back(reader.entry(line));
  const auto n = reader.ranks("the file is empty");
  try {
    return CommMatrix::from_entries(n, std::move(entries));
  } catch (const InputError& e) {
    throw InputError(origin, e.problem());
  }
}

CommMatrix parse_matrix_market(std::string_view text, const std::string& origin) {
  LineReader lines(text);
  std::string_view line;
  if (!lines.next(line) || !line.starts_with("%%MatrixMarket")) {
    throw InputError(origin, 1, "expected a '%%MatrixMarket matrix ...' header");
  }
  std::string_view rest = line;
  std::string_view word[5];
  int words = 0;
  std::string_view token;
  while (words < 5 && next_token(rest, token)) word[words++] = token;
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  if (words != 5 || lower(word[1]) != "matrix") {
    throw InputError(origin, 1, "expected '%%MatrixMarket matrix <format> <field> <symmetry>'");
  }
  const auto format = lower(word[2]);
  const auto field = lower(word[3]);
  const auto symmetry = lower(word[4]);
  if (format != "coordinate" && format != "array") {
    throw InputError(origin, 1, "unsupported MatrixMarket format '" + format + "' (coordinate or array)");
  }
  if (field != "real" && field != "integer" && field != "pattern") {
    throw InputError(origin, 1, "unsupported MatrixMarket field '" + field + "' (real, integer or pattern)");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    throw InputError(origin, 1, "unsupported MatrixMarket symmetry '" + symmetry + "' (general or symmetric)");
  }
  if (format == "array" && field == "pattern") {
    throw InputError(origin, 1, "a MatrixMarket array cannot have the pattern field");
  }
  const bool symmetric = symmetry == "symmetric";

  // Size line.
  do {
    if (!lines.next(line)) throw InputError(origin, lines.line_number(), "missing the size line");
  } while (is_comment_or_blank(line));
  rest = line;
  std::vector<std::string_view> sizes;
  while (next_token(rest, token)) sizes.push_back(token);
  const auto at = lines.line_number();
  const std::size_t expected_sizes = format == "coordinate" ? 3 : 2;
  if (sizes.size() != expected_sizes) {
    throw InputError(origin, at,
                     "expected " + std::string(format == "coordinate" ? "'rows cols entries'" : "'rows cols'") +
                         " on the size line");
  }
  const auto rows = parse_int_in(sizes[0], 0, kMaxRanks, "rows", origin, at);
  const auto cols = parse_int_in(sizes[1], 0, kMaxRanks, "columns", origin, at);
  if (rows != cols) {
    throw InputError(origin, at, "the matrix is not square: " + std::to_string(rows) + " x " + std::to_string(cols));
  }
  const std::int64_t n = rows;
  const auto expected = format == "coordinate"
                            ? parse_int_in(sizes[2], 0, std::numeric_limits<std::int64_t>::max(), "entries", origin, at)
                            : (symmetric ? n * (n + 1) / 2 : n * n);
  if (expected > static_cast<std::int64_t>(text.size())) {
    throw InputError(origin, at,
                     "the size line announces " + std::to_string(expected) + " entries, more than the file can hold");
  }
  std::vector<CommEntry> entries;
  std::int64_t seen = 0;
  std::int64_t array_i = 0;
  std::int64_t array_j = 0;
  while (lines.next(line)) {
    if (is_comment_or_blank(line)) continue;
    const auto here = lines.line_number();
    if (seen == expected)
      throw InputError(origin, here, "more entries than the " + std::to_string(expected) + " announced");
    rest = line;
    std::vector<std::string_view> t;
    while (next_token(rest, token)) t.push_back(token);
    Rank i = 0;
    Rank j = 0;
    Volume v = 1;
    if (format == "coordinate") {
      const std::size_t want = field == "pattern" ? 2 : 3;
      if (t.size() != want) {
        throw InputError(origin, here,
                         "expected " + std::to_string(want) + " values, found " + std::to_string(t.size()));
      }
      i = parse_int_in(t[0], 1, n, "row index", origin, here) - 1;
      j = parse_int_in(t[1], 1, n, "column index", origin, here) - 1;
      if (field != "pattern") v = parse_volume(t[2], origin, here);
      if (symmetric && j > i) {
        throw InputError(origin, here, "a symmetric MatrixMarket file lists the lower triangle only (row >= column)");
      }
    } else {
      if (t.size() != 1)
        throw InputError(origin, here, "expected one value per line, found " + std::to_string(t.size()));
      v = parse_volume(t[0], origin, here);
      i = array_i;
      j = array_j;  // column-major; symmetric arrays hold the lower triangle
      if (++array_i == n) {
        ++array_j;
        array_i = symmetric ? array_j : 0;
      }
    }
    entries.push_back({i, j, v});
    if (symmetric && i != j) entries.push_back({j, i, v});
    ++seen;
  }
  if (seen != expected) {
    throw InputError(origin, "expected " + std::to_string(expected) + " entries, found " + std::to_string(seen));
  }
  try {
    return CommMatrix::from_entries(n, std::move(entries));
  } catch (const InputError& e) {
    throw InputError(origin, e.problem());
  }
}

}  // namespace tmap::detail
