// The bad-input catalog's cases (test_bad_inputs.cpp runs them): each
// malformed input, the tool and arguments, and what its message must say.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tmap::test {

struct BadInput {
  const char* name;
  std::vector<std::pair<std::string, std::string>> files;  // name -> content
  std::vector<std::string> args;                           // tm-map arguments (before --output)
  std::string message;                                     // expected in stderr
  std::string tool = "tm-map";
};

// gtest prints parameters with this instead of a byte dump.
[[maybe_unused]] inline void PrintTo(const BadInput& c, std::ostream* os) {
  *os << c.name;
}

/// A valid 3-rank matrix, for cases whose fault is elsewhere.
inline const std::string kGood = "0 1 1\n1 0 1\n1 1 0\n";

/// Malformed files and options: matrices, graphs, targets, mappings, launchers.
std::vector<BadInput> malformed_inputs();
/// Issue 16's hostile inputs: endless streams, absurd values, deep or huge targets.
std::vector<BadInput> hostile_inputs();

}  // namespace tmap::test
