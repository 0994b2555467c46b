// One libFuzzer binary per target: TMAP_FUZZ_TARGET names it at compile time.
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tmap::fuzz::TMAP_FUZZ_TARGET(data, size);
  return 0;
}
