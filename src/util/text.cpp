#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "tmap/error.hpp"

namespace tmap::detail {

bool LineReader::next(std::string_view& line) {
  if (done_) return false;
  if (rest_.empty()) {
    done_ = true;
    return false;
  }
  const auto end = rest_.find('\n');
  if (end == std::string_view::npos) {
    line = rest_;
    rest_ = {};
    done_ = true;
  } else {
    line = rest_.substr(0, end);
    rest_.remove_prefix(end + 1);
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_;
  return true;
}

namespace {

/// kBlanks as a table over the 256 byte values.
constexpr std::array<bool, 256> kBlankTable = [] {
  std::array<bool, 256> table{};
  for (const char c : kBlanks) table[static_cast<unsigned char>(c)] = true;
  return table;
}();

bool blank(char c) noexcept {
  return kBlankTable[static_cast<unsigned char>(c)];
}

}  // namespace

std::size_t first_not_blank(std::string_view text) noexcept {
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (!blank(text[k])) return k;
  }
  return std::string_view::npos;
}

namespace {

/// next_token splitting on kBlanks (the readers' common case), by the table.
bool next_blank_separated(std::string_view& rest, std::string_view& token) noexcept {
  const auto begin = first_not_blank(rest);
  if (begin == std::string_view::npos) {
    rest = {};
    return false;
  }
  std::size_t end = begin + 1;
  while (end < rest.size() && !blank(rest[end])) ++end;
  token = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return true;
}

}  // namespace

bool next_token(std::string_view& rest, std::string_view& token, std::string_view separators) {
  if (separators == kBlanks) return next_blank_separated(rest, token);
  const auto begin = rest.find_first_not_of(separators);
  if (begin == std::string_view::npos) {
    rest = {};
    return false;
  }
  rest.remove_prefix(begin);
  const auto end = rest.find_first_of(separators);
  token = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  return true;
}

std::string_view strip_comment(std::string_view line, char comment) {
  const auto pos = line.find(comment);
  return pos == std::string_view::npos ? line : line.substr(0, pos);
}

bool is_blank(std::string_view line) {
  return first_not_blank(line) == std::string_view::npos;
}

void TokenStream::skip_blanks() {
  while (!rest_.empty()) {
    const char c = rest_.front();
    if (c == '\n') {
      ++line_;
    } else if (!blank(c)) {
      return;
    }
    rest_.remove_prefix(1);
  }
}

bool TokenStream::next(std::string_view& token) {
  skip_blanks();
  if (rest_.empty()) return false;
  std::size_t end = 0;
  while (end < rest_.size() && rest_[end] != '\n' && !blank(rest_[end])) {
    ++end;
  }
  token = rest_.substr(0, end);
  token_line_ = line_;
  rest_.remove_prefix(end);
  return true;
}

std::string_view TokenStream::expect(std::string_view what) {
  std::string_view token;
  if (!next(token)) {
    token_line_ = line_;
    fail("unexpected end of input, expected " + std::string(what));
  }
  return token;
}

std::int64_t TokenStream::expect_int(std::string_view what, std::int64_t lo, std::int64_t hi) {
  const auto token = expect(what);
  return parse_int_in(token, lo, hi, what, origin_, token_line_);
}

bool TokenStream::at_end() {
  skip_blanks();
  return rest_.empty();
}

void TokenStream::fail(const std::string& problem) const {
  throw InputError(origin_, token_line_, problem);
}

bool parse_int(std::string_view token, std::int64_t& value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto* end = token.data() + token.size();
  const auto result = std::from_chars(token.data(), end, value);
  return result.ec == std::errc() && result.ptr == end && !token.empty();
}

namespace {

std::string_view without_blanks(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::string whole_number_problem(std::string_view text, std::int64_t lo, std::int64_t hi, std::int64_t* value) {
  std::int64_t parsed = 0;
  if (!parse_int(without_blanks(text), parsed) || parsed < lo || parsed > hi) {
    return fmt::format("'{}' is not a whole number between {} and {}", text, lo, hi);
  }
  if (value != nullptr) *value = parsed;
  return {};
}

std::string real_number_problem(std::string_view text, double lo, double hi, double* value) {
  const std::string token(without_blanks(text));
  char* end = nullptr;
  const double parsed = token.empty() ? 0.0 : std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size() || !std::isfinite(parsed) || parsed < lo || parsed > hi) {
    return fmt::format("'{}' is not a finite number between {} and {}", text, lo, hi);
  }
  if (value != nullptr) *value = parsed;
  return {};
}

std::string quote(std::string_view token) {
  constexpr std::size_t kMax = 40;
  if (token.size() > kMax) return "'" + std::string(token.substr(0, kMax)) + "...'";
  return "'" + std::string(token) + "'";
}

std::string closest_name(std::string_view word, const std::vector<std::string_view>& names) {
  constexpr std::size_t kMostEdits = 2;
  if (word.size() > 64) return {};
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::string best;
  std::size_t best_edits = kMostEdits + 1;
  bool tied = false;
  std::vector<std::size_t> row;
  std::vector<std::size_t> previous;
  for (const auto name : names) {
    // Levenshtein distance, one row at a time.
    previous.resize(name.size() + 1);
    for (std::size_t j = 0; j <= name.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= word.size(); ++i) {
      row.assign(name.size() + 1, 0);
      row[0] = i;
      for (std::size_t j = 1; j <= name.size(); ++j) {
        const std::size_t change = lower(word[i - 1]) == lower(name[j - 1]) ? 0 : 1;
        row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + change});
      }
      previous.swap(row);
    }
    const auto edits = previous[name.size()];
    if (edits < best_edits) {
      best_edits = edits;
      best = std::string(name);
      tied = false;
    } else if (edits == best_edits) {
      tied = true;
    }
  }
  return best_edits <= kMostEdits && !tied ? best : std::string();
}

