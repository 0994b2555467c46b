// Reading inputs and writing outputs without surprises (contract section 4):
// inputs are bounded, outputs are written whole or not at all, and never
// replace what the path really is (a symlink's target is written, FIFOs and
// devices are written in place, a read-only file is refused).
#include "util/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "tmap/error.hpp"

namespace tmap::detail {

namespace {

std::string errno_text(int error) {
  return std::strerror(error);
}

/// Closes a descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }
  /// Closes now and reports close's error (NFS reports write errors here).
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

/// Writes everything, retrying short writes and EINTR. Returns 0 or errno.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const auto written = ::write(fd, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

/// The file a path finally names: symlinks followed (also dangling ones,
/// whose target is created), at most 40 of them as the kernel does.
std::filesystem::path resolve_links(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path current(path);
  for (int depth = 0; depth < 40; ++depth) {
    std::error_code ec;
    const auto status = fs::symlink_status(current, ec);
    if (ec || !fs::is_symlink(status)) return current;
    auto target = fs::read_symlink(current, ec);
    if (ec) throw InputError(path, "cannot read the symbolic link: " + ec.message());
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  throw InputError(path, "too many levels of symbolic links");
}

/// The descriptor a path names when it is one of the process's own streams
/// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1. Those are
/// written in place: reopening them would truncate a redirected file or
/// lose the shell's `>>`.
int own_stream(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = std::string_view(path).substr(prefix.size());
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return -1;
    return std::stoi(std::string(digits));
  }
  return -1;
}

}  // namespace

std::string read_text_file(const std::string& path, std::size_t stream_limit) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) throw InputError(path, "cannot open: " + errno_text(errno));
  Fd fd(raw);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw InputError(path, "cannot read: " + errno_text(errno));
  if (S_ISDIR(info.st_mode)) throw InputError(path, "is a directory, not a file");
  const bool regular = S_ISREG(info.st_mode);
  // A regular file's size is known and bounded by the disk; a stream
  // (pipe, FIFO, /dev/zero) is read up to the limit, then refused.
  const std::size_t limit = regular ? static_cast<std::size_t>(info.st_size) : stream_limit;
  std::string content;
  if (regular) content.reserve(limit);
  char buffer[1 << 16];
  for (;;) {
    const auto got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, "read error: " + errno_text(errno));
    }
    if (got == 0) break;
    if (!regular && content.size() + static_cast<std::size_t>(got) > limit) {
      throw InputError(path, "not a regular file and longer than " + std::to_string(limit >> 20) +
                                 " MiB: give the input as a regular file");
    }
    content.append(buffer, static_cast<std::size_t>(got));
  }
  // Editors on some systems start UTF-8 text with a byte-order mark.
  if (std::string_view(content).starts_with(kUtf8Bom)) content.erase(0, kUtf8Bom.size());
  return content;
}

namespace {

/// Writes to one of the process's own descriptors, reporting errors by `name`.
void write_stream(int fd, const std::string& name, std::string_view content) {
  if (fd == STDOUT_FILENO) std::fflush(stdout);
  if (const int error = write_all(fd, content); error != 0)
    throw SystemError(name + ": write error: " + errno_text(error));
}

/// What an output path really is (symlinks followed), refused when it is a
/// folder or a read-only regular file (kept even for root: its owner made it
/// read-only on purpose).
struct OutputTarget {
  std::filesystem::path file;
  struct stat info {};
  bool exists = false;
  [[nodiscard]] bool regular() const { return !exists || S_ISREG(info.st_mode); }
  [[nodiscard]] std::filesystem::path folder() const {
    return file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  }
};

OutputTarget inspect_output(const std::string& path) {
  if (path.empty()) throw ParameterError("the output file name is empty");
  OutputTarget t;
  t.file = resolve_links(path);
  t.exists = ::stat(t.file.c_str(), &t.info) == 0;
  if (!t.exists && errno != ENOENT) throw ParameterError(path + ": cannot write: " + errno_text(errno));
  if (t.exists && S_ISDIR(t.info.st_mode))
    throw ParameterError(path + ": is a directory; cannot write the output there");
  if (t.exists && S_ISREG(t.info.st_mode) && ((t.info.st_mode & 0222) == 0 || ::access(t.file.c_str(), W_OK) != 0)) {
    throw ParameterError(path + ": the file is read-only; not replacing it");
  }
  return t;
}

}  // namespace

void write_output_file(const std::string& path, std::string_view content) {
  if (const int stream = own_stream(path); stream >= 0) {
    write_stream(stream, path, content);
    return;
  }
  const auto target = inspect_output(path);
  if (!target.regular()) {
    // A FIFO, a terminal, /dev/null: written in place, never replaced by a
    // regular file.
    const int raw = ::open(target.file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (raw < 0) throw ParameterError(path + ": cannot write: " + errno_text(errno));
    Fd fd(raw);
    write_stream(fd.get(), path, content);
    if (fd.close() != 0) throw SystemError(path + ": write error: " + errno_text(errno));
    return;
  }

  // A regular file (or none yet): a temporary file beside it, renamed over
  // it, keeping the file's mode.
  const auto folder = target.folder();
  std::string temp = (folder / ("." + target.file.filename().string() + ".tmp.XXXXXX")).string();
  const int raw = ::mkostemp(temp.data(), O_CLOEXEC);
  if (raw < 0) throw ParameterError(path + ": cannot write in " + folder.string() + ": " + errno_text(errno));
  Fd fd(raw);
  auto fail = [&](const std::string& what, int error) {
    ::unlink(temp.c_str());
    throw SystemError(path + ": " + what + ": " + errno_text(error));
  };
  mode_t mode = 0;
  if (target.exists) {
    mode = target.info.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);  // read the umask: set it back at once
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd.get(), mode) != 0) fail("cannot set the file's mode", errno);
  if (const int error = write_all(fd.get(), content); error != 0) fail("write error", error);
  if (::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS) fail("write error", errno);
  if (fd.close() != 0) fail("write error", errno);
  if (::rename(temp.c_str(), target.file.c_str()) != 0) fail("cannot replace the file", errno);
}

void check_output_path(const std::string& path) {
  if (own_stream(path) >= 0) return;
  const auto target = inspect_output(path);
  if (!target.regular()) {
    if (::access(target.file.c_str(), W_OK) != 0) throw ParameterError(path + ": cannot write: " + errno_text(errno));
    return;
  }
  const auto folder = target.folder();
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    throw ParameterError(path + ": cannot write: the folder " + folder.string() + " does not exist");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw ParameterError(path + ": cannot write in " + folder.string() + ": " + errno_text(errno));
  }
}

void write_standard_output(std::string_view content) {
  write_stream(STDOUT_FILENO, "standard output", content);
}

}  // namespace tmap::detail
