# FindSCOTCH: Debian's libscotch-dev ships no CMake config, so we look for the
# sequential Scotch headers and libraries ourselves.
#
# Provides SCOTCH::scotch (libscotch + libscotcherr) and SCOTCH_FOUND,
# SCOTCH_INCLUDE_DIR, SCOTCH_LIBRARY, SCOTCH_VERSION.
find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch)
find_library(SCOTCH_LIBRARY NAMES scotch)
find_library(SCOTCH_ERR_LIBRARY NAMES scotcherr)

if(SCOTCH_INCLUDE_DIR AND EXISTS "${SCOTCH_INCLUDE_DIR}/scotch.h")
  file(STRINGS "${SCOTCH_INCLUDE_DIR}/scotch.h" _scotch_ver REGEX "^#define SCOTCH_(VERSION|RELEASE|PATCHLEVEL) ")
  foreach(_part VERSION RELEASE PATCHLEVEL)
    string(REGEX REPLACE ".*#define SCOTCH_${_part} ([0-9]+).*" "\\1" _v_${_part} "${_scotch_ver}")
  endforeach()
  set(SCOTCH_VERSION "${_v_VERSION}.${_v_RELEASE}.${_v_PATCHLEVEL}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SCOTCH
  REQUIRED_VARS SCOTCH_LIBRARY SCOTCH_ERR_LIBRARY SCOTCH_INCLUDE_DIR
  VERSION_VAR SCOTCH_VERSION)

if(SCOTCH_FOUND AND NOT TARGET SCOTCH::scotch)
  find_package(Threads REQUIRED)
  add_library(SCOTCH::scotch UNKNOWN IMPORTED)
  set_target_properties(SCOTCH::scotch PROPERTIES
    IMPORTED_LOCATION "${SCOTCH_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SCOTCH_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${SCOTCH_ERR_LIBRARY};Threads::Threads;m")
endif()
mark_as_advanced(SCOTCH_INCLUDE_DIR SCOTCH_LIBRARY SCOTCH_ERR_LIBRARY)

# PT-Scotch (libptscotch-dev, built against Debian's default MPI): optional,
# for the distributed strategy (tm-pmap). SCOTCH::ptscotch when found.
find_library(PTSCOTCH_LIBRARY NAMES ptscotch)
find_library(PTSCOTCH_ERR_LIBRARY NAMES ptscotcherr)
if(SCOTCH_FOUND AND PTSCOTCH_LIBRARY AND PTSCOTCH_ERR_LIBRARY AND EXISTS "${SCOTCH_INCLUDE_DIR}/ptscotch.h"
   AND NOT TARGET SCOTCH::ptscotch)
  add_library(SCOTCH::ptscotch UNKNOWN IMPORTED)
  set_target_properties(SCOTCH::ptscotch PROPERTIES
    IMPORTED_LOCATION "${PTSCOTCH_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SCOTCH_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${PTSCOTCH_ERR_LIBRARY};SCOTCH::scotch")
endif()
mark_as_advanced(PTSCOTCH_LIBRARY PTSCOTCH_ERR_LIBRARY)
