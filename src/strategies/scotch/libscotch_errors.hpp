// libscotch reports its errors by calling SCOTCH_errorPrint, which a program
// provides (libscotcherr's prints "ERROR: ..." on stderr). tmap provides its
// own (libscotch_errors.cpp): a library must not print uninvited, least of
// all inside MPI ranks, so libscotch's words are kept for the error tmap
// raises instead.
#pragma once

#include <string>

namespace tmap::scotchmap {

/// What libscotch said on this thread since the last call ("archLoad: cannot
/// load architecture data; ..."), and forgets it; empty when nothing.
[[nodiscard]] std::string take_libscotch_messages();

/// " (libscotch: ...)" for an error message, or "" when libscotch said nothing.
[[nodiscard]] std::string libscotch_said();

}  // namespace tmap::scotchmap
