// tm-map's progress on stderr, fed by the library's Context::progress: a
// live single line on a terminal, plain lines otherwise; nothing for runs
// shorter than ~2 s unless -v. A heartbeat says which stage is still running
// when a step takes long (a libscotch call, a large construction). Ctrl-C
// once stops the run at its next step (the best mapping so far is written,
// marked partial); twice aborts.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "interrupt.hpp"
#include "tmap/mapper.hpp"

namespace tmap::cli {

class ProgressPrinter {
 public:
  /// `level`: 0 silent (-q), 1 normal, 2+ every step (-v).
  ProgressPrinter(int level, bool terminal);
  ~ProgressPrinter();
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;

  /// The Context::progress callback: prints, and returns false after Ctrl-C.
  bool operator()(const Progress& event);
  /// Ends a live line, if one is showing (call before printing anything else).
  void finish();

 private:
  void print(const std::string& line);
  void heartbeat();

  int level_;
  bool terminal_;
  std::mutex mutex_;
  bool live_shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_ - std::chrono::hours(1);
  std::string stage_;  ///< the stage last reported, for the heartbeat
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread beat_;
};

}  // namespace tmap::cli
