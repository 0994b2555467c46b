// Reading strategy option values strictly (the rows of the strategy table
// carry the options; tm-map and the C API set them by key). Messages start
// with the key, as users wrote it without "--".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// A whole number in [lo, hi], in decimal; ParameterError "KEY: 'TEXT' is not a
/// whole number between LO and HI" otherwise.
[[nodiscard]] std::int64_t whole_value(std::string_view key, std::string_view text, std::int64_t lo, std::int64_t hi);
/// A finite real number in [lo, hi]; ParameterError "KEY: 'TEXT' is not a finite
/// number between LO and HI" otherwise (NaN and infinities included).
[[nodiscard]] double real_value(std::string_view key, std::string_view text, double lo, double hi);

/// One of `words`, as given; ParameterError "KEY: 'TEXT' is not A, B or C"
/// otherwise.
[[nodiscard]] std::string word_value(std::string_view key, std::string_view text,
                                     std::initializer_list<std::string_view> words);

/// whole_value, or -1 (the strategy's own default) for the word "default".
[[nodiscard]] std::int64_t whole_or_default(std::string_view key, std::string_view text, std::int64_t lo,
                                            std::int64_t hi);
/// The text whole_or_default reads back: "default" for a negative value.
[[nodiscard]] std::string whole_or_default_text(std::int64_t value);
/// A real number as text that real_value reads back to the same double.
[[nodiscard]] std::string real_text(double value);

}  // namespace tmap::strategies
