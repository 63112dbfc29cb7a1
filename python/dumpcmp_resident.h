/* dumpcmp's C entry point for tensors that already live on a device (python/dumpcmp/resident.py
 * calls it through ctypes, so any Python version loads it). A session reduces tensor pairs with
 * one backend: "cuda" (device addresses, on the caller's stream), "thrust-omp" (host addresses,
 * the GPU's code path on CPU threads) or "cpu" (host addresses, the cpu backend). Every backend
 * gives the same accumulators, bit for bit. Functions return 0, or -1 with a message in `error`. */
#ifndef DUMPCMP_RESIDENT_H
#define DUMPCMP_RESIDENT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DUMPCMP_RESIDENT_API __attribute__((visibility("default")))

/* One side: `count` elements of a DLPack dtype (code, bits; one lane) from `data`, in C order. */
typedef struct {
  const void* data;
  int64_t count;
  uint8_t dl_code; /* DLPack: 0 int, 1 uint, 2 float, 4 bfloat, 6 bool */
  uint8_t dl_bits;
} dumpcmp_tensor;

typedef struct {
  dumpcmp_tensor x; /* my output (NPU) */
  dumpcmp_tensor y; /* ground truth */
  int32_t scalar;   /* the compared shape is a scalar (msaccucmp's rules for one element) */
} dumpcmp_pair;

typedef struct {
  uint64_t nan, pos_inf, neg_inf, finite;
  double mean, m2;
  float min, max;
} dumpcmp_side_stats;

/* The accumulators of one pair, and msaccucmp's ten metrics derived from them in its -alg order
 * (StandardDeviation as four values: NPU mean, NPU std, golden mean, golden std): 13 doubles,
 * NaN where msaccucmp prints NaN. */
typedef struct {
  int32_t both_bool, has_kld;
  uint64_t n;
  double sum_xx, sum_yy, sum_xy, sum_d2, sum_abs_d, sum_rel;
  float max_abs_d, max_rel;
  uint64_t nan_abs_d, nan_rel;
  dumpcmp_side_stats x, y;
  double kld_sum_p, kld_sum_q, kld_sum_plogpq;
  uint64_t bool_n, x_true, y_true, both_true;
  double metrics[13];
} dumpcmp_pair_result;

/* --quantiles' distribution of one error measure (docs/quantiles.md): the elements whose error is
 * not NaN, the exact P50, P99 and P99.9 (numpy's 'linear'; NaN when count is 0) and the decade
 * histogram's 11 bins (0, (0, 1e-7), one per decade up to [0.1, 1), [1, inf], NaN). */
typedef struct {
  int64_t count;
  double quantile[3];
  int64_t histogram[11];
} dumpcmp_error_distribution;

typedef struct {
  dumpcmp_error_distribution absolute; /* |x - y| */
  dumpcmp_error_distribution relative; /* msaccucmp's relative error term */
} dumpcmp_pair_quantiles;

typedef struct dumpcmp_session dumpcmp_session;

/* backend: "cuda", "thrust-omp" or "cpu"; device: the CUDA device; threads: CPU threads (0: all).
 */
DUMPCMP_RESIDENT_API int dumpcmp_session_open(const char* backend, int device, int threads,
                                              dumpcmp_session** out, char* error,
                                              size_t error_size);
/* Reduces pairs[0..count) into results[0..count); with_kld: run KLD's second pass where the data
 * allows it. stream: a cudaStream_t (0: the legacy default stream), ignored off CUDA. quantiles:
 * NULL, or quantiles[0..count) receives each pair's --quantiles distributions (on a device: pairs
 * of more than 65,536 elements counted there, up to 2^32 - 1 elements; smaller ones copied to the
 * host), the same values on every backend. */
DUMPCMP_RESIDENT_API int dumpcmp_session_compare(dumpcmp_session* session,
                                                 const dumpcmp_pair* pairs, int64_t count,
                                                 int with_kld, uintptr_t stream,
                                                 dumpcmp_pair_result* results,
                                                 dumpcmp_pair_quantiles* quantiles, char* error,
                                                 size_t error_size);
DUMPCMP_RESIDENT_API void dumpcmp_session_close(dumpcmp_session* session);
/* msprobe's real-data compare of a PyTorch run, as it runs, against an NPU run's msprobe dump
 * (docs/msprobe-live.md). Open it on the NPU run's dump.json (numpy_major: the cells msprobe writes
 * beside numpy 1 or 2); `task` receives how the bench run is recorded: "tensor", "statistics" or
 * "md5" (statistics with each tensor's CRC-32). */
typedef struct dumpcmp_live dumpcmp_live;
DUMPCMP_RESIDENT_API int dumpcmp_live_open(const char* npu_dump_json, int32_t numpy_major,
                                           dumpcmp_live** out, char* task, size_t task_size,
                                           char* error, size_t error_size);
/* Compares the bench run's tensor whose data file would be `data_name` (`bench`, of `ndim`
 * dimensions `shape`, in C order; one of a single element in host memory, else in the session's
 * kind of memory) with the NPU dump's data file of that name, now, on `session` and `stream` as
 * dumpcmp_session_compare. *compared: 1 when the NPU dump holds that file (a file it cannot read,
 * or a dtype dumpcmp does not compare, fails the row, not the call), else 0. */
DUMPCMP_RESIDENT_API int dumpcmp_live_compare(dumpcmp_live* live, dumpcmp_session* session,
                                              const char* data_name, dumpcmp_tensor bench,
                                              const int64_t* shape, int32_t ndim, uintptr_t stream,
                                              int32_t* compared, char* error, size_t error_size);
/* Writes msprobe's compare_result_<timestamp>.csv (xlsx: .xlsx) into out_dir from the bench run's
 * dump.json text (its records as msprobe's dumper writes them); `pandas_major` picks the cells
 * written beside pandas 2 or 3, `command` is the run's log line. `written` receives the files
 * written (the log last, when there were warnings), `warnings` the warnings, one per line. */
DUMPCMP_RESIDENT_API int dumpcmp_live_write(dumpcmp_live* live, const char* bench_dump_json,
                                            const char* out_dir, int32_t xlsx, int32_t pandas_major,
                                            const char* command, char* written, size_t written_size,
                                            char* warnings, size_t warnings_size, char* error,
                                            size_t error_size);
DUMPCMP_RESIDENT_API void dumpcmp_live_close(dumpcmp_live* live);

/* sizeof(dumpcmp_pair_result) and sizeof(dumpcmp_pair_quantiles), so a caller can check its copy
 * of these declarations. */
DUMPCMP_RESIDENT_API size_t dumpcmp_pair_result_size(void);
DUMPCMP_RESIDENT_API size_t dumpcmp_pair_quantiles_size(void);

#ifdef __cplusplus
}
#endif
#endif
