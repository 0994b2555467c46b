// The error types tmap throws. Library code never prints or exits; the tools
// turn these into messages and exit codes (contract section 5).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tmap/export.h"

TMAP_API_BEGIN

namespace tmap {

/// Base of every error tmap reports.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad user input (a file, an option value): tools exit with code 2.
/// what() reads "FILE:LINE: problem", "FILE: problem" or "problem".
class InputError : public Error {
 public:
  explicit InputError(const std::string& problem);
  InputError(const std::string& file, const std::string& problem);
  InputError(const std::string& file, std::int64_t line, const std::string& problem);

  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  /// 1-based line, or 0 when the problem is not tied to a line.
  [[nodiscard]] std::int64_t line() const noexcept { return line_; }
  [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

 private:
  std::string file_;
  std::int64_t line_ = 0;
  std::string problem_;
};

/// A broken internal invariant (a bug): tools exit with code 1.
class InternalError : public Error {
 public:
  using Error::Error;
};

}  // namespace tmap

TMAP_API_END
