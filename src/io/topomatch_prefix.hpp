// The line TopoMatch's mapping output starts with ("TopoMatch: 3,0,1,2"),
// written and recognised by tmap.
#pragma once

#include <string_view>

namespace tmap::detail {

constexpr std::string_view kTopoMatchPrefix = "TopoMatch:";

}  // namespace tmap::detail
