// ohtma's and ohtma+'s options (rows of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/ohtma/ohtma.hpp"
#include "strategies/ohtma/ohtma_plus.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kOhtmaOptions[] = {
    {"ohtma-loop", "OHTMA pair-exchange iterations (default n/2, the paper's choice; 'default' for it)",
     [](Context& c, std::string_view v) { c.ohtma.loop = whole_or_default("ohtma-loop", v, 0, kMaxRanks); },
     [](const Context& c) { return whole_or_default_text(c.ohtma.loop); }},
};

constexpr StrategyOption kOhtmaPlusOptions[] = {
    {"ohtma-passes", "ohtma+: most refinement passes (default 64)",
     [](Context& c, std::string_view v) { c.ohtma.max_passes = whole_value("ohtma-passes", v, 1, 1 << 20); },
     [](const Context& c) { return std::to_string(c.ohtma.max_passes); }},
};

}  // namespace

std::span<const StrategyOption> ohtma_options() {
  return kOhtmaOptions;
}
std::span<const StrategyOption> ohtma_plus_options() {
  return kOhtmaPlusOptions;
}

}  // namespace tmap::strategies
