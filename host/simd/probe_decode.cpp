#include "simd/probe_decode.hpp"

#include <algorithm>
#include <cstring>

#include "math/element_decode.hpp"
#include "simd/probe_lift.hpp"

namespace dumpcmp::simd {
namespace {

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T, typename Decode>
void decode_run(const uint8_t* p, int64_t count, double* out, Decode decode) {
  for (int64_t i = 0; i < count; ++i, p += sizeof(T)) out[i] = decode(load<T>(p));
}

template <typename T>
void decode_plain(const uint8_t* p, int64_t count, double* out) {
  decode_run<T>(p, count, out, [](T v) { return static_cast<double>(v); });
}

}  // namespace

void decode_to_double(DType t, const uint8_t* p, int64_t count, double* out) {
  switch (t) {
    case DType::kFloat:
      return simd::float32_to_double(p, count, out);
    case DType::kDouble:
      return decode_plain<double>(p, count, out);
    case DType::kFloat16:
      return simd::float16_to_double(p, count, out);
    case DType::kBFloat16:
      return simd::bfloat16_to_double(p, count, out);
    case DType::kFloat8E4M3FN:
      return decode_run<uint8_t>(p, count, out,
                                 [](uint8_t v) { return double{decode_fp8_e4m3fn(v)}; });
    case DType::kFloat8E5M2:
      return decode_run<uint8_t>(p, count, out,
                                 [](uint8_t v) { return double{decode_fp8_e5m2(v)}; });
    case DType::kBool:
      return decode_run<uint8_t>(p, count, out, [](uint8_t v) { return v != 0 ? 1.0 : 0.0; });
    case DType::kInt8:
      return decode_plain<int8_t>(p, count, out);
    case DType::kUInt8:
      return decode_plain<uint8_t>(p, count, out);
    case DType::kInt16:
      return decode_plain<int16_t>(p, count, out);
    case DType::kUInt16:
      return decode_plain<uint16_t>(p, count, out);
    case DType::kInt32:
      return decode_plain<int32_t>(p, count, out);
    case DType::kUInt32:
      return decode_plain<uint32_t>(p, count, out);
    case DType::kInt64:
      return decode_plain<int64_t>(p, count, out);
    case DType::kUInt64:
      return decode_plain<uint64_t>(p, count, out);
    case DType::kComplex64:  // the real part of each (real, imaginary) pair
      for (int64_t i = 0; i < count; ++i) out[i] = load<float>(p + i * 8);
      return;
    case DType::kComplex128:
      for (int64_t i = 0; i < count; ++i) out[i] = load<double>(p + i * 16);
      return;
    default:
      std::fill(out, out + count, 0.0);
  }
}

}  // namespace dumpcmp::simd
