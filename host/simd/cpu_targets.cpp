#include "simd/cpu_targets.hpp"

#include <hwy/highway.h>

#if HWY_ARCH_X86
#include <cpuid.h>
#endif

namespace dumpcmp::simd {

#if HWY_ARCH_X86
namespace {

struct Cpuid {
  uint32_t a = 0, b = 0, c = 0, d = 0;
};

Cpuid cpuid(uint32_t leaf, uint32_t sub = 0) {
  Cpuid r;
  if (static_cast<uint32_t>(__get_cpuid_max(leaf & 0x80000000u, nullptr)) >= leaf) {
    __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
  }
  return r;
}

bool bit(uint32_t word, int b) { return (word >> b) & 1u; }

// Register state the OS saves on a context switch (XGETBV, XCR0), needed for YMM and ZMM.
uint64_t os_saved_state(const Cpuid& leaf1) {
  if (!bit(leaf1.c, 27)) return 0;  // no OSXSAVE
  uint32_t lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

}  // namespace

int64_t cpu_supported_targets() {
  int64_t targets = HWY_STATIC_TARGET;
  const Cpuid l1 = cpuid(1), l7 = cpuid(7), x1 = cpuid(0x80000001u);
  const uint64_t xcr0 = os_saved_state(l1);
  // Highway's SSSE3: SSE3 and SSSE3 (SSE and SSE2 are x86-64's baseline).
  const bool ssse3 = bit(l1.c, 0) && bit(l1.c, 9);
  // SSE4: SSE4.1, SSE4.2, CLMUL and AES.
  const bool sse4 = ssse3 && bit(l1.c, 19) && bit(l1.c, 20) && bit(l1.c, 1) && bit(l1.c, 25);
  // AVX2: AVX, AVX2, BMI1, BMI2, FMA, F16C, LZCNT, MOVBE, with YMM state saved by the OS.
  const bool avx2 = sse4 && bit(l1.c, 28) && bit(l7.b, 5) && bit(l7.b, 3) && bit(l7.b, 8) &&
                    bit(l1.c, 12) && bit(l1.c, 29) && bit(x1.c, 5) && bit(l1.c, 22) &&
                    (xcr0 & 0x6) == 0x6;
  // AVX3 (AVX-512): F, VL, DQ and BW, with opmask and ZMM state saved by the OS.
  const bool avx3 = avx2 && bit(l7.b, 16) && bit(l7.b, 31) && bit(l7.b, 17) && bit(l7.b, 30) &&
                    (xcr0 & 0xE0) == 0xE0;
  if (ssse3) targets |= HWY_SSSE3;
  if (sse4) targets |= HWY_SSE4;
  if (avx2) targets |= HWY_AVX2;
  if (avx3) targets |= HWY_AVX3;
  return targets;
}

#else

// Elsewhere the baseline target only (NEON on 64-bit ARM).
int64_t cpu_supported_targets() { return HWY_STATIC_TARGET; }

#endif

}  // namespace dumpcmp::simd