std::int64_t parse_int_in(std::string_view token, std::int64_t lo, std::int64_t hi, std::string_view what,
                          const std::string& origin, std::int64_t line) {
  std::int64_t value = 0;
  if (!parse_int(token, value)) {
    throw InputError(origin, line, std::string(what) + ": expected an integer, found " + quote(token));
  }
  if (value < lo || value > hi) {
    std::string range = hi == std::numeric_limits<std::int64_t>::max()
                            ? "at least " + std::to_string(lo)
                            : "between " + std::to_string(lo) + " and " + std::to_string(hi);
    throw InputError(origin, line, std::string(what) + " must be " + range + ", found " + std::string(token));
  }
  return value;
}

std::pair<std::int64_t, std::int64_t> parse_range(std::string_view item, std::int64_t lo, std::int64_t hi,
                                                  std::string_view what, const std::string& origin, std::int64_t line) {
  const auto dash = item.find('-', 1);
  const auto first = parse_int_in(item.substr(0, dash), lo, hi, what, origin, line);
  if (dash == std::string_view::npos) return {first, first};
  const auto last = parse_int_in(item.substr(dash + 1), lo, hi, what, origin, line);
  if (last < first) {
    throw InputError(origin, line,
                     std::string(what) + " range " + quote(item) + " runs backwards: ranges are first-last");
  }
  return {first, last};
}

Volume parse_volume(std::string_view token, const std::string& origin, std::int64_t line) {
  std::int64_t integer = 0;
  if (parse_int(token, integer)) {
    if (integer < 0) throw InputError(origin, line, "negative volume " + std::string(token));
    return integer;
  }
  // Not a plain integer: accept decimal and scientific notation of whole numbers.
  std::string_view digits = token;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  double value = 0.0;
  const auto* end = digits.data() + digits.size();
  const auto result = std::from_chars(digits.data(), end, value);
  if (result.ec == std::errc::result_out_of_range) {
    throw InputError(origin, line, "volume " + quote(token) + " is out of range");
  }
  if (result.ec != std::errc() || result.ptr != end || digits.empty()) {
    throw InputError(origin, line, "volume " + quote(token) + " is not a number");
  }
  if (std::isnan(value)) throw InputError(origin, line, "volume " + quote(token) + " is NaN");
  if (std::isinf(value)) throw InputError(origin, line, "volume " + quote(token) + " is infinite");
  if (value < 0.0 || std::signbit(value)) {
    if (value == 0.0) return 0;  // "-0" is harmless
    throw InputError(origin, line, "negative volume " + std::string(token));
  }
  if (value >= 9.2233720368547758e18) {
    throw InputError(origin, line, "volume " + quote(token) + " exceeds 2^63-1 bytes");
  }
  if (std::floor(value) != value) {
    throw InputError(origin, line, "volume " + quote(token) + " is not a whole number of bytes");
  }
  return static_cast<Volume>(value);
}

std::string runs_text(const std::vector<std::int64_t>& values, std::size_t shortest_range) {
  std::string text;
  for (std::size_t k = 0; k < values.size();) {
    std::size_t end = k + 1;
    while (end < values.size() && values[end] == values[end - 1] + 1) ++end;
    if (!text.empty()) text += ',';
    if (end - k >= std::max<std::size_t>(shortest_range, 2)) {
      text += std::to_string(values[k]) + "-" + std::to_string(values[end - 1]);
    } else {
      for (std::size_t i = k; i < end; ++i) text += (i > k ? "," : "") + std::to_string(values[i]);
    }
    k = end;
  }
  return text;
}

}  // namespace tmap::detail
