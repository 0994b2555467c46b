#include "tmap/error.hpp"

namespace tmap {

InputError::InputError(const std::string& problem) : Error(problem), problem_(problem) {}

InputError::InputError(const std::string& file, const std::string& problem)
    : Error(file + ": " + problem), file_(file), problem_(problem) {}

InputError::InputError(const std::string& file, std::int64_t line, const std::string& problem)
    : Error(file + ":" + std::to_string(line) + ": " + problem), file_(file), line_(line), problem_(problem) {}

}  // namespace tmap
