#pragma once
// --device auto where a device backend is built: decided from the work, before touching CUDA.
// The device is made (in the background, as soon as the plan announces its payload) only when the
// model says it finishes the work before this host's cores (DeviceModel, from the figures in
// docs/performance.md); it then reduces every batch, so a run's rows all come from one backend.
// A device that cannot be made, or fails its first batch, leaves the cpu in charge. The choice
// and its reason are reported once, for work of at least kQuietBytes; smaller work runs on the
// cpu without a word.
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"

namespace dumpcmp {

// End-to-end rates of a one-shot run from the page cache, measured on H100 and H200 hosts with 16
// cores (docs/performance.md, 2026-11-27/28): the cpu backend 1.5-1.9 GB/s a core on large
// tensors; the cuda backend 9-25 GB/s after a fixed 0.3 s (context, pinned blocks, teardown).
// --quantiles' counting passes took the cpu 2.6x the plain run (H100 host) to 3x (2 cores, AMD
// EPYC); a device counts the pairs where they are staged, estimated at 1.2x its plain run until
// bench/gpu/measure.sh's --quantiles step has measured it.
struct DeviceModel {
  double cpu_bytes_per_core_second = 1.5e9;
  double device_bytes_per_second = 15e9;
  double device_fixed_seconds = 0.3;
  double cpu_quantiles_factor = 2.6;
  double device_quantiles_factor = 1.2;

  double cpu_seconds(uint64_t bytes, int cores, bool quantiles) const;
  double device_seconds(uint64_t bytes, bool quantiles) const;
  bool device_may_win(uint64_t bytes, int cores, bool quantiles) const {
    return device_seconds(bytes, quantiles) < cpu_seconds(bytes, cores, quantiles);
  }
};

class AutoBackend final : public Backend {
 public:
  static constexpr uint64_t kQuietBytes = 8ull << 20;
  // Makes the device backend, or returns nullptr with the reason.
  using DeviceFactory = std::function<std::unique_ptr<Backend>(std::string& why_not)>;

  // `report` receives one line when the choice is made (may be empty: not reported).
  AutoBackend(std::unique_ptr<Backend> cpu, DeviceFactory make_device, int cores,
              std::function<void(const std::string&)> report, DeviceModel model = {});
  ~AutoBackend() override;

  // The name of the backend that reduces batches now: the cpu's until a device is chosen.
  std::string_view name() const override;
  void expect_payload(uint64_t bytes, bool quantiles) override;
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override;
  void reduce_counting_quantiles(const std::vector<TensorPairJob>& jobs,
                                 std::vector<PairStats>& stats,
                                 std::vector<PairQuantiles>& quantiles,
                                 std::vector<char>& counted) override;
  // On the cpu: a device sums msprobe's dots with one thread per OpenBLAS part
  // (math/probe_pair.hpp), which no device finishes before the cpu's vector code.
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                    std::vector<ProbeSums>& sums) override;

  // The line reported with the choice; empty before it.
  const std::string& choice() const { return choice_; }
  // Whether the device backend has been asked for (CUDA touched).
  bool device_started() const { return started_; }

 private:
  void consider(uint64_t bytes);
  std::string estimate(uint64_t work) const;
  void choose(Backend* backend, std::string line);
  // Runs `reduce` of a batch on the chosen backend, choosing one first if none is yet.
  using Reduce = std::function<void(Backend&)>;
  void route(const std::vector<TensorPairJob>& jobs, const Reduce& reduce);
  // The device's first batch: the device made, tried, and the cpu taking over if it fails.
  void first_on_device(const Reduce& reduce, uint64_t work);

  std::unique_ptr<Backend> cpu_, device_;
  DeviceFactory make_device_;
  int cores_;
  DeviceModel model_;
  uint64_t expected_ = 0;   // the payload the plans announced so far
  bool quantiles_ = false;  // the plans announced --quantiles
  bool started_ = false;
  std::future<std::unique_ptr<Backend>> pending_;
  std::string why_no_device_;
  Backend* chosen_ = nullptr;
  std::string choice_;
  std::function<void(const std::string&)> report_;
};

// Payload bytes of a batch, both sides.
uint64_t batch_payload_bytes(const std::vector<TensorPairJob>& jobs);

}  // namespace dumpcmp
