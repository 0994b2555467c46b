# Per-target warnings: applied to our own targets only, never to consumers.
function(tmap_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 warns about std::string concatenations it inlines (false positives).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # Names reserved to the implementation (leading underscore and capital,
    # double underscore): clang finds them while compiling, where clang-tidy's
    # bugprone-reserved-identifier cost 9 % of its checks' time (.clang-tidy).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wreserved-identifier>)
  endif()
  if(TMAP_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
