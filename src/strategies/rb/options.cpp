// rb's options (a row of the strategy table), kept in Context::strategy_options.
#include "strategies/common/option_values.hpp"
#include "strategies/rb/rb.hpp"

namespace tmap::strategies {

namespace {

constexpr std::string_view kPasses = "rb-passes";

constexpr StrategyOption kRbOptions[] = {
    {kPasses, "rb: Fiduccia-Mattheyses passes per cut (default 12, 4 above 50,000 ranks; 0 = greedy growing only)",
     [](Context& c, std::string_view v) { store_whole_value(c, kPasses, v, 0, 1000); }},
};

}  // namespace

std::span<const StrategyOption> rb_options() {
  return kRbOptions;
}

int rb_fm_passes(const Context& context) {
  return static_cast<int>(stored_whole_value(context, kPasses, -1));
}

}  // namespace tmap::strategies
