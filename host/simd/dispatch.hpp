#pragma once
// Run-time dispatch of a kernel compiled once per target by Highway's foreach_target.h: a table of
// its copies, and the copy for the chosen target (simd_target.hpp). Include it in a kernel file's
// HWY_ONCE part, after the per-target code.
#include <hwy/highway.h>

#include <cstdint>
#include <iterator>

#include "simd/simd_target.hpp"

namespace dumpcmp::simd {

template <typename Fn>
struct KernelCopy {
  int64_t target;
  Fn fn;
};

// The copy compiled for the chosen target (every compiled target has one).
template <typename Fn, std::size_t N>
Fn pick(const KernelCopy<Fn> (&copies)[N]) {
  const int64_t target = chosen_target_bit();
  for (const KernelCopy<Fn>& c : copies) {
    if (c.target == target) return c.fn;
  }
  return copies[N - 1].fn;  // the static target's copy
}

}  // namespace dumpcmp::simd

#if HWY_TARGETS & HWY_AVX3
#define DUMPCMP_SIMD_COPY_AVX3(F) {HWY_AVX3, &N_AVX3::F},
#else
#define DUMPCMP_SIMD_COPY_AVX3(F)
#endif
#if HWY_TARGETS & HWY_AVX2
#define DUMPCMP_SIMD_COPY_AVX2(F) {HWY_AVX2, &N_AVX2::F},
#else
#define DUMPCMP_SIMD_COPY_AVX2(F)
#endif
#if HWY_TARGETS & HWY_SSE4
#define DUMPCMP_SIMD_COPY_SSE4(F) {HWY_SSE4, &N_SSE4::F},
#else
#define DUMPCMP_SIMD_COPY_SSE4(F)
#endif
#if HWY_TARGETS & HWY_SSSE3
#define DUMPCMP_SIMD_COPY_SSSE3(F) {HWY_SSSE3, &N_SSSE3::F},
#else
#define DUMPCMP_SIMD_COPY_SSSE3(F)
#endif

// The copies of kernel F, best first, ending with the static (baseline) target's.
#define DUMPCMP_SIMD_COPIES(F)                                                       \
  {                                                                                  \
    DUMPCMP_SIMD_COPY_AVX3(F)                                                        \
    DUMPCMP_SIMD_COPY_AVX2(F) DUMPCMP_SIMD_COPY_SSE4(F) DUMPCMP_SIMD_COPY_SSSE3(F) { \
      HWY_STATIC_TARGET, &HWY_STATIC_DISPATCH(F)                                     \
    }                                                                                \
  }

// The chosen target's copy of kernel F, from a table of its copies built once: call it as
// DUMPCMP_SIMD_PICK(F)(args...).
#define DUMPCMP_SIMD_PICK(F)                                                                    \
  ([] {                                                                                         \
    static constexpr ::dumpcmp::simd::KernelCopy<decltype(&HWY_STATIC_DISPATCH(F))> kCopies[] = \
        DUMPCMP_SIMD_COPIES(F);                                                                 \
    return ::dumpcmp::simd::pick(kCopies);                                                      \
  }())
