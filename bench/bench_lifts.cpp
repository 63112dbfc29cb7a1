// bench_lifts [repeats]: the CPU's chunk lifts on every SIMD target this CPU runs, in ns per
// element and one thread, on one chunk that stays in the L2 cache: the arithmetic alone, without
// the reads that bench/cpu_targets.sh adds. Shows what each pass of a compare costs per element
// on each target (the KLD lift is the one that limits issue 15's cases (a) and (c)).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "simd/chunk_lift.hpp"
#include "simd/simd_target.hpp"

namespace {

using dumpcmp::Float32Bytes;
using Clock = std::chrono::steady_clock;

// The best of `repeats` timings of `passes` calls of lift, in ns per element.
template <typename Lift>
double best_ns_per_element(int repeats, int passes, int64_t n, Lift lift) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    for (int p = 0; p < passes; ++p) lift();
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    best = std::min(best, s * 1e9 / (static_cast<double>(passes) * static_cast<double>(n)));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const int64_t n = dumpcmp::CpuBackend::kChunkElements;
  const int passes = 2000;
  // A network's activations and a slightly different copy, as in a compare.
  std::vector<float> x(static_cast<std::size_t>(n)), y(x.size());
  std::mt19937 rng(1);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = normal(rng);
    y[i] = x[i] + 0.01f * normal(rng);
  }
  const auto [min_x, max_x] = std::minmax_element(x.begin(), x.end());
  const auto [min_y, max_y] = std::minmax_element(y.begin(), y.end());
  const dumpcmp::KldScale sx{*min_x, *max_x - *min_x}, sy{*min_y, *max_y - *min_y};
  const Float32Bytes bx(x.data()), by(y.data());

  std::printf("%d-element chunk, one thread, best of %d; ns per element:\n", static_cast<int>(n),
              repeats);
  std::printf("%-8s %12s %12s\n", "target", "first pass", "KLD pass");
  double sink = 0.0;  // results used, so no call is optimised away
  for (const std::string& target : dumpcmp::simd::runnable_targets()) {
    dumpcmp::simd::limit_target(target);
    const double pair = best_ns_per_element(
        repeats, passes, n, [&] { sink += dumpcmp::simd::lift_pair_chunk(bx, by, n).x.mean; });
    const double kld = best_ns_per_element(repeats, passes, n, [&] {
      sink += dumpcmp::simd::lift_kld_chunk(bx, by, n, sx, sy).sum_plogpq;
    });
    std::printf("%-8s %12.3f %12.3f\n", dumpcmp::simd::chosen_target().c_str(), pair, kld);
  }
  return sink == 12345.678 ? 1 : 0;
}
