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

void store_whole_value(Context& context, std::string_view key, std::string_view text, std::int64_t lo,
                       std::int64_t hi) {
  context.strategy_options.insert_or_assign(std::string(key), std::to_string(whole_value(key, text, lo, hi)));
}

std::int64_t stored_whole_value(const Context& context, std::string_view key, std::int64_t fallback) {
  const auto it = context.strategy_options.find(key);
  return it == context.strategy_options.end() ? fallback : std::stoll(it->second);
}

}  // namespace tmap::strategies
