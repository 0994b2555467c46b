# Installs tmap into a scratch prefix, then configures, builds and runs
# examples/ against it with find_package(tmap): proof the package exports work.
set(prefix "${BINARY_DIR}/_consumer/prefix")
set(build "${BINARY_DIR}/_consumer/build")
file(REMOVE_RECURSE "${BINARY_DIR}/_consumer")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BINARY_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples" -B "${build}"
                        "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring examples failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building examples failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${build}/simple/tmap-simple" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "hop_bytes 224000")
  message(FATAL_ERROR "tmap-simple failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND "${build}/c-api/tmap-c" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "inorder hop_bytes 224000" OR NOT out MATCHES "scotch hop_bytes 224000"
   OR NOT out MATCHES "refused: -t:1: unexpected end of input")
  message(FATAL_ERROR "tmap-c failed (${rc}):\n${out}\n${err}")
endif()
# pkg-config sees the installed copy too.
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
execute_process(COMMAND pkg-config --libs tmap RESULT_VARIABLE rc OUTPUT_VARIABLE pc)
if(NOT rc EQUAL 0 OR NOT pc MATCHES "-ltmap")
  message(FATAL_ERROR "pkg-config does not find the installed tmap: ${pc}")
endif()
# ... and points into this prefix (not the configure-time one), so a C
# program builds and links with pkg-config's flags alone.
execute_process(COMMAND pkg-config --variable=libdir tmap OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${libdir}/libtmap.so")
  message(FATAL_ERROR "pkg-config's libdir '${libdir}' does not hold the installed libtmap.so")
endif()
execute_process(COMMAND pkg-config --cflags --libs tmap OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${flags}")
file(WRITE "${BINARY_DIR}/_consumer/pc.c" "#include <tmap/tmap.h>\n#include <stdio.h>\nint main(void) { puts(tmap_version()); return 0; }\n")
execute_process(COMMAND cc "${BINARY_DIR}/_consumer/pc.c" ${flags} "-Wl,-rpath,${libdir}" -o "${BINARY_DIR}/_consumer/pc"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a C program does not build with pkg-config's flags: ${err}")
endif()
execute_process(COMMAND "${BINARY_DIR}/_consumer/pc" RESULT_VARIABLE rc OUTPUT_VARIABLE version)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the pkg-config-built program does not run")
endif()
message(STATUS "examples built and ran against the installed tmap: ${out}")
