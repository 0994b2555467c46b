#include "tmap/error.hpp"

namespace tmap {

std::string_view error_kind_name(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::InvalidInput:
      return "invalid input";
    case ErrorKind::InvalidParameter:
      return "invalid parameter";
    case ErrorKind::Unsupported:
      return "unsupported";
    case ErrorKind::Resource:
      return "resource";
    case ErrorKind::System:
      return "system";
    case ErrorKind::Internal:
      return "internal";
  }
  return "internal";
}

InputError::InputError(const std::string& problem) : Error(ErrorKind::InvalidInput, problem), problem_(problem) {}

InputError::InputError(const std::string& file, const std::string& problem)
    : Error(ErrorKind::InvalidInput, file + ": " + problem), file_(file), problem_(problem) {}

InputError::InputError(const std::string& file, std::int64_t line, const std::string& problem)
    : Error(ErrorKind::InvalidInput, file + ":" + std::to_string(line) + ": " + problem),
      file_(file),
      line_(line),
      problem_(problem) {}

}  // namespace tmap
