// The C entry points of dumpcmp_resident.h's live compare: a PyTorch run's tensors compared, as
// the run produces them, with an NPU run's msprobe dump (host/probe/probe_live), reduced by a
// session's backend where the tensors lie. Exceptions stop here and come back as messages.
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dlpack_dtype.hpp"
#include "core/error.hpp"
#include "dumpcmp_resident.h"
#include "math/blas_dot.hpp"
#include "probe/probe_live.hpp"
#include "resident_session.hpp"

struct dumpcmp_live {
  std::unique_ptr<dumpcmp::ProbeLiveCompare> compare;
};

namespace dumpcmp {
namespace {

// DLPack type codes beyond compared_dlpack_dtype's, which msprobe's compare reads too.
constexpr uint8_t kDlComplex = 5;  // a complex tensor's real parts
constexpr uint8_t kDlFloat8E4M3FN = 10, kDlFloat8E5M2 = 12;

// The lines of `items`, one per line, cut to fit the caller's buffer.
void set_lines(char* out, size_t size, const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += item + "\n";
  copy_to_caller(out, size, text);
}

}  // namespace
}  // namespace dumpcmp

extern "C" {

int dumpcmp_live_open(const char* npu_dump_json, int32_t numpy_major, dumpcmp_live** out,
                      char* task, size_t task_size, char* error, size_t error_size) {
  using namespace dumpcmp;
  try {
    auto live = std::make_unique<dumpcmp_live>();
    live->compare = std::make_unique<ProbeLiveCompare>(npu_dump_json, numpy_major);
    copy_to_caller(task, task_size, live->compare->mode());
    *out = live.release();
    return 0;
  } catch (const std::exception& e) {
    copy_to_caller(error, error_size, e.what());
    return -1;
  }
}

int dumpcmp_live_compare(dumpcmp_live* live, dumpcmp_session* session, const char* data_name,
                         dumpcmp_tensor bench, const int64_t* shape, int32_t ndim, uintptr_t stream,
                         int32_t* compared, char* error, size_t error_size) {
  using namespace dumpcmp;
  try {
    std::optional<DType> dtype = compared_dlpack_dtype(bench.dl_code, bench.dl_bits);
    if (bench.dl_code == kDlComplex && (bench.dl_bits == 64 || bench.dl_bits == 128))
      dtype = bench.dl_bits == 64 ? DType::kComplex64 : DType::kComplex128;
    if (bench.dl_code == kDlFloat8E4M3FN && bench.dl_bits == 8) dtype = DType::kFloat8E4M3FN;
    if (bench.dl_code == kDlFloat8E5M2 && bench.dl_bits == 8) dtype = DType::kFloat8E5M2;
    if (!dtype) {
      *compared = live->compare->fail(data_name, std::string(data_name) +
                                                     ": dumpcmp compares float, bfloat16, float8, "
                                                     "int, uint, bool and complex tensors as they "
                                                     "run");
      return 0;
    }
    const auto reduce = [&](const ProbePairJob& job) {
      std::vector<ProbeSums> sums;
      if (session->resident) {
        session->resident->reduce_probe({job}, host_blas_order(), reinterpret_cast<void*>(stream),
                                        sums);
      } else {
        session->cpu->reduce_probe({job}, host_blas_order(), sums);
      }
      return sums.at(0);
    };
    const ProbeArray array = probe_array_view(static_cast<const uint8_t*>(bench.data), *dtype,
                                              std::vector<int64_t>(shape, shape + ndim));
    *compared = live->compare->compare(data_name, array, reduce);
    return 0;
  } catch (const std::exception& e) {
    copy_to_caller(error, error_size, e.what());
    return -1;
  }
}

int dumpcmp_live_write(dumpcmp_live* live, const char* bench_dump_json, const char* out_dir,
                       int32_t xlsx, int32_t pandas_major, const char* command, char* written,
                       size_t written_size, char* warnings, size_t warnings_size, char* error,
                       size_t error_size) {
  using namespace dumpcmp;
  try {
    ProbeRunOptions options;
    options.output_dir = out_dir;
    options.xlsx = xlsx != 0;
    options.pandas = pandas_major;
    options.command = command != nullptr ? command : "";
    ProbeRunResult result = live->compare->write(bench_dump_json, options);
    if (!result.log.empty()) result.written.push_back(result.log);
    set_lines(written, written_size, result.written);
    set_lines(warnings, warnings_size, result.warnings);
    return 0;
  } catch (const std::exception& e) {
    copy_to_caller(error, error_size, e.what());
    return -1;
  }
}

void dumpcmp_live_close(dumpcmp_live* live) { delete live; }

}  // extern "C"
