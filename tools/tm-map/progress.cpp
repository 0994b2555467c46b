#include "progress.hpp"

#include <fmt/format.h>

namespace tmap::cli {

namespace {

/// Runs shorter than this print no progress at the normal level.
constexpr double kQuietSeconds = 2.0;
/// With no report for this long, the heartbeat names the stage still running.
constexpr double kHeartbeatSeconds = 5.0;

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

ProgressPrinter::ProgressPrinter(int level, bool terminal) : level_(level), terminal_(terminal) {
  if (level_ >= 1) beat_ = std::thread([this] { heartbeat(); });
}

ProgressPrinter::~ProgressPrinter() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (beat_.joinable()) beat_.join();
}

bool ProgressPrinter::operator()(const Progress& event) {
  if (level_ < 1) return !interrupted();
  const std::lock_guard lock(mutex_);
  stage_ = std::string(event.stage);
  if (event.elapsed_s < kQuietSeconds && level_ < 2) return !interrupted();
  // "started" lines only live or with -v: as plain lines they would double
  // the output (the heartbeat covers long stages).
  if (event.fraction == 0.0 && !terminal_ && level_ < 2) return !interrupted();
  const auto now = std::chrono::steady_clock::now();
  // Stage boundaries always; steps at most 10 a second live, 1 a second as
  // lines (5 with -v).
  const bool boundary = event.done || event.fraction == 0.0 || event.stage == "best";
  const double gap = terminal_ ? 0.1 : (level_ >= 2 ? 0.2 : 1.0);
  if (boundary || seconds_between(last_, now) >= gap) {
    std::string line = fmt::format("tm-map: {:7.1f} s  {}", event.elapsed_s, event.stage);
    if (!event.detail.empty()) line += fmt::format(": {}", event.detail);
    if (event.fraction > 0.0 && event.fraction <= 1.0 && !event.done) {
      line += fmt::format("  [{:.0f}%]", 100.0 * event.fraction);
    }
    if (event.hop_bytes >= 0) line += fmt::format("  hop_bytes {}", event.hop_bytes);
    if (interrupted()) line += "  (stopping: Ctrl-C again to abort)";
    print(line);
  }
  return !interrupted();
}

void ProgressPrinter::heartbeat() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    if (stopping_ || stage_.empty()) continue;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = seconds_between(start_, now);
    if (elapsed >= kQuietSeconds && seconds_between(last_, now) >= kHeartbeatSeconds) {
      print(fmt::format("tm-map: {:7.1f} s  {}: still running", elapsed, stage_));
    }
  }
}

void ProgressPrinter::print(const std::string& line) {
  last_ = std::chrono::steady_clock::now();
  if (terminal_) {
    // Rewrite the one line in place (carriage return, clear to end of line).
    fmt::print(stderr, "\r\033[K{}", line);
    std::fflush(stderr);
    live_shown_ = true;
  } else {
    fmt::print(stderr, "{}\n", line);
  }
}

void ProgressPrinter::finish() {
  const std::lock_guard lock(mutex_);
  stage_.clear();  // between runs: no heartbeat
  if (live_shown_) {
    fmt::print(stderr, "\r\033[K");
    live_shown_ = false;
  }
}

}  // namespace tmap::cli
