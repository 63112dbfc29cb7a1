#include "core/phase_trace.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace dumpcmp {
namespace {

std::mutex& trace_mutex() {
  static std::mutex m;
  return m;
}

std::vector<TracePhase>& phases() {
  static std::vector<TracePhase> p;
  return p;
}

}  // namespace

bool trace_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("DUMPCMP_TRACE");
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

void trace_add(const char* name, double seconds, uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(trace_mutex());
  for (TracePhase& p : phases()) {
    if (p.name != name) continue;
    p.seconds += seconds;
    p.bytes += bytes;
    ++p.calls;
    return;
  }
  phases().push_back({name, seconds, 1, bytes});
}

std::vector<TracePhase> trace_phases() {
  const std::lock_guard<std::mutex> lock(trace_mutex());
  return phases();
}

}  // namespace dumpcmp
