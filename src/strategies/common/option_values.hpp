// Reading strategy option values strictly (the rows of the strategy table
// carry the options; tm-map and the C API set them by key). Messages start
// with the key, as users wrote it without "--".
#pragma once

#include <cstdint>
#include <string_view>

namespace tmap::strategies {

/// A whole number in [lo, hi], in decimal; InputError "KEY: 'TEXT' is not a
/// whole number between LO and HI" otherwise.
[[nodiscard]] std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi);
/// A finite real number in [lo, hi]; InputError "KEY: 'TEXT' is not a finite
/// number between LO and HI" otherwise (NaN and infinities included).
[[nodiscard]] double real_value(std::string_view key, std::string_view text, double lo, double hi);

}  // namespace tmap::strategies
