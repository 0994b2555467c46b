// treematch's options (a row of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/treematch/treematch.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kTreeMatchOptions[] = {
    {"tau", "treematch: group by full enumeration below this many candidate groups (30000, at most 1e7)",
     [](Context& c, std::string_view v) { c.treematch.tau = whole_value("tau", v, 0, 10000000); },
     [](const Context& c) { return std::to_string(c.treematch.tau); }},
};

}  // namespace

std::span<const StrategyOption> treematch_options() {
  return kTreeMatchOptions;
}

}  // namespace tmap::strategies
