/* tmap's binary surface: libtmap is built with hidden visibility, and only
 * what the public headers declare between TMAP_API_BEGIN and TMAP_API_END is
 * exported (functions, classes with their type information, the C API). */
#ifndef TMAP_EXPORT_H
#define TMAP_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define TMAP_API_BEGIN _Pragma("GCC visibility push(default)")
#define TMAP_API_END _Pragma("GCC visibility pop")
#else
#define TMAP_API_BEGIN
#define TMAP_API_END
#endif

/* The version of these headers; tmap_version() gives the library's. */
#define TMAP_VERSION_MAJOR 0
#define TMAP_VERSION_MINOR 1
#define TMAP_VERSION_PATCH 0
#define TMAP_VERSION_STRING "0.1.0"

#endif
