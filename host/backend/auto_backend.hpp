#pragma once
// --device auto where a device backend is usable: measure, then choose. The first batch of at
// least kMeasureBytes is reduced by both backends, each timed; the faster one reduces every later
// batch (and gives the measured batch's results, so a run's rows all come from one backend). The
// choice and its reason are reported once. Smaller batches before it run on the cpu backend:
// too little work for a device to pay for its transfers, and too little to time.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"

namespace dumpcmp {

class AutoBackend final : public Backend {
 public:
  static constexpr uint64_t kMeasureBytes = 8ull << 20;

  // `report` receives one line when the choice is made (may be empty: not reported).
  AutoBackend(std::unique_ptr<Backend> cpu, std::unique_ptr<Backend> device,
              std::function<void(const std::string&)> report);

  // The name of the backend that reduces batches now: the cpu's until a device is chosen.
  std::string_view name() const override;
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override;

  // The line reported with the choice; empty before it.
  const std::string& choice() const { return choice_; }

 private:
  std::unique_ptr<Backend> cpu_, device_;
  Backend* chosen_ = nullptr;
  std::string choice_;
  std::function<void(const std::string&)> report_;
};

// Payload bytes of a batch, both sides (what the measurement threshold counts).
uint64_t batch_payload_bytes(const std::vector<TensorPairJob>& jobs);

}  // namespace dumpcmp
