#include "interrupt.hpp"

#include <atomic>
#include <csignal>

namespace tmap::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int /*signal*/) {
  g_interrupted = true;  // the default action is back (SA_RESETHAND): a second Ctrl-C kills
}

}  // namespace

void stop_on_interrupt() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);  // a scheduler's time limit sends SIGTERM first
}

bool interrupted() {
  return g_interrupted.load();
}

}  // namespace tmap::cli
