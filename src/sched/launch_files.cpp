// The files launchers read (tmap/launch.hpp).
#include <fmt/format.h>

#include <iterator>

#include "tmap/error.hpp"
#include "tmap/launch.hpp"

namespace tmap {

bool is_launch_format(MappingFormat format) noexcept {
  return format == MappingFormat::Rankfile || format == MappingFormat::Hostfile ||
         format == MappingFormat::Machinefile || format == MappingFormat::Hydra;
}

std::string format_launch_file(MappingFormat format, std::span<const PE> mapping,
                               const std::function<std::string(PE)>& host_of,
                               const std::function<std::string(PE)>& slot_of, const std::string& program) {
  if (!is_launch_format(format)) throw InternalError("not a launcher format");
  if (!host_of || (format == MappingFormat::Rankfile && !slot_of)) {
    throw InternalError("launcher formats need host names and slots");
  }
  if (format == MappingFormat::Hydra && program.empty()) {
    throw ParameterError("the hydra format writes a Hydra -configfile and needs the program to launch");
  }
  fmt::memory_buffer out;
  auto it = std::back_inserter(out);
  if (format == MappingFormat::Rankfile) {
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      fmt::format_to(it, "rank {}={} slot={}\n", r, host_of(mapping[r]), slot_of(mapping[r]));
    }
  } else if (format == MappingFormat::Hostfile) {
    for (const PE p : mapping) fmt::format_to(it, "{}\n", host_of(p));
  } else {
    // Runs of consecutive ranks on one host: ranks are placed in order.
    for (std::size_t r = 0; r < mapping.size();) {
      const auto host = host_of(mapping[r]);
      std::size_t end = r + 1;
      while (end < mapping.size() && host_of(mapping[end]) == host) ++end;
      if (format == MappingFormat::Hydra) {
        fmt::format_to(it, "-n {} -host {} {}\n", end - r, host, program);
      } else {
        fmt::format_to(it, "{}:{}\n", host, end - r);
      }
      r = end;
    }
  }
  return fmt::to_string(out);
}

}  // namespace tmap
