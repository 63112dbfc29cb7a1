// Compiled once per SIMD target, like error_keys.cpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/float64_keys.cpp"
#include "simd/float64_keys.hpp"

#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace dumpcmp::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void Float64Keys(const double* e, int64_t n, const double* edges, int edge_count, uint64_t* key,
                 uint64_t* bin) {
  const hn::ScalableTag<double> dd;
  const hn::RebindToUnsigned<decltype(dd)> du;
  const auto n_lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto zero = hn::Zero(dd);
  const auto all_ones = hn::Set(du, ~uint64_t{0});
  const auto nan_bin = hn::Set(du, static_cast<uint64_t>(edge_count + 2));
  const auto one = hn::Set(du, uint64_t{1});
  int64_t i = 0;
  for (; i + n_lanes <= n; i += n_lanes) {
    const auto v = hn::LoadU(dd, e + i);
    const auto nan = hn::IsNaN(v);
    const auto is_zero = hn::Eq(v, zero);
    auto k = hn::IfThenZeroElse(hn::RebindMask(du, is_zero), hn::BitCast(du, v));
    k = hn::IfThenElse(hn::RebindMask(du, nan), all_ones, k);
    // Compares with NaN are false: its bin is set last.
    auto b = hn::IfThenZeroElse(hn::RebindMask(du, is_zero), one);
    for (int j = 0; j < edge_count; ++j) {
      const auto at_or_above = hn::Ge(v, hn::Set(dd, edges[j]));
      b = hn::Add(b, hn::IfThenElseZero(hn::RebindMask(du, at_or_above), one));
    }
    b = hn::IfThenElse(hn::RebindMask(du, nan), nan_bin, b);
    hn::StoreU(k, du, key + i);
    hn::StoreU(b, du, bin + i);
  }
  for (; i < n; ++i) {
    const double v = e[i];
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    key[i] = v != v ? ~uint64_t{0} : (v == 0 ? 0 : bits);
    uint64_t b = v != 0;
    for (int j = 0; j < edge_count; ++j) b += v >= edges[j];
    bin[i] = v != v ? static_cast<uint64_t>(edge_count + 2) : b;
  }
}

}  // namespace dumpcmp::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd/dispatch.hpp"

namespace dumpcmp::simd {

void float64_keys(const double* e, int64_t n, const double* edges, int edge_count, uint64_t* key,
                  uint64_t* bin) {
  DUMPCMP_SIMD_PICK(Float64Keys)(e, n, edges, edge_count, key, bin);
}

}  // namespace dumpcmp::simd
#endif
