// Files as tmap reads and writes them: bounded inputs, outputs that are
// written whole or not at all and never replace what the path really is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tmap::detail {

/// Most bytes read from an input that is not a regular file (a pipe, a FIFO,
/// a device such as /dev/zero): 256 MiB, far above any matrix given that way.
inline constexpr std::size_t kMaxStreamInput = std::size_t{256} << 20;

/// Reads a whole input; a leading UTF-8 byte-order mark is dropped.
/// InputError naming the path when it cannot be opened or read, is a
/// directory, or is a stream longer than `stream_limit`.
[[nodiscard]] std::string read_text_file(const std::string& path, std::size_t stream_limit = kMaxStreamInput);

/// Writes `content` to `path`:
/// - a regular file (or a new one): a temporary file in the same folder,
///   then rename, keeping the file's mode; refused when it is not writable;
/// - a symbolic link: the same for the file it points to (the link stays);
/// - a FIFO, a device, /dev/stdout: written in place.
/// Every write, sync and close error throws InputError naming the path, and
/// no partial regular file is left behind.
void write_output_file(const std::string& path, std::string_view content);

/// Checks, before any work, that `path` can take an output: not a directory,
/// not a read-only file, in a folder that exists and may be written (own
/// streams and devices pass). InputError naming the path otherwise, so a
/// run fails before it writes anything.
void check_output_path(const std::string& path);

/// Writes to standard output and reports a write error (a full disk, a
/// closed pipe) as InputError.
void write_standard_output(std::string_view content);

}  // namespace tmap::detail
