// tm-map's summary on stderr: the run's figures, one line each.
#pragma once

#include "run.hpp"

namespace tmap::cli {

void print_summary(const RunResult& r, const Constraints& constraints, const CommMatrix& comm);

}  // namespace tmap::cli
