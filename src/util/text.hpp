// Small scanners for the text formats tmap reads. They keep line numbers so
// every error can name the file and line (contract section 5).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/types.hpp"

namespace tmap::detail {

inline constexpr std::string_view kBlanks = " \t\r\v\f";

/// Where the first character of `text` that is not one of kBlanks is, or
/// npos. (A table lookup a character: find_first_not_of(kBlanks) calls
/// memchr for each one, a tenth of reading a million-rank .coo.)
[[nodiscard]] std::size_t first_not_blank(std::string_view text) noexcept;

/// Walks text line by line (handles \n and \r\n, a last line without \n).
class LineReader {
 public:
  explicit LineReader(std::string_view text) : rest_(text) {}
  /// Next line without its terminator; false at the end.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  [[nodiscard]] std::int64_t line_number() const noexcept { return line_; }

 private:
  std::string_view rest_;
  std::int64_t line_ = 0;
  bool done_ = false;
};

/// Takes the next token off `rest`, splitting on any character of `separators`.
/// Returns false when only separators remain.
bool next_token(std::string_view& rest, std::string_view& token, std::string_view separators = kBlanks);

/// Drops everything from the first `comment` character on.
std::string_view strip_comment(std::string_view line, char comment);
/// Is the line empty once blanks are removed?
bool is_blank(std::string_view line);

/// A token stream over a whole text for formats where line breaks carry no
/// meaning (Scotch targets and graphs). Knows each token's line.
class TokenStream {
 public:
  TokenStream(std::string_view text, std::string origin) : rest_(text), origin_(std::move(origin)) {}
  /// Next token, or false at the end of the text.
  bool next(std::string_view& token);
  /// Next token; InputError "unexpected end of input, expected <what>" at the end.
  std::string_view expect(std::string_view what);
  /// Next token as an integer in [lo, hi]; InputError naming `what` otherwise.
  std::int64_t expect_int(std::string_view what, std::int64_t lo, std::int64_t hi);
  /// True when nothing but blanks remains.
  bool at_end();
  /// Characters not read yet (bounds what the rest can hold).
  [[nodiscard]] std::int64_t remaining() const noexcept { return static_cast<std::int64_t>(rest_.size()); }
  /// Line of the last token returned (1-based).
  [[nodiscard]] std::int64_t line() const noexcept { return token_line_; }
  [[nodiscard]] const std::string& origin() const noexcept { return origin_; }
  /// Throws InputError at the line of the last token.
  [[noreturn]] void fail(const std::string& problem) const;

  /// How deep the reader is in descriptions nested in one another (Scotch's
  /// `sub` targets): readers that recurse count it here, so the depth is
  /// the stream's own, with no thread-local state.
  int nesting = 0;

 private:
  void skip_blanks();
  std::string_view rest_;
  std::string origin_;
  std::int64_t line_ = 1;
  std::int64_t token_line_ = 1;
};

/// Parses a whole token as a decimal integer; false when it is not one.
bool parse_int(std::string_view token, std::int64_t& value);

/// Option values read strictly (surrounding blanks allowed): what is wrong
/// with `text` as a whole number in [lo, hi] ("'TEXT' is not a whole number
/// between LO and HI"), or "" with `*value` set. Past 64 bits is wrong too.
std::string whole_number_problem(std::string_view text, std::int64_t lo, std::int64_t hi,
                                 std::int64_t* value = nullptr);
/// The same for a finite real number in [lo, hi] (NaN and infinities are wrong).
std::string real_number_problem(std::string_view text, double lo, double hi, double* value = nullptr);

/// Parses an integer in [lo, hi]; InputError "<what> must be ..." otherwise.
std::int64_t parse_int_in(std::string_view token, std::int64_t lo, std::int64_t hi, std::string_view what,
                          const std::string& origin, std::int64_t line);

/// One item of a list of numbers and ranges ("3" or "2-5"): its first and
/// last value, each in [lo, hi]; InputError naming `what` for a value out of
/// range and "range 'a-b' runs backwards" for last < first.
std::pair<std::int64_t, std::int64_t> parse_range(std::string_view item, std::int64_t lo, std::int64_t hi,
                                                  std::string_view what, const std::string& origin, std::int64_t line);

/// Parses a byte volume: a non-negative whole number, in integer, decimal
/// (1000.0) or scientific (1e3) notation. Negative, NaN, infinite, fractional,
/// too large or non-numeric values throw InputError naming file and line.
Volume parse_volume(std::string_view token, const std::string& origin, std::int64_t line);

/// "0-3,7,9-11": numbers in their order, runs of `shortest_range` or more
/// consecutive ones as ranges, shorter runs listed (the syntax of Linux CPU
/// lists, Slurm's, HPE's grid_order and CrayPat).
std::string runs_text(const std::vector<std::int64_t>& values, std::size_t shortest_range = 3);

/// Quotes a token for a message, shortening long ones.
std::string quote(std::string_view token);

/// The name of `names` a misspelt `word` most likely meant: at most two
/// edits away (insertions, deletions, substitutions, case ignored) and
/// closer than any other; empty when none is.
std::string closest_name(std::string_view word, const std::vector<std::string_view>& names);

}  // namespace tmap::detail
