// Ctrl-C (SIGINT) and SIGTERM (a scheduler's time limit) ask a tool's run
// to stop instead of killing it: a flag the run checks, so it can write a
// partial result (tm-map) or stop its children and clean up (tm-sim).
#pragma once

namespace tmap::cli {

/// Installs the handlers; a second signal kills as usual (SA_RESETHAND).
void stop_on_interrupt();
/// Whether a signal arrived.
[[nodiscard]] bool interrupted();

}  // namespace tmap::cli
