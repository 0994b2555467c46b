// Owning wrappers for libscotch objects and the lock around its parsers.
#pragma once

#include <cstdint>
#include <mutex>

extern "C" {
#include <scotch.h>
}

namespace tmap::scotchmap {

/// Scotch sums loads times distances in SCOTCH_Num (32 bits here): edge
/// loads are scaled so that those sums stay below this.
inline constexpr std::int64_t kScotchSumLimit = std::int64_t{1} << 29;

/// Owns a libscotch object: initialised on construction, freed on every path.
template <typename T, int (*Init)(T*), void (*Exit)(T*)>
struct Scoped {
  T a{};
  Scoped() { Init(&a); }
  ~Scoped() { Exit(&a); }
  Scoped(const Scoped&) = delete;
  Scoped& operator=(const Scoped&) = delete;
};
using Arch = Scoped<SCOTCH_Arch, SCOTCH_archInit, SCOTCH_archExit>;
using Graph = Scoped<SCOTCH_Graph, SCOTCH_graphInit, SCOTCH_graphExit>;
using Strat = Scoped<SCOTCH_Strat, SCOTCH_stratInit, SCOTCH_stratExit>;
using ScotchContext = Scoped<SCOTCH_Context, SCOTCH_contextInit, SCOTCH_contextExit>;

/// libscotch's strategy-string parser (flex/bison) and its target loader
/// are not documented as reentrant: those short calls are serialised. The
/// mapping itself runs on a context of its own, with a private random
/// generator, and stays concurrent.
inline std::mutex& libscotch_parser() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace tmap::scotchmap
