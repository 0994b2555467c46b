// A run's configuration as data: named presets, every option by key, and a
// JSON form to save and load, so that any run can be repeated from its
// output (KaMinPar's presets and context dump, Mt-KaHyPar's ini files).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/mapper.hpp"

TMAP_API_BEGIN

namespace tmap {

/// "fast", "default", "quality".
[[nodiscard]] std::span<const std::string_view> preset_names();
/// What each preset is, one line each, for help texts.
[[nodiscard]] std::string_view preset_summary(std::string_view name);
/// The Context of a preset: fast = auto with one libscotch run (gmap's
/// speed), default = Context{} (auto), quality = auto then multilevel
/// V-cycles (refine multilevel).
/// ParameterError naming the presets otherwise.
[[nodiscard]] Context preset(std::string_view name);

/// Every option a Context has, by key: the run's own (strategy, seed,
/// threads, refine, refine-iters, time-limit, link-bw), then each
/// strategy's from the strategy table. Keys are tm-map's flags without "--".
[[nodiscard]] std::vector<const StrategyOption*> context_options();
/// Sets any option by key, strictly: ParameterError "KEY: problem" for a bad
/// value, or naming the known keys for an unknown one.
void set_option(Context& context, std::string_view key, std::string_view value);
/// Every option's key and value as text, in context_options() order;
/// set_option on each gives back an equal Context.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> option_values(const Context& context);

/// The configuration as a JSON document: {"tmap_config": 1, "version": ...,
/// "options": {KEY: "VALUE", ...}}, every option listed.
[[nodiscard]] std::string save_config(const Context& context);
/// Reads save_config's document, or a tm-map JSON result (its "config"
/// object), starting from `base` (options the file leaves out keep base's
/// values). InputError naming `origin` for bad JSON or an unknown key,
/// "origin: KEY: problem" for a bad value.
[[nodiscard]] Context load_config(std::string_view text, const std::string& origin, const Context& base = {});

}  // namespace tmap

TMAP_API_END
