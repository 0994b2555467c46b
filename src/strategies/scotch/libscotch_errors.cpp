// The SCOTCH_error* functions libscotch calls, in place of libscotcherr's.
// They are exported (default visibility) so that libscotch, loaded after
// libtmap, binds to them; libtmap-mpi and the Open MPI component compile
// this file themselves, since their static copy of tmap is hidden.
#include "libscotch_errors.hpp"

#include <cstdarg>
#include <cstdio>

namespace tmap::scotchmap {

namespace {

/// Bounded: a libscotch failure says a few lines at most.
constexpr std::size_t kMostKept = 2048;

thread_local std::string t_messages;

void keep(const char* line) {
  if (t_messages.size() >= kMostKept) return;
  if (!t_messages.empty()) t_messages += "; ";
  t_messages += line;
}

}  // namespace

std::string take_libscotch_messages() {
  std::string said;
  said.swap(t_messages);
  return said;
}

std::string libscotch_said() {
  const auto said = take_libscotch_messages();
  return said.empty() ? std::string() : " (libscotch: " + said + ")";
}

}  // namespace tmap::scotchmap

// The names and signatures are libscotch's (scotch.h): it calls these.
extern "C" {

// NOLINTNEXTLINE(readability-identifier-naming)
__attribute__((visibility("default"))) void SCOTCH_errorProg(const char* /*name*/) {}

// NOLINTNEXTLINE(readability-identifier-naming)
__attribute__((visibility("default"))) void SCOTCH_errorPrint(const char* const format, ...) {
  char line[512];
  std::va_list arguments;
  va_start(arguments, format);
  // va_start above initialises it; clang's analyzer does not see that here.
  std::vsnprintf(line, sizeof line, format, arguments);  // NOLINT(clang-analyzer-valist.Uninitialized)
  va_end(arguments);
  tmap::scotchmap::keep(line);
}

// NOLINTNEXTLINE(readability-identifier-naming)
__attribute__((visibility("default"))) void SCOTCH_errorPrintW(const char* const format, ...) {
  char line[512];
  std::va_list arguments;
  va_start(arguments, format);
  // va_start above initialises it; clang's analyzer does not see that here.
  std::vsnprintf(line, sizeof line, format, arguments);  // NOLINT(clang-analyzer-valist.Uninitialized)
  va_end(arguments);
  tmap::scotchmap::keep(line);
}

}  // extern "C"
