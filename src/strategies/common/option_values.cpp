#include "strategies/common/option_values.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "tmap/error.hpp"

namespace tmap::strategies {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi) {
  const auto value = trimmed(text);
  std::int64_t parsed = 0;
  const auto* begin = value.data() + (value.starts_with('+') ? 1 : 0);
  const auto [at, error] = std::from_chars(begin, value.data() + value.size(), parsed);
  if (value.empty() || at != value.data() + value.size() || error != std::errc() || parsed < lo || parsed > hi) {
    throw InputError(fmt::format("{}: '{}' is not a whole number between {} and {}", key, text, lo, hi));
  }
  return parsed;
}

double real_value(std::string_view key, std::string_view text, double lo, double hi) {
  const std::string value(trimmed(text));
  char* end = nullptr;
  const double parsed = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(parsed) || parsed < lo || parsed > hi) {
    throw InputError(fmt::format("{}: '{}' is not a finite number between {} and {}", key, text, lo, hi));
  }
  return parsed;
}

}  // namespace tmap::strategies
