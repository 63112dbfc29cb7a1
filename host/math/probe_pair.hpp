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

// The four dot products of one OpenBLAS part, in its order.
struct ProbeDots {
  BlasDotSerial dot, npu_sq, bench_sq, diff_sq;
  DUMPCMP_HD ProbeDots(int64_t count, BlasDotKernel kernel)
      : dot(count, kernel),
        npu_sq(count, kernel),
        bench_sq(count, kernel),
        diff_sq(count, kernel) {}
};

// m elements of the pair, first, first + stride, ..., into x and y as float64, lifted (math/
// probe_accumulator.hpp: x and y as the dot products take them, d their differences).
DUMPCMP_HD inline ProbeAccumulator lift_probe_elements(const ProbePairJob& job, int64_t first,
                                                       int64_t stride, int64_t m, double* x,
                                                       double* y, double* d) {
  for (int64_t j = 0; j < m; ++j) {
    x[j] = probe_element(job.npu, first + j * stride);
    y[j] = probe_element(job.bench, first + j * stride);
  }
  return job.relative_f32 ? lift_probe_chunk<float>(x, y, d, m)
                          : lift_probe_chunk<double>(x, y, d, m);
}

// Elements [from, count) of the part [begin, begin + count), one after another into `dots` and
// `acc`, a few at a time.
DUMPCMP_HD inline void add_probe_elements(const ProbePairJob& job, int64_t begin, int64_t from,
                                          int64_t count, ProbeDots& dots, ProbeAccumulator& acc) {
  constexpr int64_t kStep = 16;
  double x[kStep], y[kStep], d[kStep];
  for (int64_t i = from; i < count; i += kStep) {
    const int64_t m = count - i < kStep ? count - i : kStep;
    acc.merge(lift_probe_elements(job, begin + i, 1, m, x, y, d));
    for (int64_t j = 0; j < m; ++j) {
      dots.dot.add(x[j], y[j]);
      dots.npu_sq.add(x[j], x[j]);
      dots.bench_sq.add(y[j], y[j]);
      dots.diff_sq.add(d[j], d[j]);
    }
  }
}

DUMPCMP_HD inline ProbeSums probe_sums(ProbeDots& dots, const ProbeAccumulator& acc) {
  ProbeSums sums;
  sums.acc = acc;
  sums.dot = dots.dot.result();
  sums.npu_sq = dots.npu_sq.result();
  sums.bench_sq = dots.bench_sq.result();
  sums.diff_sq = dots.diff_sq.result();
  return sums;
}

// One OpenBLAS part of a pair, [begin, begin + count), as a device reduces it: by
// blas_lanes(kernel) threads, lane `lane`'s chains over the part's first blas_lane_elements
// elements (its order-free metrics over the same elements in `acc`), ...
DUMPCMP_HD inline ProbeSums reduce_probe_lane(const ProbePairJob& job, int64_t begin, int64_t count,
                                              BlasDotKernel kernel, int lane) {
  constexpr int64_t kStep = 16;
  const int64_t lanes = blas_lanes(kernel), taken = blas_lane_elements(count, kernel);
  ProbeSums sums;
  double x[kStep], y[kStep], d[kStep];
  for (int64_t i = lane; i < taken; i += kStep * lanes) {
    const int64_t left = (taken - i + lanes - 1) / lanes;
    const int64_t m = left < kStep ? left : kStep;
    sums.acc.merge(lift_probe_elements(job, begin + i, lanes, m, x, y, d));
    for (int64_t j = 0; j < m; ++j) {
      sums.dot = fma(x[j], y[j], sums.dot);
      sums.npu_sq = fma(x[j], x[j], sums.npu_sq);
      sums.bench_sq = fma(y[j], y[j], sums.bench_sq);
      sums.diff_sq = fma(d[j], d[j], sums.diff_sq);
    }
  }
  return sums;
}

// ... then by one thread, the rest of the part one element at a time from its lanes' sums
// (`lanes`: its blas_lanes results, unread when blas_lane_elements is 0): the cpu backend's bits.
DUMPCMP_HD inline ProbeSums finish_probe_part(const ProbePairJob& job, int64_t begin, int64_t count,
                                              BlasDotKernel kernel, const ProbeSums* lanes) {
  ProbeDots dots(count, kernel);
  ProbeAccumulator acc;
  const int64_t taken = blas_lane_elements(count, kernel);
  if (taken > 0) {
    double dot[32], npu_sq[32], bench_sq[32], diff_sq[32];
    for (int l = 0; l < blas_lanes(kernel); ++l) {
      acc.merge(lanes[l].acc);
      dot[l] = lanes[l].dot;
      npu_sq[l] = lanes[l].npu_sq;
      bench_sq[l] = lanes[l].bench_sq;
      diff_sq[l] = lanes[l].diff_sq;
    }
    dots.dot.seed_lanes(dot);
    dots.npu_sq.seed_lanes(npu_sq);
    dots.bench_sq.seed_lanes(bench_sq);
    dots.diff_sq.seed_lanes(diff_sq);
  }
  add_probe_elements(job, begin, taken, count, dots, acc);
  return probe_sums(dots, acc);
}

}  // namespace dumpcmp
