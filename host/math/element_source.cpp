#include "math/element_source.hpp"

#include <vector>

#include "layout/materialize.hpp"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace dumpcmp {
namespace {

template <DType T>
void decode_run(const uint8_t* data, int64_t begin, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = decode_element(data, T, begin + i);
}

// binary16 -> float32 eight at a time with the F16C instruction where the CPU has it (exact, like
// decode_fp16, which handles the tail and other CPUs).
void decode_fp16_run(const uint8_t* data, int64_t begin, int64_t n, float* out) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 2 * (begin + i)));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
  }
#endif
  for (; i < n; ++i) out[i] = decode_element(data, DType::kFloat16, begin + i);
}

template <DType T>
void gather_run(const uint8_t* data, const int64_t* index, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = index[i];
    out[i] = s < 0 ? 0.0f : decode_element(data, T, s);
  }
}

// A layout gathers: the chunk's source indices come from an odometer walk, then each is decoded
// (the dtype is dispatched once per chunk, not per element).
void decode_gathered(const ElementSource& src, int64_t begin, int64_t n, float* out) {
  thread_local std::vector<int64_t> index;
  index.resize(static_cast<std::size_t>(n));
  fill_source_indices(*src.layout, begin, n, index.data());
  const int64_t* idx = index.data();
  const uint8_t* d = src.data;
  switch (src.dtype) {
    case DType::kFloat:
      return gather_run<DType::kFloat>(d, idx, n, out);
    case DType::kFloat16:
      return gather_run<DType::kFloat16>(d, idx, n, out);
    case DType::kBFloat16:
      return gather_run<DType::kBFloat16>(d, idx, n, out);
    case DType::kInt8:
      return gather_run<DType::kInt8>(d, idx, n, out);
    case DType::kInt32:
      return gather_run<DType::kInt32>(d, idx, n, out);
    default:
      for (int64_t i = 0; i < n; ++i)
        out[i] = idx[i] < 0 ? 0.0f : decode_element(d, src.dtype, idx[i]);
  }
}

}  // namespace

void decode_elements(const ElementSource& src, int64_t begin, int64_t n, float* out) {
  if (src.layout != nullptr && !src.layout->identity) return decode_gathered(src, begin, n, out);
  const uint8_t* d = src.data;
  switch (src.dtype) {
    case DType::kFloat:
      std::memcpy(out, d + 4 * begin, static_cast<std::size_t>(n) * 4);
      return;
    case DType::kFloat16:
      return decode_fp16_run(d, begin, n, out);
    case DType::kBFloat16:
      return decode_run<DType::kBFloat16>(d, begin, n, out);
    case DType::kDouble:
      return decode_run<DType::kDouble>(d, begin, n, out);
    case DType::kUndefined:
    case DType::kInt8:
      return decode_run<DType::kInt8>(d, begin, n, out);
    case DType::kUInt8:
      return decode_run<DType::kUInt8>(d, begin, n, out);
    case DType::kBool:
      return decode_run<DType::kBool>(d, begin, n, out);
    case DType::kInt16:
      return decode_run<DType::kInt16>(d, begin, n, out);
    case DType::kUInt16:
      return decode_run<DType::kUInt16>(d, begin, n, out);
    case DType::kInt32:
      return decode_run<DType::kInt32>(d, begin, n, out);
    case DType::kUInt32:
      return decode_run<DType::kUInt32>(d, begin, n, out);
    case DType::kResource:
    case DType::kInt64:
      return decode_run<DType::kInt64>(d, begin, n, out);
    case DType::kUInt64:
      return decode_run<DType::kUInt64>(d, begin, n, out);
    case DType::kComplex64:
      return decode_run<DType::kComplex64>(d, begin, n, out);
    case DType::kComplex128:
      return decode_run<DType::kComplex128>(d, begin, n, out);
    case DType::kUInt1:
      return decode_run<DType::kUInt1>(d, begin, n, out);
    case DType::kFloat8E4M3FN:
      return decode_run<DType::kFloat8E4M3FN>(d, begin, n, out);
    case DType::kFloat8E5M2:
      return decode_run<DType::kFloat8E5M2>(d, begin, n, out);
    case DType::kHiFloat8:
      return decode_run<DType::kHiFloat8>(d, begin, n, out);
    default:
      for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
  }
}

}  // namespace dumpcmp
