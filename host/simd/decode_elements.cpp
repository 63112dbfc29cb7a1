#include "simd/decode_elements.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "layout/channel_blocks.hpp"
#include "layout/materialize.hpp"
#include "simd/block_transpose.hpp"
#include "simd/narrow_decode.hpp"

namespace dumpcmp {
namespace {

template <DType T>
void decode_run(const uint8_t* data, int64_t begin, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = decode_element(data, T, begin + i);
}

template <DType T>
void gather_run(const uint8_t* data, const int64_t* index, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = index[i];
    out[i] = s < 0 ? 0.0f : decode_element(data, T, s);
  }
}

// The 256 values of a float8 type, as decode_element gives them, built on first use.
template <DType T>
const float* byte_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b) {
      const auto byte = static_cast<uint8_t>(b);
      t[static_cast<std::size_t>(b)] = decode_element(&byte, T, 0);
    }
    return t;
  }();
  return table.data();
}

// Elements [begin, begin + n) read through a layout with strided runs, as T (float32 values, or
// a 16-bit float type's raw bits), without an index per element.
template <typename T>
void gather_strided_runs(const ElementSource& src, int64_t begin, int64_t n, T* out) {
  const uint8_t* d = src.data;
  constexpr int64_t kSize = sizeof(T);
  for_each_strided_run(*src.layout, begin, n,
                       [d, out](int64_t t, int64_t first, int64_t stride, int64_t length) {
                         const uint8_t* p = d + kSize * first;
                         for (int64_t r = 0; r < length; ++r) {
                           out[t + r] = load_unaligned<T>(p + kSize * r * stride);
                         }
                       });
}

// A 16-bit float type's elements [begin, begin + n) through its layout, as raw bits (a padding
// element is 0: +0.0): strided runs where the map has them, else each source index from an
// odometer walk.
void gather_bits16(const ElementSource& src, int64_t begin, int64_t n, uint16_t* bits) {
  if (has_strided_runs(*src.layout)) return gather_strided_runs(src, begin, n, bits);
  thread_local std::vector<int64_t> index;
  index.resize(static_cast<std::size_t>(n));
  fill_source_indices(*src.layout, begin, n, index.data());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = index[static_cast<std::size_t>(i)];
    bits[i] = s < 0 ? 0 : load_unaligned<uint16_t>(src.data + 2 * s);
  }
}

void decode_bits16(DType dtype, const uint16_t* bits, int64_t n, float* out) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(bits);
  if (dtype == DType::kFloat16) {
    simd::decode_fp16(bytes, n, out);
  } else {
    simd::decode_bf16(bytes, n, out);
  }
}

bool is_float16_type(DType dtype) { return dtype == DType::kFloat16 || dtype == DType::kBFloat16; }

