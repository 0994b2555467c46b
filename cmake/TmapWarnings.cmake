# Per-target warnings: applied to our own targets only, never to consumers.
function(tmap_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion -Wno-restrict -Wnon-virtual-dtor -Wold-style-cast)
  if(TMAP_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
