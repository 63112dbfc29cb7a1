#include "interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "core/partial_files.hpp"

namespace dumpcmp::cli {
namespace {

// Async-signal-safe only: unlink, write, signal, raise.
void on_interrupt(int sig) {
  partial_files::remove_all();
  constexpr char kMessage[] = "\ndumpcmp: interrupted: partial output files removed\n";
  const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)written;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void remove_partial_files_on_interrupt() {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace dumpcmp::cli
