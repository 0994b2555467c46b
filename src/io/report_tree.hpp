// A report as its JSON tree (nlohmann's ordered_json, the one description
// of its fields), and the walk that hands such a tree to a ReportWriter
// (tmap/report.hpp): the JSON text and a binding's objects come from the
// same tree, and reports nest in reports (compare's results) without text.
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "tmap/report.hpp"

namespace tmap {

/// mapping_json's object as a tree.
[[nodiscard]] nlohmann::ordered_json mapping_tree(std::span<const PE> mapping, const MappingReport& report);

/// Hands `tree` to `out`, members in their order; an array of integers only
/// (a mapping) in one integers() call.
void write_tree(const nlohmann::ordered_json& tree, ReportWriter& out);

}  // namespace tmap
