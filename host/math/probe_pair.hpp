#pragma once
// One tensor pair of msprobe's real-data compare (docs/msprobe-compare.md §5.3) as a backend
// reduces it: both sides' elements as numpy's astype(float) sees them, the order-free metrics
// (math/probe_accumulator.hpp) and the four float64 dot products in the order of numpy's OpenBLAS
// (math/blas_dot.hpp), one partial per OpenBLAS part. Every backend gives the same bits.
#include <cstdint>

#include "core/dtype.hpp"
#include "core/host_device.hpp"
#include "math/blas_dot_serial.hpp"
#include "math/element_decode.hpp"
#include "math/element_source.hpp"
#include "math/probe_accumulator.hpp"

namespace dumpcmp {

// One side's elements in C order: a mapped data file, or a copy (a strided or cut tensor).
struct ProbeSide {
  const uint8_t* data = nullptr;
  DType dtype = DType::kFloat;
};

struct ProbePairJob {
  ProbeSide npu, bench;
  int64_t count = 0;          // elements on each side
  bool relative_f32 = false;  // the relative error in float32 (both sides 16- or 32-bit floats)
};

// A pair's order-free metrics and the four dot products, each a sum of its parts in order.
struct ProbeSums {
  ProbeAccumulator acc;
  double dot = 0.0, npu_sq = 0.0, bench_sq = 0.0, diff_sq = 0.0;

  // Adds the next part: the parts are added in order from 0.0, as ddot and numpy add them.
  DUMPCMP_HD void add_part(const ProbeSums& part) {
    acc.merge(part.acc);
    dot += part.dot;
    npu_sq += part.npu_sq;
    bench_sq += part.bench_sq;
    diff_sq += part.diff_sq;
  }
};

// Element i as float64: exact for every float and for integers up to 2^53 (numpy's astype(float);
// complex: the real part).
DUMPCMP_HD inline double probe_element(const ProbeSide& side, int64_t i) {
  const uint8_t* p = side.data;
  switch (side.dtype) {
    case DType::kFloat:
      return load_unaligned<float>(p + 4 * i);
    case DType::kDouble:
      return load_unaligned<double>(p + 8 * i);
    case DType::kFloat16:
      return decode_fp16(load_unaligned<uint16_t>(p + 2 * i));
    case DType::kBFloat16:
      return decode_bf16(load_unaligned<uint16_t>(p + 2 * i));
    case DType::kFloat8E4M3FN:
      return decode_fp8_e4m3fn(p[i]);
    case DType::kFloat8E5M2:
      return decode_fp8_e5m2(p[i]);
    case DType::kBool:
      return p[i] != 0 ? 1.0 : 0.0;
    case DType::kInt8:
      return static_cast<double>(static_cast<int8_t>(p[i]));
    case DType::kUInt8:
      return p[i];
    case DType::kInt16:
      return load_unaligned<int16_t>(p + 2 * i);
    case DType::kUInt16:
      return load_unaligned<uint16_t>(p + 2 * i);
    case DType::kInt32:
      return load_unaligned<int32_t>(p + 4 * i);
    case DType::kUInt32:
      return load_unaligned<uint32_t>(p + 4 * i);
    case DType::kInt64:
      return static_cast<double>(load_unaligned<int64_t>(p + 8 * i));
    case DType::kUInt64:
      return static_cast<double>(load_unaligned<uint64_t>(p + 8 * i));
    case DType::kComplex64:
      return load_unaligned<float>(p + 8 * i);
    case DType::kComplex128:
      return load_unaligned<double>(p + 16 * i);
    default:
      return 0.0;
  }
}

// One OpenBLAS part of a pair, [begin, begin + count), reduced by one thread a few elements at a
// time: the device backends' form of what the CPU backend computes with vector code (the same
// templates, so the same bits).
DUMPCMP_HD inline ProbeSums reduce_probe_part(const ProbePairJob& job, int64_t begin, int64_t count,
                                              BlasDotKernel kernel) {
  constexpr int64_t kStep = 16;
  BlasDotSerial dot(count, kernel), npu_sq(count, kernel), bench_sq(count, kernel),
      diff_sq(count, kernel);
  ProbeSums sums;
  double x[kStep], y[kStep], d[kStep];
  for (int64_t i = 0; i < count; i += kStep) {
    const int64_t m = count - i < kStep ? count - i : kStep;
    for (int64_t j = 0; j < m; ++j) {
      x[j] = probe_element(job.npu, begin + i + j);
      y[j] = probe_element(job.bench, begin + i + j);
    }
    sums.acc.merge(job.relative_f32 ? lift_probe_chunk<float>(x, y, d, m)
                                    : lift_probe_chunk<double>(x, y, d, m));
    for (int64_t j = 0; j < m; ++j) {
      dot.add(x[j], y[j]);
      npu_sq.add(x[j], x[j]);
      bench_sq.add(y[j], y[j]);
      diff_sq.add(d[j], d[j]);
    }
  }
  sums.dot = dot.result();
  sums.npu_sq = npu_sq.result();
  sums.bench_sq = bench_sq.result();
  sums.diff_sq = diff_sq.result();
  return sums;
}

}  // namespace dumpcmp
