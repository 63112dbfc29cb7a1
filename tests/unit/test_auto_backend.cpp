// --device auto's choice (backend/auto_backend): the device made, and used for every batch, only
// when the model says it finishes the work before this host's cores; reported once; small work,
// a missing device and a device failing its first batch leave the cpu backend in charge.
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
  void reduce_probe(const std::vector<ProbePairJob>&, BlasOrder, std::vector<ProbeSums>&) override {
    throw std::logic_error("not a probe test");
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
const int64_t kLarge = AutoBackend::kQuietBytes / 8;  // two float32 sides: the threshold
const int64_t kSmall = kLarge / 4;

// A model under which the device may win any work: the measurement decides.
DeviceModel device_may_win() {
  DeviceModel m;
  m.cpu_bytes_per_core_second = 1.0;
  m.device_fixed_seconds = 0.0;
  return m;
}

struct Rig {
  int cpu_calls = 0, device_calls = 0, devices_made = 0;
  std::vector<std::string> reports;
  std::unique_ptr<AutoBackend> backend(int cpu_ms, int device_ms, bool device_fails = false,
                                       DeviceModel model = device_may_win(), int cores = 16,
                                       bool no_device = false) {
    auto make_device = [=](std::string& why_not) -> std::unique_ptr<Backend> {
      ++devices_made;
      if (no_device) {
        why_not = "no CUDA device";
        return nullptr;
      }
      return std::make_unique<FakeBackend>("cuda", std::chrono::milliseconds(device_ms), kDeviceTag,
                                           &device_calls, device_fails);
    };
    return std::make_unique<AutoBackend>(
        std::make_unique<FakeBackend>("cpu", std::chrono::milliseconds(cpu_ms), kCpuTag,
                                      &cpu_calls),
        make_device, cores, [this](const std::string& line) { reports.push_back(line); }, model);
  }
};

float tag_of(AutoBackend& b, int64_t elements) {
  std::vector<PairStats> stats;
  b.reduce(batch(elements), stats);
  return stats.at(0).pair.max_abs_d;
}

TEST(AutoBackend, SmallWorkRunsOnTheCpuWithoutAWord) {
  Rig run;
  auto b = run.backend(0, 0, false, DeviceModel{}, 16);
  EXPECT_EQ(tag_of(*b, kSmall), kCpuTag);
  EXPECT_EQ(tag_of(*b, kSmall), kCpuTag);
  EXPECT_EQ(run.devices_made, 0);
  EXPECT_TRUE(run.reports.empty());
  EXPECT_EQ(b->name(), "cpu");  // what ran them (the run's summary names it)
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
  EXPECT_EQ(b->name(), "cpu");
}

TEST(AutoBackend, WorkTooSmallForTheDeviceNeverMakesIt) {
  Rig run;
  auto b = run.backend(0, 0, false, DeviceModel{}, 16);
  b->expect_payload(AutoBackend::kQuietBytes, false);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_FALSE(b->device_started());
  EXPECT_EQ(run.devices_made, 0);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("chose cpu: 8.0 MiB on 16 cores, estimated 0.3 ms on cpu and "
                                "300.6 ms on a device"),
            std::string::npos)
      << run.reports[0];
}

TEST(AutoBackend, ALargePlanOnFewCoresRunsEveryBatchOnTheDevice) {
  Rig run;
  auto b = run.backend(0, 0, false, DeviceModel{}, 1);
  b->expect_payload(uint64_t{8} << 30, false);
  EXPECT_TRUE(b->device_started());  // made in the background before the first batch
  EXPECT_EQ(tag_of(*b, kSmall), kDeviceTag);
  EXPECT_EQ(tag_of(*b, kLarge), kDeviceTag);
  EXPECT_EQ(run.devices_made, 1);
  EXPECT_EQ(run.cpu_calls, 0);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("chose cuda: 8192.0 MiB on 1 cores, estimated 5726.6 ms on cpu "
                                "and 872.7 ms on a device"),
            std::string::npos)
      << run.reports[0];
  EXPECT_EQ(b->name(), "cuda");
}

// 8 GiB on 8 cores: the cpu's plain run is estimated below the device's, its run with
// --quantiles' counting passes above.
TEST(AutoBackend, QuantilesWeighTheCpusCountingPasses) {
  Rig plain_run, quantiles_run;
  auto plain = plain_run.backend(0, 0, false, DeviceModel{}, 8);
  plain->expect_payload(uint64_t{8} << 30, false);
  EXPECT_FALSE(plain->device_started());
  auto counted = quantiles_run.backend(0, 0, false, DeviceModel{}, 8);
  counted->expect_payload(uint64_t{8} << 30, true);
  EXPECT_TRUE(counted->device_started());
  std::vector<PairStats> stats;
  std::vector<PairQuantiles> quantiles;
  std::vector<char> done;
  counted->reduce_counting_quantiles(batch(kLarge), stats, quantiles, done);
  EXPECT_EQ(stats.at(0).pair.max_abs_d, kDeviceTag);
  ASSERT_EQ(quantiles_run.reports.size(), 1u);
  EXPECT_NE(quantiles_run.reports[0].find("chose cuda: 8192.0 MiB on 8 cores, estimated 1861.2 ms "
                                          "on cpu and 987.2 ms on a device"),
            std::string::npos)
      << quantiles_run.reports[0];
}

TEST(AutoBackend, NoUsableDeviceLeavesTheCpu) {
  Rig run;
  auto b = run.backend(0, 0, false, device_may_win(), 16, true);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(tag_of(*b, kLarge), kCpuTag);
  EXPECT_EQ(run.devices_made, 1);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_NE(run.reports[0].find("chose cpu: no usable CUDA device (no CUDA device)"),
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
