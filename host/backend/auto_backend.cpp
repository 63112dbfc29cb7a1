#include "backend/auto_backend.hpp"

#include <cstdio>
#include <exception>

#include "core/dtype.hpp"

namespace dumpcmp {
namespace {

double seconds_of(Backend& backend, const std::vector<TensorPairJob>& jobs,
                  std::vector<PairStats>& stats) {
  const auto start = std::chrono::steady_clock::now();
  backend.reduce(jobs, stats);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string milliseconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  return buf;
}

}  // namespace

uint64_t batch_payload_bytes(const std::vector<TensorPairJob>& jobs) {
  uint64_t bytes = 0;
  for (const TensorPairJob& job : jobs) {
    for (const ElementSource* side : {&job.x, &job.y}) {
      const auto held = static_cast<uint64_t>(side->layout ? side->source_count : side->count);
      bytes +=
          side->dtype == DType::kUInt1 ? (held + 7) / 8 : held * dtype_storage_size(side->dtype);
    }
  }
  return bytes;
}

AutoBackend::AutoBackend(std::unique_ptr<Backend> cpu, std::unique_ptr<Backend> device,
                         std::function<void(const std::string&)> report)
    : cpu_(std::move(cpu)), device_(std::move(device)), report_(std::move(report)) {}

std::string_view AutoBackend::name() const { return (chosen_ ? chosen_ : cpu_.get())->name(); }

void AutoBackend::reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) {
  if (chosen_) return chosen_->reduce(jobs, stats);
  const uint64_t bytes = batch_payload_bytes(jobs);
  if (bytes < kMeasureBytes) return cpu_->reduce(jobs, stats);
  // The cpu backend runs first: the device then finds the mapped pages already faulted in, an
  // advantage that only makes a cpu choice safer.
  std::vector<PairStats> on_device;
  const double cpu_s = seconds_of(*cpu_, jobs, stats);
  double device_s = 0;
  try {
    device_s = seconds_of(*device_, jobs, on_device);
  } catch (const std::exception& e) {  // e.g. out of device memory: the cpu backend goes on
    chosen_ = cpu_.get();
    choice_ = "dumpcmp: --device auto chose cpu: the " + std::string(device_->name()) +
              " backend failed on the first batch (" + e.what() + ")";
    if (report_) report_(choice_);
    return;
  }
  const bool device_wins = device_s < cpu_s;
  chosen_ = device_wins ? device_.get() : cpu_.get();
  if (device_wins) stats = std::move(on_device);
  char size[32];
  std::snprintf(size, sizeof size, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  choice_ = "dumpcmp: --device auto chose " + std::string(chosen_->name()) + ": the first batch (" +
            size + ") took " + milliseconds(cpu_s) + " on " + std::string(cpu_->name()) + ", " +
            milliseconds(device_s) + " on " + std::string(device_->name());
  if (report_) report_(choice_);
}

}  // namespace dumpcmp
