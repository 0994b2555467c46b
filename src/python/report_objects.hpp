// Reports as Python objects, built from the report's tree (tmap::ReportWriter)
// with no JSON text in between: objects as instances of a given dict type
// (tmap.Report, whose keys are also attributes), arrays as lists, a
// mapping's integers as one list built in one pass.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>

#include "tmap/report.hpp"

namespace tmap::python {

/// What `write` hands its writer, as Python objects; every object an
/// instance of `object_type` (a dict or a subclass of it).
[[nodiscard]] pybind11::object report_object(const std::function<void(ReportWriter&)>& write,
                                             const pybind11::object& object_type);

}  // namespace tmap::python
