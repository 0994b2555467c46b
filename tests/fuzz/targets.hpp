// The fuzz targets: each feeds arbitrary bytes to one parser. Bad input
// must end in tmap::InputError; anything else (a crash, a sanitizer report,
// another exception) is a finding. Built into libFuzzer binaries
// (TMAP_FUZZ=ON, clang) and replayed over the committed corpus and crashers
// by a normal test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tmap::fuzz {

using Target = void (*)(const std::uint8_t* data, std::size_t size);

void tgt(const std::uint8_t* data, std::size_t size);
void comm(const std::uint8_t* data, std::size_t size);  ///< first byte picks the format
void pe_list(const std::uint8_t* data, std::size_t size);
void hostlist(const std::uint8_t* data, std::size_t size);
void mapping(const std::uint8_t* data, std::size_t size);
void hwloc(const std::uint8_t* data, std::size_t size);
void dist(const std::uint8_t* data, std::size_t size);
void tables(const std::uint8_t* data, std::size_t size);   ///< first byte: --link-bw or --grid2d-bw
void cluster(const std::uint8_t* data, std::size_t size);  ///< first byte: a network spec or a topology.conf
void config(const std::uint8_t* data, std::size_t size);
/// First byte: a file name (.tgt, .xml, .dist, none, topology.conf) or -t's
/// text; the rest through the kind table (topology/kinds/sources.cpp).
void machine(const std::uint8_t* data, std::size_t size);

/// First byte: nvidia-smi/rocm-smi text, an hwloc XML's GPUs, or a "gpu:N"
/// spec; the GPU node read, its distances and its routes.
void gpu(const std::uint8_t* data, std::size_t size);

/// Target by corpus folder name, or nullptr.
Target find(std::string_view name);

}  // namespace tmap::fuzz
