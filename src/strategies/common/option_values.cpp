#include "strategies/common/option_values.hpp"

#include <string>

#include "tmap/error.hpp"
#include "util/text.hpp"

namespace tmap::strategies {

std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi) {
  std::int64_t value = 0;
  if (const auto problem = detail::whole_number_problem(text, lo, hi, &value); !problem.empty()) {
    throw InputError(std::string(key) + ": " + problem);
  }
  return value;
}

double real_value(std::string_view key, std::string_view text, double lo, double hi) {
  double value = 0.0;
  if (const auto problem = detail::real_number_problem(text, lo, hi, &value); !problem.empty()) {
    throw InputError(std::string(key) + ": " + problem);
  }
  return value;
}

}  // namespace tmap::strategies
