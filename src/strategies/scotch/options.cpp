// scotch's and scotch+'s options (their rows of the strategy table).
#include <algorithm>
#include <array>
#include <string>

#include "strategies/common/option_values.hpp"
#include "strategies/scotch/libscotch.hpp"
#include "strategies/scotch/libscotch_errors.hpp"
#include "strategies/scotch/scotch.hpp"
#include "tmap/error.hpp"

namespace tmap::strategies {

namespace {

constexpr std::string_view kTarget = "scotch-target";
constexpr std::array<std::string_view, 5> kTargetKinds{"auto", "native", "table", "grouped", "graph"};

constexpr StrategyOption kScotchOptions[] = {
    {"scotch-imbalance", "scotch: load imbalance ratio, as scotch_gmap's -b (default 0.01)",
     [](Context& c, std::string_view v) { c.scotch.imbalance = real_value("scotch-imbalance", v, 0.0, 1.0); },
     [](const Context& c) { return real_text(c.scotch.imbalance); }},
    {"scotch-flags",
     "scotch: strategy letters, as scotch_gmap's -c: b balance (default), q quality, r recursive bipartitioning, "
     "s speed, t safety",
     [](Context& c, std::string_view v) {
       if (v.empty() || v.find_first_not_of("bqrst") != std::string_view::npos) {
         throw ParameterError("scotch-flags: '" + std::string(v) +
                              "' is not made of the letters b, q, r, s, t (as gmap's -c)");
       }
       c.scotch.flags = std::string(v);
     },
     [](const Context& c) { return c.scotch.flags; }},
    {"scotch-strategy", "scotch: a libscotch mapping strategy string, as scotch_gmap's -m (replaces the flags)",
     [](Context& c, std::string_view v) {
       // libscotch's own parser decides, now rather than at the first run.
       const std::string text(v);
       if (text.empty()) {  // none: the flags and imbalance decide (the default)
         c.scotch.strategy.clear();
         return;
       }
       scotchmap::Strat strat;
       const std::lock_guard lock(scotchmap::libscotch_parser());
       if (SCOTCH_stratGraphMap(&strat.a, text.c_str()) != 0) {
         throw ParameterError("scotch-strategy: libscotch cannot parse the mapping strategy '" + text + "'" +
                              scotchmap::libscotch_said());
       }
       c.scotch.strategy = text;
     },
     [](const Context& c) { return c.scotch.strategy; }},
};

constexpr StrategyOption kScotchPlusOptions[] = {
    {"sparse-factor", "scotch+: drop traffic below this fraction of the heaviest pair (TopoMatch -a)",
     [](Context& c, std::string_view v) { c.scotch.sparse_factor = real_value("sparse-factor", v, 0.0, 1.0); },
     [](const Context& c) { return real_text(c.scotch.sparse_factor); }},
    {kTarget,
     "scotch+: the target libscotch gets: auto (default), native (Scotch's own kind), table (deco 0, every "
     "distance), grouped (two levels over Tianhe-3's chip halves) or graph (deco 2 over the machine's graph)",
     [](Context& c, std::string_view v) {
       if (std::find(kTargetKinds.begin(), kTargetKinds.end(), v) == kTargetKinds.end()) {
         throw ParameterError("scotch-target: '" + std::string(v) +
                              "' is not one of auto, native, table, grouped, graph");
       }
       c.scotch.target = std::string(v);
     },
     [](const Context& c) { return c.scotch.target; }},
};

}  // namespace

std::span<const StrategyOption> scotch_options() {
  return kScotchOptions;
}

std::span<const StrategyOption> scotch_plus_options() {
  return kScotchPlusOptions;
}

std::string_view scotch_target_choice(const Context& context) {
  return context.scotch.target;
}

}  // namespace tmap::strategies
