#pragma once
// msprobe's real-data compare of an NPU run's dump against a PyTorch run that is never dumped
// (docs/msprobe-live.md): each bench tensor is compared, as the bench run produces it, with the NPU
// row of the same data file name, read from the NPU dump; the bench run's dump.json records then
// give the result rows as msprobe's compare of the two dump.json files writes them.
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "math/probe_pair.hpp"
#include "probe/probe_array.hpp"
#include "probe/probe_compare.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_run.hpp"

namespace dumpcmp {

class ProbeLiveCompare {
 public:
  // Reads the NPU run's dump.json; throws Error(kInput) naming it for what msprobe refuses, and
  // for a dump the bench run cannot be compared against as it runs (MindSpore's).
  // `numpy_major` picks the cells msprobe writes beside numpy 1.x or 2.x (--numpy).
  ProbeLiveCompare(const std::string& npu_dump_json, int numpy_major = 2);

  // How the bench run is recorded: "tensor" (data files compared), "statistics", or "md5"
  // (statistics with each tensor's CRC-32, msprobe's md5 summary).
  std::string mode() const { return npu_.has_md5 ? "md5" : npu_.task; }

  // Compares bench tensor `data_name` (its squeezed shape, dtype and elements, which only
  // `reduce` reads, except a 0-d tensor's, which must be in host memory) with the NPU row of that
  // data file: the cells settled without a reduction, else from reduce(job)'s sums (the job's NPU
  // side is in host memory). False when the NPU dump holds no data file of that name. A data file
  // that cannot be read fails its row (a warning in the result), not the call. Thread-safe.
  bool compare(const std::string& data_name, const ProbeArray& bench,
               const std::function<ProbeSums(const ProbePairJob&)>& reduce);

  // Fails bench tensor `data_name`'s row with `why` (a warning), when the NPU dump holds that data
  // file (else false, and nothing to fail).
  bool fail(const std::string& data_name, const std::string& why);

  // Writes the result as `msprobe compare -tp NPU -gp BENCH -o OUT` writes it for the bench run's
  // dump.json `bench_dump_json` (its records as msprobe's dumper would have written them, without
  // files): `options` give the output directory, --xlsx, --pandas, --html, --hdf5 and the command
  // line for the log; its target_path and golden_path are set here. Throws Error(kUsage) for the
  // options a live compare does not take (mappings, -fm, -da, --config, --quantiles,
  // --consistent_check).
  ProbeRunResult write(std::string bench_dump_json, ProbeRunOptions options) const;

 private:
  std::string path_;  // the NPU dump.json
  int numpy_major_;
  ProbeDump npu_;
  std::unordered_map<std::string, const ProbeRow*> by_data_name_;
  mutable std::mutex mutex_;
  ProbeLivePairs pairs_;
};

}  // namespace dumpcmp
