// The public file helpers of tmap/io.hpp, on top of util/file.
#include "util/file.hpp"

#include "tmap/io.hpp"

namespace tmap {

std::string read_file(const std::string& path) {
  return detail::read_text_file(path);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  detail::write_output_file(path, content);
}

}  // namespace tmap
