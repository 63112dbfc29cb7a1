#include "core/sigbus_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace dumpcmp::sigbus_guard {
namespace {

// Mappings open at once: dumps over MappedFile::kReadThreshold held by a batch or a plan's cache.
constexpr int kSlots = 4096;

struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<uintptr_t> begin{0};  // 0 while the slot is being set up or torn down
  std::atomic<uintptr_t> end{0};    // page-rounded
  std::atomic<bool> faulted{false};
};

Slot g_slots[kSlots];
struct sigaction g_previous {};
uintptr_t g_page_size = 4096;

// Async-signal-safe: atomics on lock-free words, mmap, sigaction and raise only.
void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (begin == 0 || address < begin) continue;
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    if (address >= end) continue;
    // Everything past the faulting page lies past the file's new end too: zeros for all of it.
    const uintptr_t page = address & ~(g_page_size - 1);
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    slot.faulted.store(true, std::memory_order_release);
    return;
  }
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    // Not a watched mapping: die of it as before. Returning re-runs the access under SIG_DFL.
    signal(SIGBUS, SIG_DFL);
  }
}

void install() {
  g_page_size = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

int watch(const void* begin, std::size_t size) {
  static std::once_flag installed;
  std::call_once(installed, install);
  const auto b = reinterpret_cast<uintptr_t>(begin);
  const uintptr_t end = (b + size + g_page_size - 1) & ~(g_page_size - 1);
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = g_slots[i];
    bool expected = false;
    if (!slot.taken.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
    slot.faulted.store(false, std::memory_order_relaxed);
    slot.end.store(end, std::memory_order_release);
    slot.begin.store(b, std::memory_order_release);
    return i;
  }
  return -1;
}

bool damaged(int slot) {
  return slot >= 0 && g_slots[slot].faulted.load(std::memory_order_acquire);
}

void unwatch(int slot) {
  if (slot < 0) return;
  g_slots[slot].begin.store(0, std::memory_order_release);
  g_slots[slot].taken.store(false, std::memory_order_release);
}

}  // namespace dumpcmp::sigbus_guard
