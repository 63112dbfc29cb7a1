// Compiled once per SIMD target, like chunk_lift.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/narrow_decode.cpp"
#include "simd/narrow_decode.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

#include "math/element_decode.hpp"
#include "simd/load_halves-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] for i < n: whole vectors from vector_at(df, i), the remainder from scalar_at(i).
template <class VectorAt, class ScalarAt>
HWY_INLINE void DecodeRun(int64_t n, float* out, VectorAt vector_at, ScalarAt scalar_at) {
  const hn::ScalableTag<float> df;
  const auto step = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + step <= n; i += step) hn::StoreU(vector_at(df, i), df, out + i);
  for (; i < n; ++i) out[i] = scalar_at(i);
}

HWY_INLINE uint16_t Bits16(const uint8_t* data, int64_t i) {
  uint16_t bits;
  std::memcpy(&bits, data + 2 * i, sizeof bits);
  return bits;
}

void DecodeFp16(const uint8_t* data, int64_t n, float* out) {
  DecodeRun(
      n, out, [data](auto df, int64_t i) { return LoadHalves(df, data + 2 * i); },
      [data](int64_t i) { return dumpcmp::decode_fp16(Bits16(data, i)); });
}

void DecodeBf16(const uint8_t* data, int64_t n, float* out) {
  DecodeRun(
      n, out, [data](auto df, int64_t i) { return LoadBFloat16s(df, data + 2 * i); },
      [data](int64_t i) { return dumpcmp::decode_bf16(Bits16(data, i)); });
}

// Each byte as an int32 lane: the integer bytes' value, the float8 types' table index.
template <typename Byte, class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> LoadBytesAsInt32(DF, const uint8_t* data) {
  const hn::RebindToSigned<DF> di;
  const hn::Rebind<Byte, DF> d8;
  return hn::PromoteTo(di, hn::LoadU(d8, reinterpret_cast<const Byte*>(data)));
}

// int8 and uint8 widen to int32 and convert: exact, as numpy's astype(float32).
template <typename Byte>
void DecodeIntegerBytes(const uint8_t* data, int64_t n, float* out) {
  DecodeRun(
      n, out,
      [data](auto df, int64_t i) {
        return hn::ConvertTo(df, LoadBytesAsInt32<Byte>(df, data + i));
      },
      [data](int64_t i) { return static_cast<float>(static_cast<Byte>(data[i])); });
}

void DecodeInt8(const uint8_t* data, int64_t n, float* out) {
  DecodeIntegerBytes<int8_t>(data, n, out);
}

void DecodeUint8(const uint8_t* data, int64_t n, float* out) {
  DecodeIntegerBytes<uint8_t>(data, n, out);
}

// Any byte but 0 is true.
void DecodeBool(const uint8_t* data, int64_t n, float* out) {
  DecodeRun(
      n, out,
      [data](auto df, int64_t i) {
        const auto lanes = LoadBytesAsInt32<uint8_t>(df, data + i);
        const auto nonzero = hn::Ne(lanes, hn::Zero(hn::RebindToSigned<decltype(df)>()));
        return hn::IfThenElseZero(hn::RebindMask(df, nonzero), hn::Set(df, 1.0f));
      },
      [data](int64_t i) { return data[i] != 0 ? 1.0f : 0.0f; });
}

// The float8 types: each byte an index into the type's 256 values, gathered.
void DecodeTabled(const uint8_t* data, int64_t n, const float* table, float* out) {
  DecodeRun(
      n, out,
      [data, table](auto df, int64_t i) {
        return hn::GatherIndex(df, table, LoadBytesAsInt32<uint8_t>(df, data + i));
      },
      [data, table](int64_t i) { return table[data[i]]; });
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

void decode_fp16(const uint8_t* data, int64_t n, float* out) {
  DUMPCMP_SIMD_PICK(DecodeFp16)(data, n, out);
}

void decode_bf16(const uint8_t* data, int64_t n, float* out) {
  DUMPCMP_SIMD_PICK(DecodeBf16)(data, n, out);
}

void decode_int8(const uint8_t* data, int64_t n, float* out) {
  DUMPCMP_SIMD_PICK(DecodeInt8)(data, n, out);
}

void decode_uint8(const uint8_t* data, int64_t n, float* out) {
  DUMPCMP_SIMD_PICK(DecodeUint8)(data, n, out);
}

void decode_bool(const uint8_t* data, int64_t n, float* out) {
  DUMPCMP_SIMD_PICK(DecodeBool)(data, n, out);
}

void decode_tabled(const uint8_t* data, int64_t n, const float* table, float* out) {
  DUMPCMP_SIMD_PICK(DecodeTabled)(data, n, table, out);
}

}  // namespace dumpcmp::simd
#endif
