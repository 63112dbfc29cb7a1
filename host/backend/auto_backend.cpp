#include "backend/auto_backend.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "core/dtype.hpp"

namespace dumpcmp {
namespace {

std::string milliseconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  return buf;
}

std::string mebibytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
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

double DeviceModel::cpu_seconds(uint64_t bytes, int cores, bool quantiles) const {
  return static_cast<double>(bytes) / (std::max(cores, 1) * cpu_bytes_per_core_second) *
         (quantiles ? cpu_quantiles_factor : 1.0);
}

double DeviceModel::device_seconds(uint64_t bytes, bool quantiles) const {
  return device_fixed_seconds + static_cast<double>(bytes) / device_bytes_per_second *
                                    (quantiles ? device_quantiles_factor : 1.0);
}

AutoBackend::AutoBackend(std::unique_ptr<Backend> cpu, DeviceFactory make_device, int cores,
                         std::function<void(const std::string&)> report, DeviceModel model)
    : cpu_(std::move(cpu)),
      make_device_(std::move(make_device)),
      cores_(cores),
      model_(model),
      report_(std::move(report)) {}

AutoBackend::~AutoBackend() {
  if (pending_.valid()) pending_.wait();  // a device made for nothing is still torn down in order
}

std::string_view AutoBackend::name() const { return (chosen_ ? chosen_ : cpu_.get())->name(); }

void AutoBackend::expect_payload(uint64_t bytes, bool quantiles) {
  expected_ += bytes;
  quantiles_ = quantiles_ || quantiles;
  consider(expected_);
}

// Starts making the device in the background once the work is large enough for it to win.
void AutoBackend::consider(uint64_t bytes) {
  if (started_ || chosen_ || !model_.device_may_win(bytes, cores_, quantiles_)) return;
  started_ = true;
  pending_ = std::async(std::launch::async, [this] { return make_device_(why_no_device_); });
}

void AutoBackend::choose(Backend* backend, std::string line) {
  chosen_ = backend;
  choice_ = std::move(line);
  if (report_) report_(choice_);
}

std::string AutoBackend::estimate(uint64_t work) const {
  char line[160];
  std::snprintf(line, sizeof line, "%s on %d cores, estimated %s on cpu and %s on a device",
                mebibytes(work).c_str(), cores_,
                milliseconds(model_.cpu_seconds(work, cores_, quantiles_)).c_str(),
                milliseconds(model_.device_seconds(work, quantiles_)).c_str());
  return line;
}

void AutoBackend::reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) {
  route(jobs, [&](Backend& b) { b.reduce(jobs, stats); });
}

void AutoBackend::reduce_counting_quantiles(const std::vector<TensorPairJob>& jobs,
                                            std::vector<PairStats>& stats,
                                            std::vector<PairQuantiles>& quantiles,
                                            std::vector<char>& counted) {
  route(jobs, [&](Backend& b) { b.reduce_counting_quantiles(jobs, stats, quantiles, counted); });
}

void AutoBackend::route(const std::vector<TensorPairJob>& jobs, const Reduce& reduce) {
  if (chosen_) return reduce(*chosen_);
  const uint64_t work = std::max(expected_, batch_payload_bytes(jobs));
  consider(work);
  if (started_) return first_on_device(reduce, work);
  if (work >= kQuietBytes)
    choose(cpu_.get(), "dumpcmp: --device auto chose cpu: " + estimate(work));
  reduce(*cpu_);
}

void AutoBackend::reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                               std::vector<ProbeSums>& sums) {
  cpu_->reduce_probe(jobs, order, sums);
}

void AutoBackend::first_on_device(const Reduce& reduce, uint64_t work) {
  device_ = pending_.get();
  if (!device_) {
    choose(cpu_.get(),
           "dumpcmp: --device auto chose cpu: no usable CUDA device (" + why_no_device_ + ")");
    return reduce(*cpu_);
  }
  try {
    reduce(*device_);
  } catch (const std::exception& e) {  // e.g. out of device memory: the cpu backend goes on
    choose(cpu_.get(), "dumpcmp: --device auto chose cpu: the " + std::string(device_->name()) +
                           " backend failed on the first batch (" + e.what() + ")");
    return reduce(*cpu_);
  }
  choose(device_.get(),
         "dumpcmp: --device auto chose " + std::string(device_->name()) + ": " + estimate(work));
}

}  // namespace dumpcmp
