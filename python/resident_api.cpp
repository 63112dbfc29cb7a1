// The C entry point of dumpcmp_resident.h: tensors where they live, reduced by one backend, the
// results as plain C structs. Exceptions stop here and come back as messages.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "core/dlpack_dtype.hpp"
#include "core/error.hpp"
#include "device_backends.hpp"
#include "dumpcmp_resident.h"
#include "metrics/metric_table.hpp"
#include "quantiles/error_quantiles.hpp"
#include "resident_session.hpp"

namespace dumpcmp {

void copy_to_caller(char* out, size_t size, const std::string& text) {
  if (out != nullptr && size > 0) std::snprintf(out, size, "%s", text.c_str());
}

namespace {

DType dtype_of(const dumpcmp_tensor& t) {
  if (const std::optional<DType> d = compared_dlpack_dtype(t.dl_code, t.dl_bits)) return *d;
  throw Error(ExitCode::kInput,
              "dumpcmp compares float, bfloat16, int, uint and bool tensors (got "
              "DLPack code " +
                  std::to_string(t.dl_code) + ", " + std::to_string(t.dl_bits) + " bits)");
}

TensorPairJob job_of(const dumpcmp_pair& p, bool with_kld) {
  if (p.x.count != p.y.count || p.x.count < 0) {
    throw Error(ExitCode::kInput, "the tensors hold " + std::to_string(p.x.count) + " and " +
                                      std::to_string(p.y.count) + " elements");
  }
  TensorPairJob job;
  job.x = {static_cast<const uint8_t*>(p.x.data), dtype_of(p.x), p.x.count};
  job.y = {static_cast<const uint8_t*>(p.y.data), dtype_of(p.y), p.y.count};
  job.both_bool = job.x.dtype == DType::kBool && job.y.dtype == DType::kBool;
  job.need_kld = with_kld;
  return job;
}

dumpcmp_side_stats side_of(const SideStats& s) {
  return {s.nan, s.pos_inf, s.neg_inf, s.finite, s.mean, s.m2, s.min, s.max};
}

void fill(const PairStats& s, bool scalar, dumpcmp_pair_result& r) {
  r = dumpcmp_pair_result{};
  const PairAccumulator& a = s.pair;
  r.both_bool = s.both_bool;
  r.has_kld = s.kld.has_value();
  r.n = a.n;
  r.sum_xx = a.sum_xx;
  r.sum_yy = a.sum_yy;
  r.sum_xy = a.sum_xy;
  r.sum_d2 = a.sum_d2;
  r.sum_abs_d = a.sum_abs_d;
  r.sum_rel = a.sum_rel;
  r.max_abs_d = a.max_abs_d;
  r.max_rel = a.max_rel;
  r.nan_abs_d = a.nan_abs_d;
  r.nan_rel = a.nan_rel;
  r.x = side_of(a.x);
  r.y = side_of(a.y);
  if (s.kld) {
    r.kld_sum_p = s.kld->sum_p;
    r.kld_sum_q = s.kld->sum_q;
    r.kld_sum_plogpq = s.kld->sum_plogpq;
  }
  r.bool_n = s.boolean.n;
  r.x_true = s.boolean.x_true;
  r.y_true = s.boolean.y_true;
  r.both_true = s.boolean.both_true;
  const PairContext context{scalar, "", ""};
  int k = 0;
  for (Metric m : all_metrics()) {
    const MetricCell cell = derive_metric(m, s, context);
    if (m == Metric::kStandardDeviation) {
      for (double part : cell.parts) r.metrics[k++] = part;
    } else {
      r.metrics[k++] = cell.number();
    }
  }
}

void fill(const PairQuantiles& q, dumpcmp_pair_quantiles& out) {
  for (int m = 0; m < kErrorMeasures; ++m) {
    const ErrorDistribution& d = q.measure[m];
    dumpcmp_error_distribution& o = m == 0 ? out.absolute : out.relative;
    o.count = d.count;
    std::copy(d.quantile.begin(), d.quantile.end(), o.quantile);
    std::copy(d.histogram.begin(), d.histogram.end(), o.histogram);
  }
}
static_assert(sizeof(dumpcmp_error_distribution::quantile) == sizeof(ErrorDistribution::quantile) &&
                  sizeof(dumpcmp_error_distribution::histogram) ==
                      sizeof(ErrorDistribution::histogram),
              "the C struct holds every level and bin");

}  // namespace
}  // namespace dumpcmp

extern "C" {

int dumpcmp_session_open(const char* backend, int device, int threads, dumpcmp_session** out,
                         char* error, size_t error_size) {
  using namespace dumpcmp;
  try {
    auto session = std::make_unique<dumpcmp_session>();
    const std::string name = backend != nullptr ? backend : "";
    std::string why;
    if (name == "cuda") {
      session->resident = make_cuda_resident_reducer(device, why);
      if (!session->resident) throw Error(ExitCode::kDevice, "cuda: " + why);
    } else if (name == "thrust-omp") {
      session->resident = make_thrust_omp_resident_reducer(threads);
    } else if (name == "cpu") {
      session->threads = threads > 0 ? threads : omp_get_num_procs();
      session->cpu = std::make_unique<CpuBackend>(session->threads);
    } else {
      throw Error(ExitCode::kUsage,
                  "the backend must be cuda, thrust-omp or cpu (got '" + name + "')");
    }
    *out = session.release();
    return 0;
  } catch (const std::exception& e) {
    copy_to_caller(error, error_size, e.what());
    return -1;
  }
}

int dumpcmp_session_compare(dumpcmp_session* session, const dumpcmp_pair* pairs, int64_t count,
                            int with_kld, uintptr_t stream, dumpcmp_pair_result* results,
                            dumpcmp_pair_quantiles* quantiles, char* error, size_t error_size) {
  using namespace dumpcmp;
  try {
    std::vector<TensorPairJob> jobs;
    jobs.reserve(static_cast<std::size_t>(count));
    for (int64_t i = 0; i < count; ++i) jobs.push_back(job_of(pairs[i], with_kld != 0));
    std::vector<PairStats> stats;
    std::vector<PairQuantiles> distributions;
    if (session->resident) {
      session->resident->reduce(jobs, reinterpret_cast<void*>(stream), stats,
                                quantiles ? &distributions : nullptr);
    } else {
      session->cpu->reduce(jobs, stats);
      if (quantiles) compute_error_quantiles(jobs, distributions, session->threads);
    }
    for (int64_t i = 0; i < count; ++i) {
      const auto k = static_cast<std::size_t>(i);
      fill(stats[k], pairs[i].scalar != 0, results[i]);
      if (quantiles) fill(distributions[k], quantiles[i]);
    }
    return 0;
  } catch (const std::exception& e) {
    copy_to_caller(error, error_size, e.what());
    return -1;
  }
}

void dumpcmp_session_close(dumpcmp_session* session) { delete session; }

size_t dumpcmp_pair_result_size(void) { return sizeof(dumpcmp_pair_result); }

size_t dumpcmp_pair_quantiles_size(void) { return sizeof(dumpcmp_pair_quantiles); }

}  // extern "C"
