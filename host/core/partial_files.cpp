#include "core/partial_files.hpp"

#include <unistd.h>

#include <atomic>
#include <cstring>

namespace dumpcmp::partial_files {
namespace {

// Partial files open at once: a compare's CSV and HDF5 file, a tree's leaves in flight.
constexpr int kSlots = 256;
constexpr std::size_t kMaxPath = 4096;

enum State : int { kFree, kFilling, kReady };

struct Slot {
  std::atomic<int> state{kFree};
  char path[kMaxPath];
};

Slot g_slots[kSlots];

}  // namespace

Registration::Registration(const std::string& partial_path) {
  if (partial_path.size() >= kMaxPath) return;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, partial_path.c_str(), partial_path.size() + 1);
    g_slots[i].state.store(kReady, std::memory_order_release);
    slot_ = i;
    return;
  }
}

Registration::~Registration() {
  if (slot_ >= 0) g_slots[slot_].state.store(kFree, std::memory_order_release);
}

void remove_all() {
  for (Slot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == kReady) ::unlink(slot.path);
  }
}

}  // namespace dumpcmp::partial_files
