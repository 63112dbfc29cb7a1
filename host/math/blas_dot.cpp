#include "math/blas_dot.hpp"

#include <sched.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace dumpcmp {
namespace {

constexpr int kMaxBlasThreads = 64;
constexpr int64_t kSingleThreadLimit = 10000;  // ddot runs on one thread up to this length

// acc[l] = fma(x[b * L + l], y[b * L + l], acc[l]) for `blocks` whole blocks of L elements: the
// vector kernel's lanes. With the CPU's FMA unit when it has one (every CPU OpenBLAS runs these
// kernels on does), else through libm's exact fma.
template <int L>
void fma_blocks_portable(double* acc, const double* x, const double* y, int64_t blocks) {
  for (int64_t b = 0; b < blocks; ++b, x += L, y += L)
    for (int l = 0; l < L; ++l) acc[l] = std::fma(x[l], y[l], acc[l]);
}

#if defined(__x86_64__) && defined(__GNUC__)
template <int L>
__attribute__((target("avx2,fma"))) void fma_blocks_fma(double* acc, const double* x,
                                                        const double* y, int64_t blocks) {
  double lanes[L];
  for (int l = 0; l < L; ++l) lanes[l] = acc[l];
  for (int64_t b = 0; b < blocks; ++b, x += L, y += L)
    for (int l = 0; l < L; ++l) lanes[l] = __builtin_fma(x[l], y[l], lanes[l]);
  for (int l = 0; l < L; ++l) acc[l] = lanes[l];
}

__attribute__((target("fma"))) double fma_chain_fma(double dot, const double* x, const double* y,
                                                    int64_t n) {
  for (int64_t i = 0; i < n; ++i) dot = __builtin_fma(y[i], x[i], dot);
  return dot;
}
#endif

template <int L>
void fma_blocks(double* acc, const double* x, const double* y, int64_t blocks) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool fma_unit = __builtin_cpu_supports("fma");
  if (fma_unit) return fma_blocks_fma<L>(acc, x, y, blocks);
#endif
  fma_blocks_portable<L>(acc, x, y, blocks);
}

// dot = fma(y[i], x[i], dot) in order: the SkylakeX kernel's tail.
double fma_chain(double dot, const double* x, const double* y, int64_t n) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool fma_unit = __builtin_cpu_supports("fma");
  if (fma_unit) return fma_chain_fma(dot, x, y, n);
#endif
  for (int64_t i = 0; i < n; ++i) dot = std::fma(y[i], x[i], dot);
  return dot;
}

// Element j of x and y into lane (lane + j) mod L of acc, for m elements.
template <int L>
void accumulate(double* acc, int64_t lane, const double* x, const double* y, int64_t m) {
  int64_t j = 0;
  for (; lane != 0 && j < m; ++j, lane = (lane + 1) % L)
    acc[lane] = std::fma(x[j], y[j], acc[lane]);
  const int64_t blocks = (m - j) / L;
  fma_blocks<L>(acc, x + j, y + j, blocks);
  for (j += blocks * L; j < m; ++j, lane = (lane + 1) % L)
    acc[lane] = std::fma(x[j], y[j], acc[lane]);
}

// dot += y[i] * x[i] in order, rounded twice: the Haswell kernel's tail, which OpenBLAS builds
// without FMA contraction (the build keeps -ffp-contract=off, so this stays two roundings).
double multiply_add_chain(double dot, const double* x, const double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dot += y[i] * x[i];
  return dot;
}

// OpenBLAS 0.3.31 takes an AMD CPU of a family newer than its table (0x1A, Zen 5) for Haswell,
// AVX-512 or not.
bool amd_past_openblas_table() {
#if defined(__x86_64__) && defined(__GNUC__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__builtin_cpu_is("amd") || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  unsigned family = (eax >> 8) & 0xF;
  if (family == 0xF) family += (eax >> 20) & 0xFF;
  return family >= 0x1A;
#else
  return false;
#endif
}

int env_threads(const char* name) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : 0;
}

}  // namespace

BlasDotKernel host_blas_dot_kernel() {
  if (const char* name = std::getenv("DUMPCMP_BLAS_DOT")) {
    if (std::string_view(name) == "skylakex") return BlasDotKernel::kSkylakeX;
    if (std::string_view(name) == "haswell") return BlasDotKernel::kHaswell;
  }
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f") && !amd_past_openblas_table())
    return BlasDotKernel::kSkylakeX;
#endif
  return BlasDotKernel::kHaswell;
}

int host_blas_threads() {
  int threads = 0;
  for (const char* name : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}) {
    threads = env_threads(name);
    if (threads > 0) break;
  }
  if (threads <= 0) {
    cpu_set_t set;
    threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  }
  return std::clamp(threads, 1, kMaxBlasThreads);
}

BlasOrder host_blas_order() { return {host_blas_dot_kernel(), host_blas_threads()}; }

std::vector<int64_t> blas_dot_parts(int64_t n, int threads) {
  if (n <= kSingleThreadLimit || threads <= 1) return {n};
  std::vector<int64_t> parts;
  int64_t left = n;
  for (int used = 0; left > 0; ++used) {
    const int64_t width = std::min(left, (left + threads - used - 1) / (threads - used));
    parts.push_back(width);
    left -= width;
  }
  return parts;
}

BlasDot::BlasDot(int64_t n, BlasDotKernel kernel)
    : n16_(n & ~int64_t{15}),
      n32_(kernel == BlasDotKernel::kSkylakeX ? n16_ & ~int64_t{31} : 0),
      kernel_(kernel) {}

void BlasDot::fold() {
  folded_ = true;
  if (n32_ > 0) blas_fold_wide_lanes(wide_, lanes_);
}

double BlasDot::kernel_sum() const {
  return blas_kernel_sum(lanes_, kernel_ == BlasDotKernel::kSkylakeX);
}

void BlasDot::add(const double* x, const double* y, int64_t count) {
  int64_t i = 0;
  while (i < count) {
    if (pos_ < n32_) {
      const int64_t m = std::min(count - i, n32_ - pos_);
      accumulate<32>(wide_, pos_ & 31, x + i, y + i, m);
      pos_ += m, i += m;
    } else if (pos_ < n16_) {
      if (!folded_) fold();
      const int64_t m = std::min(count - i, n16_ - pos_);
      accumulate<16>(lanes_, (pos_ - n32_) & 15, x + i, y + i, m);
      pos_ += m, i += m;
    } else {
      if (pos_ == n16_ && n16_ > 0) {
        if (!folded_) fold();
        tail_ = kernel_sum();
      }
      tail_ = kernel_ == BlasDotKernel::kSkylakeX
                  ? fma_chain(tail_, x + i, y + i, count - i)
                  : multiply_add_chain(tail_, x + i, y + i, count - i);
      pos_ += count - i, i = count;
    }
  }
}

double BlasDot::result() const {
  if (pos_ > n16_ || n16_ == 0) return tail_;
  // No tail: the kernel's sum is the dot.
  BlasDot copy = *this;
  if (!copy.folded_) copy.fold();
  return copy.kernel_sum();
}

double blas_dot(const double* x, const double* y, int64_t n, int threads, BlasDotKernel kernel) {
  double dot = 0.0;  // numpy adds ddot's result to 0.0 (so -0.0 comes back as 0.0)
  int64_t at = 0;
  for (const int64_t part : blas_dot_parts(n, threads)) {
    BlasDot d(part, kernel);
    d.add(x + at, y + at, part);
    dot += d.result();
    at += part;
  }
  return dot;
}

}  // namespace dumpcmp
