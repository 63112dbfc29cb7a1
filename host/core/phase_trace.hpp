#pragma once
// DUMPCMP_TRACE=1: where a run's time goes, phase by phase (wall seconds, calls and bytes, summed
// by name in the order first seen), collected by the library and printed by the CLI at the end.
// Unset, a TraceScope costs one test of a cached flag.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace dumpcmp {

struct TracePhase {
  std::string name;
  double seconds = 0;
  int64_t calls = 0;
  uint64_t bytes = 0;
};

bool trace_enabled();
// Thread-safe: phases timed on worker threads add to the same totals.
void trace_add(const char* name, double seconds, uint64_t bytes = 0);
std::vector<TracePhase> trace_phases();

// Times its own lifetime as phase `name` (a string literal) when tracing is on.
class TraceScope {
 public:
  explicit TraceScope(const char* name, uint64_t bytes = 0)
      : name_(trace_enabled() ? name : nullptr), bytes_(bytes) {
    if (name_) start_ = std::chrono::steady_clock::now();
  }
  ~TraceScope() {
    if (name_) {
      trace_add(name_,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(),
                bytes_);
    }
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  const char* name_;
  uint64_t bytes_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dumpcmp
