// rb's options (a row of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/rb/rb.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kRbOptions[] = {
    {"rb-passes",
     "rb: Fiduccia-Mattheyses passes per cut (default 12, 4 above 50,000 ranks; 0 = greedy growing only; 'default')",
     [](Context& c, std::string_view v) { c.rb.passes = whole_or_default("rb-passes", v, 0, 1000); },
     [](const Context& c) { return whole_or_default_text(c.rb.passes); }},
};

}  // namespace

std::span<const StrategyOption> rb_options() {
  return kRbOptions;
}

}  // namespace tmap::strategies
