// Compiled once per SIMD target, like chunk_lift.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/error_keys.cpp"
#include "simd/error_keys.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "math/error_keys.hpp"
#include "simd/relative_term-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ErrorKeys(Float32Bytes x, Float32Bytes y, int64_t n, const uint32_t* edges, int edge_count,
               uint32_t* abs_key, uint32_t* rel_key, uint32_t* abs_bin, uint32_t* rel_bin) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;  // keys are below 2^31: signed compares order them
  const auto n_lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto magnitude = hn::Set(di, 0x7FFFFFFF), zero = hn::Zero(di);
  const auto inf_key = hn::Set(di, static_cast<int32_t>(kInfKey));
  // Bins count with masks: a true lane is -1, so subtracting it adds one.
  const auto bin_of = [&](hn::Vec<decltype(di)> key) {
    auto bin = hn::Sub(zero, hn::VecFromMask(di, hn::Ne(key, zero)));
    bin = hn::Sub(bin, hn::VecFromMask(di, hn::Gt(key, inf_key)));
    for (int e = 0; e < edge_count; ++e) {
      const auto below = hn::Set(di, static_cast<int32_t>(edges[e] - 1));  // key >= edge
      bin = hn::Sub(bin, hn::VecFromMask(di, hn::Gt(key, below)));
    }
    return bin;
  };
  int64_t i = 0;
  for (; i + n_lanes <= n; i += n_lanes) {
    const auto vx = hn::LoadU(df, reinterpret_cast<const float*>(x.bytes + 4 * i));
    const auto vy = hn::LoadU(df, reinterpret_cast<const float*>(y.bytes + 4 * i));
    const auto rel = RelativeTerm(df, vx, vy);
    const auto ka = hn::And(hn::BitCast(di, hn::Sub(vx, vy)), magnitude);
    const auto kr = hn::And(hn::BitCast(di, rel), magnitude);
    hn::StoreU(ka, di, reinterpret_cast<int32_t*>(abs_key + i));
    hn::StoreU(kr, di, reinterpret_cast<int32_t*>(rel_key + i));
    hn::StoreU(bin_of(ka), di, reinterpret_cast<int32_t*>(abs_bin + i));
    hn::StoreU(bin_of(kr), di, reinterpret_cast<int32_t*>(rel_bin + i));
  }
  for (; i < n; ++i) {
    abs_key[i] = abs_error_key(x[i], y[i]);
    rel_key[i] = relative_error_key(x[i], y[i]);
    abs_bin[i] = error_bin(abs_key[i], edges, edge_count);
    rel_bin[i] = error_bin(rel_key[i], edges, edge_count);
  }
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

void error_keys(Float32Bytes x, Float32Bytes y, int64_t n, const uint32_t* edges, int edge_count,
                uint32_t* abs_key, uint32_t* rel_key, uint32_t* abs_bin, uint32_t* rel_bin) {
  DUMPCMP_SIMD_PICK(ErrorKeys)(x, y, n, edges, edge_count, abs_key, rel_key, abs_bin, rel_bin);
}

}  // namespace dumpcmp::simd
#endif
