#pragma once
// A tensor's payload seen as the flat float32 sequence msaccucmp compares: decode happens inside
// the load (no converted copy), one typed element at a time on the device, a chunk at a time on the
// CPU.
#include <cstdint>
#include <cstring>

#include "core/dtype.hpp"
#include "core/host_device.hpp"
#include "layout/layout_map.hpp"
#include "math/element_decode.hpp"

namespace dumpcmp {

struct ElementSource {
  const uint8_t* data = nullptr;
  DType dtype = DType::kFloat;
  int64_t count = 0;  // elements compared (uint1: 8 per byte)
  // Restores a device layout inside the load: element i is data's element layout->source_index(i)
  // (-1: a padding zero). Null: element i is data's element i. The map outlives the source.
  const LayoutMap* layout = nullptr;
  int64_t source_count = 0;  // elements data holds (what a device backend must stage); 0 = count
};

// Element i as compared: through the layout map when there is one.
DUMPCMP_HD inline float load_element(const uint8_t* data, DType dtype, const LayoutMap* layout,
                                     int64_t i);

// A value at any alignment on the host (mapped payloads). On the GPU every staged range starts
// 256-byte aligned (kernels/staging_plan), so element i of a dtype is aligned to its size: one
// load there, where a memcpy would be compiled into byte loads.
template <typename T>
DUMPCMP_HD inline T load_unaligned(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const T*>(p);
#else
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
#endif
}

// n float32 values at any alignment (a mapped payload, or a decoded buffer), indexable like an
// array: what the CPU's chunk lifts read.
struct Float32Bytes {
  const uint8_t* bytes = nullptr;

  Float32Bytes() = default;
  explicit Float32Bytes(const uint8_t* b) : bytes(b) {}
  explicit Float32Bytes(const float* f) : bytes(reinterpret_cast<const uint8_t*>(f)) {}
  DUMPCMP_HD float operator[](int64_t i) const { return load_unaligned<float>(bytes + 4 * i); }
};

// A chunk's side as the CPU's lifts take it: float32 values (dtype kFloat), or the bits of
// binary16 (kFloat16) or bfloat16 (kBFloat16) values, which the lifts convert in registers.
struct ChunkSide {
  const uint8_t* bytes = nullptr;
  DType dtype = DType::kFloat;
};

// Element i of a decodable dtype as float32: ints and doubles round like numpy's astype(float32),
// complex keeps its real part, uint1 unpacks MSB first.
DUMPCMP_HD inline float decode_element(const uint8_t* d, DType t, int64_t i) {
  switch (t) {
    case DType::kFloat:
      return load_unaligned<float>(d + 4 * i);
    case DType::kFloat16:
      return decode_fp16(load_unaligned<uint16_t>(d + 2 * i));
    case DType::kBFloat16:
      return decode_bf16(load_unaligned<uint16_t>(d + 2 * i));
    case DType::kDouble:
      return static_cast<float>(load_unaligned<double>(d + 8 * i));
    case DType::kUndefined:
    case DType::kInt8:
      return static_cast<float>(static_cast<int8_t>(d[i]));
    case DType::kUInt8:
      return static_cast<float>(d[i]);
    case DType::kBool:
      return d[i] != 0 ? 1.0f : 0.0f;
    case DType::kInt16:
      return static_cast<float>(load_unaligned<int16_t>(d + 2 * i));
    case DType::kUInt16:
      return static_cast<float>(load_unaligned<uint16_t>(d + 2 * i));
    case DType::kInt32:
      return static_cast<float>(load_unaligned<int32_t>(d + 4 * i));
    case DType::kUInt32:
      return static_cast<float>(load_unaligned<uint32_t>(d + 4 * i));
    case DType::kResource:
    case DType::kInt64:
      return static_cast<float>(load_unaligned<int64_t>(d + 8 * i));
    case DType::kUInt64:
      return static_cast<float>(load_unaligned<uint64_t>(d + 8 * i));
    case DType::kComplex64:
      return load_unaligned<float>(d + 8 * i);
    case DType::kComplex128:
      return static_cast<float>(load_unaligned<double>(d + 16 * i));
    case DType::kUInt1:
      return static_cast<float>((d[i / 8] >> (7 - i % 8)) & 1);
    case DType::kFloat8E4M3FN:
      return decode_fp8_e4m3fn(d[i]);
    case DType::kFloat8E5M2:
      return decode_fp8_e5m2(d[i]);
    case DType::kHiFloat8:
      return decode_hifloat8(d[i]);
    default:
      return 0.0f;  // callers only pass decodable types
  }
}

// n values of dtype T at any alignment, read as float32 by decode_element with the dtype fixed
// at compile time: the binary16 and bfloat16 sides the CPU's lifts read in place.
template <DType T>
struct TypedBytes {
  const uint8_t* bytes = nullptr;

  TypedBytes() = default;
  explicit TypedBytes(const uint8_t* b) : bytes(b) {}
  DUMPCMP_HD float operator[](int64_t i) const { return decode_element(bytes, T, i); }
};

DUMPCMP_HD inline float load_element(const uint8_t* data, DType dtype, const LayoutMap* layout,
                                     int64_t i) {
  if (layout == nullptr || layout->identity) return decode_element(data, dtype, i);
  const int64_t s = layout->source_index(i);
  return s < 0 ? 0.0f : decode_element(data, dtype, s);
}

}  // namespace dumpcmp
