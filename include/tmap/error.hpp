// The errors tmap reports. Library code never prints or exits; the tools
// turn these into messages and exit codes, the C API into status codes.
//
// One category per kind of cause (Mt-KaHyPar's model), so that a caller can
// tell "fix your file" from "pick another strategy" from "the system failed":
//
//   category          class             tools' exit   C status
//   invalid input     InputError        2             TMAP_ERROR_INPUT
//   invalid parameter ParameterError    2             TMAP_ERROR_PARAMETER
//   unsupported       UnsupportedError  2             TMAP_ERROR_UNSUPPORTED
//   over a limit      ResourceError     2             TMAP_ERROR_RESOURCE
//   system failure    SystemError       4             TMAP_ERROR_SYSTEM
//   internal (a bug)  InternalError     1             TMAP_ERROR_INTERNAL
//
// Messages say what is wrong in the library's terms (an option by its key,
// "scotch-flags: ..."); they never name a tool's flag: the tools add that.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tmap/export.h"

TMAP_API_BEGIN

namespace tmap {

enum class ErrorKind {
  InvalidInput,      ///< a file or data given to tmap is wrong (names file and line)
  InvalidParameter,  ///< a caller's choice is wrong: an option value, an argument, an output path
  Unsupported,       ///< valid, but this strategy, machine kind or build cannot do it
  Resource,          ///< the run would pass a bound tmap keeps (memory of a table, 64-bit sums)
  System,            ///< the system failed: a write error, out of memory, a library refused to start
  Internal,          ///< a broken invariant: a bug in tmap
};

/// "invalid input", "invalid parameter", "unsupported", "resource", "system", "internal".
[[nodiscard]] std::string_view error_kind_name(ErrorKind kind) noexcept;

/// Base of every error tmap reports.
class Error : public std::runtime_error {
 public:
  [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }

 protected:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

 private:
  ErrorKind kind_;
};

/// Bad input data (a file, a stream, a matrix handed to the API).
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

/// A caller's choice is wrong: an option value ("KEY: problem"), an unknown
/// strategy, an argument out of range, an output that cannot be written to.
class ParameterError : public Error {
 public:
  explicit ParameterError(const std::string& message) : Error(ErrorKind::InvalidParameter, message) {}
};

/// A valid request this strategy, machine kind or build cannot serve.
class UnsupportedError : public Error {
 public:
  explicit UnsupportedError(const std::string& message) : Error(ErrorKind::Unsupported, message) {}
};

/// The run would pass a bound tmap keeps (a table's memory, exact 64-bit
/// sums, a libscotch index width): refused before the work, not a bug.
class ResourceError : public Error {
 public:
  explicit ResourceError(const std::string& message) : Error(ErrorKind::Resource, message) {}
};

/// The system failed: a write error, no memory, a library that could not start.
class SystemError : public Error {
 public:
  explicit SystemError(const std::string& message) : Error(ErrorKind::System, message) {}
};

/// A broken internal invariant (a bug).
class InternalError : public Error {
 public:
  explicit InternalError(const std::string& message) : Error(ErrorKind::Internal, message) {}
};

}  // namespace tmap

TMAP_API_END
