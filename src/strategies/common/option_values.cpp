#include "strategies/common/option_values.hpp"

#include <fmt/format.h>

#include <string>

#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::strategies {

std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi) {
  std::int64_t value = 0;
  if (const auto problem = detail::whole_number_problem(text, lo, hi, &value); !problem.empty()) {
    throw ParameterError(std::string(key) + ": " + problem);
  }
  return value;
}

double real_value(std::string_view key, std::string_view text, double lo, double hi) {
  double value = 0.0;
  if (const auto problem = detail::real_number_problem(text, lo, hi, &value); !problem.empty()) {
    throw ParameterError(std::string(key) + ": " + problem);
  }
  return value;
}

std::string word_value(std::string_view key, std::string_view text, std::initializer_list<std::string_view> words) {
  std::string listed;
  std::size_t k = 0;
  for (const auto word : words) {
    if (word == text) return std::string(text);
    listed += (k == 0 ? "" : k + 1 == words.size() ? " or " : ", ") + std::string(word);
    ++k;
  }
  throw ParameterError(std::string(key) + ": '" + std::string(text) + "' is not " + listed);
}

std::int64_t whole_or_default(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi) {
  if (text == "default") return -1;
  return whole_value(key, text, lo, hi);
}

std::string whole_or_default_text(std::int64_t value) {
  return value < 0 ? std::string("default") : std::to_string(value);
}

std::string real_text(double value) {
  return fmt::format("{}", value);  // the shortest text that reads back to the same double
}

}  // namespace tmap::strategies