// A layout gathers: 16-bit floats move their bits first and then decode as one run (into keep,
// when given, which the caller reads again later); float32 by strided runs where the map has them;
// else the chunk's source indices come from an odometer walk and each is decoded (the dtype is
// dispatched once per chunk, not per element).
void decode_gathered(const ElementSource& src, int64_t begin, int64_t n, float* out,
                     uint16_t* keep) {
  if (is_float16_type(src.dtype)) {
    thread_local std::vector<uint16_t> scratch_bits;
    uint16_t* bits = keep;
    if (bits == nullptr) {
      scratch_bits.resize(static_cast<std::size_t>(n));
      bits = scratch_bits.data();
    }
    gather_bits16(src, begin, n, bits);
    return decode_bits16(src.dtype, bits, n, out);
  }
  if (src.dtype == DType::kFloat && has_strided_runs(*src.layout)) {
    return gather_strided_runs(src, begin, n, out);
  }
  thread_local std::vector<int64_t> index;
  index.resize(static_cast<std::size_t>(n));
  fill_source_indices(*src.layout, begin, n, index.data());
  const int64_t* idx = index.data();
  const uint8_t* d = src.data;
  switch (src.dtype) {
    case DType::kFloat:
      return gather_run<DType::kFloat>(d, idx, n, out);
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

bool gather_bits16_by_blocks(const ElementSource& src, uint16_t* out, int threads) {
  if (!can_keep_gathered(src)) return false;
  const std::optional<ChannelBlocks> found = channel_blocks(*src.layout);
  // Only blocks of 16 channels (every 16-bit C0) are transposed in registers; other shapes gain
  // nothing over the chunk-by-chunk gather.
  if (!found || found->c0 != 16 || found->outer * found->channels * found->inner != src.count) {
    return false;
  }
  const ChannelBlocks b = *found;
  // The transpose reads whole rows of 16, padding channels included: they must be in the payload.
  const int64_t blocks = (b.channels + b.c0 - 1) / b.c0;
  const int64_t held = src.source_count > 0 ? src.source_count : src.count;
  if (b.source_index(b.outer - 1, (blocks - 1) * b.c0, b.inner - 1) + b.c0 > held) return false;
  // A work item is kTile rows of one block: read once, written as a run per channel.
  constexpr int64_t kTile = 2048;
  const int64_t tiles = (b.inner + kTile - 1) / kTile;
  const int64_t items = b.outer * blocks * tiles;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t item = 0; item < items; ++item) {
    const int64_t tile = item % tiles, block = item / tiles % blocks, o = item / tiles / blocks;
    const int64_t r0 = tile * kTile, c_first = block * b.c0;
    simd::transpose_rows16(src.data + 2 * b.source_index(o, c_first, r0),
                           std::min(kTile, b.inner - r0), b.c0,
                           std::min(b.c0, b.channels - c_first),
                           out + (o * b.channels + c_first) * b.inner + r0, b.inner);
  }
  return true;
}

bool can_keep_gathered(const ElementSource& src) {
  return src.layout != nullptr && !src.layout->identity && is_float16_type(src.dtype);
}

void decode_elements(const ElementSource& src, int64_t begin, int64_t n, float* out,
                     uint16_t* keep) {
  if (src.layout != nullptr && !src.layout->identity) {
    return decode_gathered(src, begin, n, out, keep);
  }
  const uint8_t* d = src.data;
  switch (src.dtype) {
    case DType::kFloat:
      std::memcpy(out, d + 4 * begin, static_cast<std::size_t>(n) * 4);
      return;
    case DType::kFloat16:
      return simd::decode_fp16(d + 2 * begin, n, out);
    case DType::kBFloat16:
      return simd::decode_bf16(d + 2 * begin, n, out);
    case DType::kDouble:
      return decode_run<DType::kDouble>(d, begin, n, out);
    case DType::kUndefined:
    case DType::kInt8:
      return simd::decode_int8(d + begin, n, out);
    case DType::kUInt8:
      return simd::decode_uint8(d + begin, n, out);
    case DType::kBool:
      return simd::decode_bool(d + begin, n, out);
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
      return simd::decode_tabled(d + begin, n, byte_table<DType::kFloat8E4M3FN>(), out);
    case DType::kFloat8E5M2:
      return simd::decode_tabled(d + begin, n, byte_table<DType::kFloat8E5M2>(), out);
    case DType::kHiFloat8:
      return simd::decode_tabled(d + begin, n, byte_table<DType::kHiFloat8>(), out);
    default:
      for (int64_t i = 0; i < n; ++i) out[i] = 0.0f;
  }
}

Float32Bytes elements_of(const ElementSource& src, int64_t begin, int64_t n, float* scratch,
                         uint16_t* keep) {
  if (src.dtype == DType::kFloat && (src.layout == nullptr || src.layout->identity)) {
    return Float32Bytes(src.data + 4 * begin);
  }
  decode_elements(src, begin, n, scratch, keep);
  return Float32Bytes(scratch);
}

ChunkSide chunk_side(const ElementSource& src, int64_t begin, int64_t n, float* scratch,
                     uint16_t* keep) {
  if (is_float16_type(src.dtype)) {
    if (src.layout == nullptr || src.layout->identity) return {src.data + 2 * begin, src.dtype};
    if (keep != nullptr) {
      gather_bits16(src, begin, n, keep);
      return {reinterpret_cast<const uint8_t*>(keep), src.dtype};
    }
  }
  return {elements_of(src, begin, n, scratch, keep).bytes};
}

}  // namespace dumpcmp
