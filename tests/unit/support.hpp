#pragma once
// Small helpers shared by the unit tests: scratch directories, raw file writing, and a backend
// that truncates a file as the reduction starts.
#include <cstdint>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"

namespace dumpcmp::testing {

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes);
std::vector<uint8_t> read_bytes(const std::string& path);
std::string read_text(const std::string& path);

// The cpu backend, but each reduce() first truncates `victim` to 4 KiB: its dump is mapped by
// then, as when another process rewrites a dump while a long batch is read.
class TruncatingBackend final : public Backend {
 public:
  explicit TruncatingBackend(std::string victim) : victim_(std::move(victim)) {}
  std::string_view name() const override { return "cpu"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override;
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                    std::vector<ProbeSums>& sums) override {
    inner_.reduce_probe(jobs, order, sums);
  }

 private:
  std::string victim_;
  CpuBackend inner_{2};
};

}  // namespace dumpcmp::testing
