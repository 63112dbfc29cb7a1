#pragma once
// The one interface between planning and arithmetic: a backend reduces a batch of tensor pairs to
// accumulators. CpuBackend implements it here; the device backends (cuda, thrust-omp) in kernels/.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "math/blas_dot.hpp"
#include "math/element_source.hpp"
#include "math/error_distribution.hpp"
#include "math/pair_stats.hpp"
#include "math/probe_pair.hpp"

namespace dumpcmp {

// One tensor pair to reduce: both sides already validated, with equal element counts.
struct TensorPairJob {
  ElementSource x;  // my output (NPU)
  ElementSource y;  // ground truth
  bool both_bool = false;
  bool need_kld = false;  // run KLD's second pass when the first pass allows it
  // A slice of a larger tensor (one rank's part of it): the whole tensor's first pass, which
  // decides the KLD pass and gives its scales. The slice's own first pass is then not needed (a
  // backend may leave it out). Null: the job is the whole tensor.
  const PairStats* whole = nullptr;
};

// The second (KLD) pass runs for a job that asked for it, is not compared as bools, and whose
// (whole tensor's) first pass found no NaN or inf: every backend decides it here.
inline bool wants_kld_pass(const TensorPairJob& job, const PairStats& first_pass) {
  const PairStats& decides = job.whole ? *job.whole : first_pass;
  return !job.both_bool && job.need_kld && kld_pass_possible(decides.pair);
}

// The scales of the KLD pass: from the whole tensor's first pass for a slice.
inline KldScale kld_scale_x(const TensorPairJob& job, const PairStats& first_pass) {
  return kld_scale(job.whole ? job.whole->pair.x : first_pass.pair.x);
}
inline KldScale kld_scale_y(const TensorPairJob& job, const PairStats& first_pass) {
  return kld_scale(job.whole ? job.whole->pair.y : first_pass.pair.y);
}

// Where element `begin` of a job lies in its payload: through the layout map of the side that has
// one (element i of a device layout is not byte i of the file). Host code visits a job's chunks in
// this order so a layout's gathers walk the file forwards (cpu_backend, quantiles).
inline int64_t first_source_element(const TensorPairJob& job, int64_t begin) {
  for (const ElementSource* side : {&job.x, &job.y}) {
    if (side->layout != nullptr && !side->layout->identity)
      return side->layout->source_index(begin);
  }
  return begin;
}

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // The plan about to run holds `bytes` of payload, both sides (one call per executed plan or
  // part of one), with --quantiles or not: a backend may prepare for it (--device auto decides
  // from it).
  virtual void expect_payload(uint64_t bytes, bool quantiles) {
    (void)bytes;
    (void)quantiles;
  }
  // stats[i] receives the result of jobs[i]. Results must not depend on the thread count.
  virtual void reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) = 0;
  // --quantiles: reduce, and count the distributions (math/error_distribution.hpp) of the jobs
  // whose errors this backend has at hand anyway (a device backend: the large pairs it stages
  // whole) into quantiles[i], setting counted[i]; the caller counts the rest on host threads
  // (quantiles/error_quantiles.hpp). Both come back sized to jobs.
  virtual void reduce_counting_quantiles(const std::vector<TensorPairJob>& jobs,
                                         std::vector<PairStats>& stats,
                                         std::vector<PairQuantiles>& quantiles,
                                         std::vector<char>& counted) {
    reduce(jobs, stats);
    quantiles.assign(jobs.size(), PairQuantiles{});
    counted.assign(jobs.size(), 0);
  }
  // msprobe's real-data compare: sums[i] receives jobs[i]'s order-free metrics and its four dot
  // products, each cut into `order`'s parts and summed in its order (math/probe_pair.hpp). The
  // same bits on every backend and thread count.
  virtual void reduce_probe(const std::vector<ProbePairJob>& jobs, BlasOrder order,
                            std::vector<ProbeSums>& sums) = 0;
};

// --device values. kAuto is cpu unless cuda is compiled in and the plan is large enough for a
// device to finish it first on this host's cores (auto_backend.hpp).
enum class DeviceChoice { kAuto, kCpu, kCuda, kThrustOmp };

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  std::string notice;  // one line for the user when auto fell back, else empty
};

// Throws Error(kDevice) when an explicitly requested backend is not available. device_memory_mb
// bounds the payload a device backend stages at once (0 = its default). `slot` picks the GPU:
// slot modulo the number of devices (the ranks of one host each take their own).
// `report` receives kAuto's choice when it is made (during the run).
BackendSelection make_backend(DeviceChoice choice, int threads, uint64_t device_memory_mb = 0,
                              int slot = 0,
                              std::function<void(const std::string&)> report = nullptr);
bool parse_device_choice(std::string_view text, DeviceChoice& out);

// The backends this binary was built with: "cpu", "cpu, thrust-omp, cuda", ...
std::string built_backends();

}  // namespace dumpcmp
