#include "simd/simd_target.hpp"

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <algorithm>
#include <atomic>
#include <cctype>

#include "core/error.hpp"
#include "simd/cpu_targets.hpp"

namespace dumpcmp::simd {
namespace {

// HWY_TARGETS here is the set chunk_lift.cpp and narrow_decode.cpp are compiled for: the files of
// simd/ share their compile flags.
constexpr int64_t kCompiled = HWY_TARGETS;

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

int64_t runnable_mask() {
  static const int64_t mask = cpu_supported_targets() & kCompiled;
  return mask;
}

int64_t best_of(int64_t mask) { return mask & -mask; }  // lower bits are better targets

std::atomic<int64_t> limit{0};  // 0: none; else the best target bit allowed

}  // namespace

int64_t chosen_target_bit() {
  const int64_t cap = limit.load(std::memory_order_relaxed);
  // Targets at or below the cap: the cap's bit and every higher one.
  const int64_t allowed = cap == 0 ? runnable_mask() : runnable_mask() & ~(cap - 1);
  return allowed != 0 ? best_of(allowed) : HWY_STATIC_TARGET;
}

std::string chosen_target() { return hwy::TargetName(chosen_target_bit()); }

std::string compiled_targets() {
  std::string names;
  for (int64_t left = kCompiled; left != 0; left &= left - 1) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(best_of(left));
  }
  return names;
}

std::vector<std::string> runnable_targets() {
  std::vector<std::string> names;
  for (int64_t left = runnable_mask(); left != 0; left &= left - 1) {
    names.emplace_back(hwy::TargetName(best_of(left)));
  }
  return names;
}

void limit_target(const std::string& name) {
  const std::string wanted = upper(name) == "AVX512" ? "AVX3" : upper(name);
  for (int64_t left = kCompiled; left != 0; left &= left - 1) {
    if (wanted != hwy::TargetName(best_of(left))) continue;
    limit.store(best_of(left), std::memory_order_relaxed);
    return;
  }
  throw Error(ExitCode::kUsage,
              "unknown SIMD target '" + name + "' (this build has: " + compiled_targets() + ")");
}

}  // namespace dumpcmp::simd
