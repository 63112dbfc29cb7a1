// The thrust-omp backend: the device path (thrust_reducer.inl) built by the host compiler for
// Thrust's OpenMP device system, so the GPU's code path runs, and is tested, on CPU threads.
#include <omp.h>

#include "device_backends.hpp"
#include "omp_glue.hpp"
#include "probe_reduction.inl"
#include "resident_probe.inl"
#include "resident_reduction.inl"
#include "thrust_reducer.inl"

namespace dumpcmp {
namespace {

class ThrustOmpBackend final : public Backend {
 public:
  explicit ThrustOmpBackend(const DeviceOptions& options)
      : reducer_(options), probe_(options.memory_budget), threads_(options.threads) {}
  std::string_view name() const override { return "thrust-omp"; }
  void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) override {
    omp_set_num_threads(threads_);
    reducer_.reduce(jobs, stats);
  }
  void reduce_counting_quantiles(const std::vector<TensorPairJob>& jobs,
                                 std::vector<PairStats>& stats,
                                 std::vector<PairQuantiles>& quantiles,
                                 std::vector<char>& counted) override {
    omp_set_num_threads(threads_);
    reducer_.reduce(jobs, stats, &quantiles, &counted);
  }
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                    std::vector<ProbeSums>& sums) override {
    omp_set_num_threads(threads_);
    probe_.reduce(jobs, order, sums);
  }

 private:
  device::ThrustReducer<device::OmpGlue> reducer_;
  device::ProbeReduction probe_;
  int threads_;
};

class ThrustOmpResident final : public ResidentReducer {
 public:
  explicit ThrustOmpResident(int threads) : threads_(threads) {}
  std::string_view name() const override { return "thrust-omp"; }
  void reduce(const std::vector<TensorPairJob>& jobs, void*, std::vector<PairStats>& stats,
              std::vector<PairQuantiles>* quantiles) override {
    omp_set_num_threads(threads_);
    device::OmpGlue::Stream stream;
    reduction_.reduce(jobs, stream, stats, quantiles, threads_);
  }
  void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order, void*,
                    std::vector<ProbeSums>& sums) override {
    omp_set_num_threads(threads_);
    device::OmpGlue::Stream stream;
    probe_.reduce(jobs, order, stream, sums);
  }

 private:
  device::ResidentReduction<device::OmpGlue> reduction_;
  device::ResidentProbeReduction<device::OmpGlue> probe_;
  int threads_;
};

}  // namespace

std::unique_ptr<ResidentReducer> make_thrust_omp_resident_reducer(int threads) {
  return std::make_unique<ThrustOmpResident>(threads > 0 ? threads : omp_get_num_procs());
}

std::unique_ptr<Backend> make_thrust_omp_backend(const DeviceOptions& options) {
  DeviceOptions o = options;
  if (o.threads <= 0) o.threads = omp_get_num_procs();
  return std::make_unique<ThrustOmpBackend>(o);
}

}  // namespace dumpcmp
