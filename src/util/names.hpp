// Name <-> enum tables for the formats the tools accept on the command line.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tmap::detail {

template <typename E>
struct Named {
  E value;
  std::string_view name;
};

template <typename E, std::size_t N>
std::optional<E> find_by_name(const std::array<Named<E>, N>& table, std::string_view name) {
  for (const auto& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

template <typename E, std::size_t N>
std::optional<std::string_view> name_of(const std::array<Named<E>, N>& table, E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return std::nullopt;
}

/// Every name, in the table's order (what a flag accepts).
template <typename E, std::size_t N>
std::vector<std::string> all_names(const std::array<Named<E>, N>& table) {
  std::vector<std::string> names;
  names.reserve(N);
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

/// "a, b, c" for messages and help texts.
template <typename E, std::size_t N>
std::string joined_names(const std::array<Named<E>, N>& table) {
  std::string list;
  for (const auto& entry : table) list += (list.empty() ? "" : ", ") + std::string(entry.name);
  return list;
}

}  // namespace tmap::detail
