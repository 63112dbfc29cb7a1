#include "report/progress_line.hpp"

#include <cstdio>

namespace dumpcmp {

namespace {
constexpr double kRedrawSeconds = 0.2;
}

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::function<double()> now,
                           std::string unit)
    : out_(out), enabled_(enabled), now_(std::move(now)), unit_(std::move(unit)) {
  if (enabled_) start_ = now_();
}

std::string ProgressLine::text(int64_t done, int64_t total, uint64_t bytes, double elapsed,
                               const std::string& unit) {
  char buf[160];
  const double mb = static_cast<double>(bytes) / 1e6;
  const double rate = elapsed > 0 ? mb / elapsed : 0;
  std::string eta = "--:--";
  if (done > 0 && total >= done && elapsed > 0) {
    const auto left = static_cast<int64_t>(
        elapsed * static_cast<double>(total - done) / static_cast<double>(done) + 0.5);
    char e[32];
    std::snprintf(e, sizeof e, "%lld:%02lld", static_cast<long long>(left / 60),
                  static_cast<long long>(left % 60));
    eta = e;
  }
  const int percent = total > 0 ? static_cast<int>(100 * done / total) : 0;
  std::snprintf(buf, sizeof buf, "dumpcmp: %lld/%lld %s (%d%%), %.1f MB, %.1f MB/s, ETA %s",
                static_cast<long long>(done), static_cast<long long>(total), unit.c_str(), percent,
                mb, rate, eta.c_str());
  return buf;
}

void ProgressLine::update(int64_t done, int64_t total, uint64_t bytes) {
  if (!enabled_) return;
  const double t = now_();
  if (last_ >= 0 && t - last_ < kRedrawSeconds && done < total) return;
  last_ = t;
  out_ << '\r' << text(done, total, bytes, t - start_, unit_) << "\033[K" << std::flush;
  drawn_ = true;
}

void ProgressLine::finish() {
  if (drawn_) out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace dumpcmp
