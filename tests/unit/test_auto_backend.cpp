// --device auto's choice (backend/auto_backend): measured on the first large batch, the faster
// backend kept for the rest and for that batch's results, reported once; small batches and a
// failing device leave the cpu backend in charge.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "backend/auto_backend.hpp"

namespace dumpcmp {
namespace {

// A backend that takes `delay` per batch and tags its results with `tag` (in max_abs_d).
class FakeBackend final : public Backend {
 public:
  FakeBackend(std::string name, std::chrono::milliseconds delay, float tag, int* calls,
              bool fails = false)
      : name_(std::move(name)), delay_(delay), tag_(tag), calls_(calls), fails_(fails) {}
  std::string_view name() const override { return name_; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override {
    ++*calls_;
    if (fails_) throw std::runtime_error("out of device memory");
    std::this_thread::sleep_for(delay_);
    stats.assign(jobs.size(), PairStats{});
    for (PairStats& s : stats) s.pair.max_abs_d = tag_;
  }

 private:
  std::string name_;
  std::chrono::milliseconds delay_;
  float tag_;
  int* calls_;
  bool fails_;
};

// A batch of one float32 pair of `elements` elements a side (the data is never read).
std::vector<TensorPairJob> batch(int64_t elements) {
  TensorPairJob job;
  job.x = {nullptr, DType::kFloat, elements};
  job.y = {nullptr, DType::kFloat, elements};
  return {job};
}

constexpr float kCpuTag = 1.0f, kDeviceTag = 2.0f;
const int64_t kLarge = AutoBackend::kMeasureBytes / 8;  // two float32 sides: the threshold
const int64_t kSmall = kLarge / 4;

struct Rig {
  int cpu_calls = 0, device_calls = 0;
  std::vector<std::string> reports;
  std::unique_ptr<AutoBackend> backend(int cpu_ms, int device_ms, bool device_fails = false) {
    return std::make_unique<AutoBackend>(
        std::make_unique<FakeBackend>("cpu", std::chrono::milliseconds(cpu_ms), kCpuTag,
                                      &cpu_calls),
        std::make_unique<FakeBackend>("cuda", std::chrono::milliseconds(device_ms), kDeviceTag,
                                      &device_calls, device_fails),
        [this](const std::string& line) { reports.push_back(line); });
  }
};

float tag_of(AutoBackend& b, int64_t elements) {
  std::vector<PairStats> stats;
  b.reduce(batch(elements), stats);
  return stats.at(0).pair.max_abs_d;
}

TEST(AutoBackend, SmallBatchesRunOnTheCpuWithoutMeasuring) {
  Rig run;
  auto b = run.backend(0, 0);
  EXPECT_EQ(tag_of(*b, kSmall), kCpuTag);
  EXPECT_EQ(tag_of(*b, kSmall), kCpuTag);
  EXPECT_EQ(run.device_calls, 0);
  EXPECT_TRUE(run.reports.empty());
  EXPECT_EQ(b->name(), "cpu");  // what ran them (the run's summary names it)
}

TEST(AutoBackend, KeepsTheCpuWhenTheDeviceIsSlower) {
  Rig run;
  auto b = run.backend(1, 60);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(tag_of(*b, kSmall), kCpuTag);
  EXPECT_EQ(run.device_calls, 1);  // the measurement only
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("chose cpu: the first batch (8.0 MiB)"), std::string::npos)
      << run.reports[0];
  EXPECT_EQ(b->name(), "cpu");
}

TEST(AutoBackend, TakesTheDeviceWhenItIsFasterFromTheMeasuredBatchOn) {
  Rig run;
  auto b = run.backend(60, 1);
  EXPECT_EQ(tag_of(*b, kLarge), kDeviceTag);  // the measured batch's rows come from the device
  EXPECT_EQ(tag_of(*b, kSmall), kDeviceTag);
  EXPECT_EQ(run.cpu_calls, 1);
  EXPECT_EQ(run.device_calls, 2);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("chose cuda"), std::string::npos) << run.reports[0];
  EXPECT_EQ(b->name(), "cuda");
}

TEST(AutoBackend, AFailingDeviceLeavesTheCpu) {
  Rig run;
  auto b = run.backend(0, 0, true);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(run.device_calls, 1);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("failed on the first batch (out of device memory)"),
            std::string::npos)
      << run.reports[0];
}

TEST(AutoBackend, CountsPayloadBytesOfBothSides) {
  std::vector<TensorPairJob> jobs = batch(10);
  jobs[0].y.dtype = DType::kFloat16;
  EXPECT_EQ(batch_payload_bytes(jobs), 60u);
}

}  // namespace
}  // namespace dumpcmp
