#include "io/report_tree.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace tmap {

namespace {

/// The array's values when every one is an integer within int64.
bool all_integers(const nlohmann::ordered_json& array, std::vector<std::int64_t>& values) {
  values.clear();
  values.reserve(array.size());
  for (const auto& item : array) {
    if (item.is_number_integer() && !item.is_number_unsigned()) {
      values.push_back(item.get<std::int64_t>());
    } else if (item.is_number_unsigned() &&
               item.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      values.push_back(static_cast<std::int64_t>(item.get<std::uint64_t>()));
    } else {
      return false;
    }
  }
  return !values.empty();
}

}  // namespace

void write_tree(const nlohmann::ordered_json& tree, ReportWriter& out) {
  using Type = nlohmann::ordered_json::value_t;
  switch (tree.type()) {
    case Type::object:
      out.begin_object();
      for (const auto& [name, member] : tree.items()) {
        out.key(name);
        write_tree(member, out);
      }
      out.end_object();
      return;
    case Type::array: {
      std::vector<std::int64_t> values;
      if (all_integers(tree, values)) {
        out.integers(values);
        return;
      }
      out.begin_array();
      for (const auto& item : tree) write_tree(item, out);
      out.end_array();
      return;
    }
    case Type::boolean:
      out.boolean(tree.get<bool>());
      return;
    case Type::number_integer:
      out.integer(tree.get<std::int64_t>());
      return;
    case Type::number_unsigned: {
      const auto value = tree.get<std::uint64_t>();
      if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        out.integer(static_cast<std::int64_t>(value));
      } else {
        out.unsigned_integer(value);
      }
      return;
    }
    case Type::number_float:
      out.real(tree.get<double>());
      return;
    case Type::string:
      out.text(tree.get_ref<const std::string&>());
      return;
    case Type::null:
    case Type::binary:
    case Type::discarded:
      out.null();
      return;
  }
}

}  // namespace tmap
