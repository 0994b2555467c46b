// treematch's options (a row of the strategy table).
#include "strategies/common/option_values.hpp"
#include "strategies/treematch/treematch.hpp"

namespace tmap::strategies {

namespace {

constexpr StrategyOption kTreeMatchOptions[] = {
    {"tau", "treematch: group by full enumeration below this many candidate groups (30000, at most 1e7)",
     [](Context& c, std::string_view v) { c.treematch.tau = whole_value("tau", v, 0, 10000000); },
     [](const Context& c) { return std::to_string(c.treematch.tau); }},
    {"treematch-bisection",
     "treematch: how sets of ranks are split: auto (multilevel in jobs above 262,144 ranks, default), flat (greedy "
     "growing and FM over every set: the quality preset) or multilevel",
     [](Context& c, std::string_view v) {
       c.treematch.bisection = word_value("treematch-bisection", v, {"auto", "flat", "multilevel"});
     },
     [](const Context& c) { return c.treematch.bisection; }},
    {"treematch-grouping",
     "treematch: where its bottom-up grouping runs beside the top-down split on full trees: auto (above 16,384 "
     "ranks, default) or always (the quality preset)",
     [](Context& c, std::string_view v) {
       c.treematch.grouping = word_value("treematch-grouping", v, {"auto", "always"});
     },
     [](const Context& c) { return c.treematch.grouping; }},
};

}  // namespace

std::span<const StrategyOption> treematch_options() {
  return kTreeMatchOptions;
}

}  // namespace tmap::strategies
