#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "tmap/error.hpp"
#include "tmap/io.hpp"

namespace tmap {

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  std::string content;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size > 0) {
    content.resize(static_cast<std::size_t>(size));
    in.seekg(0, std::ios::beg);
    in.read(content.data(), size);
  } else {  // a pipe or special file: read as a stream
    in.clear();
    in.seekg(0, std::ios::beg);
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (in.bad()) throw InputError(path, "read error");
  return content;
}

void write_file_atomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw InputError(path, "is a directory; cannot write the output there");
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // A unique temporary name next to the target, so rename() is atomic.
  const auto unique = std::to_string(std::random_device{}()) + std::to_string(::getpid());
  const fs::path temp = folder / ("." + target.filename().string() + ".tmp" + unique);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, std::string("cannot write: ") + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      fs::remove(temp, ec);
      throw InputError(path, "write error (disk full?)");
    }
  }
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw InputError(path, "cannot replace the file: " + ec.message());
  }
}

}  // namespace tmap
