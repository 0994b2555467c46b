// Reading strategy option values strictly (the rows of the strategy table
// carry the options; tm-map and the C API set them by key). Messages start
// with the key, as users wrote it without "--".
#pragma once

#include <cstdint>
#include <string_view>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// A whole number in [lo, hi], in decimal; InputError "KEY: 'TEXT' is not a
/// whole number between LO and HI" otherwise.
[[nodiscard]] std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi);
/// A finite real number in [lo, hi]; InputError "KEY: 'TEXT' is not a finite
/// number between LO and HI" otherwise (NaN and infinities included).
[[nodiscard]] double real_value(std::string_view key, std::string_view text, double lo, double hi);

/// For options kept in Context::strategy_options: checks TEXT as
/// whole_value does and stores it under KEY.
void store_whole_value(Context& context, std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi);
/// The whole number stored under KEY, or `fallback` when it was not set.
[[nodiscard]] std::int64_t stored_whole_value(const Context& context, std::string_view key, std::int64_t fallback);

}  // namespace tmap::strategies
