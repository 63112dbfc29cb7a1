#pragma once
// CUDA-only: the first-pass and KLD lifts with the CPU's lane layout. Eight threads share a chunk,
// thread j folding elements j, j + 8, ... (lane j of the CPU's vectors), so a group's loads are 8
// consecutive elements; the group's lanes meet in shared memory and its first thread finishes
// the chunk with the same calls as the CPU (sum_finite_lanes, add_m2_lanes, from_lanes). Every
// accumulator, sums included, is the CPU's bit for bit, with the CPU's chunk size.
#include <cuda_runtime.h>

#include "chunk_kernels.hpp"

namespace dumpcmp::device {

inline constexpr int kLaneGroups = 32;  // chunks per block
inline constexpr int kLaneThreads = kLaneGroups * kLanes;
// Blocks an SM should hold at once (caps the registers per thread); set at build time to tune.
#ifndef DUMPCMP_LANE_MIN_BLOCKS
#define DUMPCMP_LANE_MIN_BLOCKS 1
#endif

// The rare chunk with NaN or inf, lifted by the group's first thread alone (out of line, so its
// lane arrays do not weigh on the common path's registers).
template <ViewKind K>
__device__ __noinline__ PairAccumulator lift_special_task(const LiftPairTask& lift, int64_t c) {
  return with_kind_views<K>(lift.staging, lift.layouts, lift.tasks[c],
                            [&](const auto& x, const auto& y) {
                              return lift_special_pair_chunk(x, y, lift.tasks[c].count);
                            });
}

// One kernel per view kind, launched over that kind's tasks [first, end) alone (the tasks are
// grouped by kind: chunk_launch.hpp), so the common fp32 path does not carry the registers of the
// decoding and layout paths.
template <ViewKind K>
__global__ void __launch_bounds__(kLaneThreads, DUMPCMP_LANE_MIN_BLOCKS)
    lift_pair_lanes(LiftPairTask lift, int64_t first, int64_t end, PairAccumulator* out) {
  // Raw storage: shared memory takes no constructors, and the group's threads set every lane.
  __shared__ alignas(
      detail::FiniteLanes) unsigned char lane_storage[sizeof(detail::FiniteLanes) * kLaneGroups];
  auto* lanes = reinterpret_cast<detail::FiniteLanes*>(lane_storage);
  // The group's accumulator waits here between the steps, not in its first thread's registers.
  __shared__ alignas(
      PairAccumulator) unsigned char acc_storage[sizeof(PairAccumulator) * kLaneGroups];
  auto* acc = reinterpret_cast<PairAccumulator*>(acc_storage);
  __shared__ double m2[kLaneGroups][2][kLanes];
  __shared__ bool finite[kLaneGroups];
  const int g = static_cast<int>(threadIdx.x) / kLanes, j = static_cast<int>(threadIdx.x) % kLanes;
  const int64_t c = first + static_cast<int64_t>(blockIdx.x) * kLaneGroups + g;
  const bool active = c < end;
  const int64_t n = active ? lift.tasks[c].count : 0;
  if (active) {
    lanes[g].set(j, with_kind_views<K>(lift.staging, lift.layouts, lift.tasks[c],
                                       [&](const auto& x, const auto& y) {
                                         return detail::lift_finite_lane(x, y, n, j);
                                       }));
  }
  __syncthreads();
  if (active && j == 0) {
    finite[g] = lanes[g].finite();
    acc[g] = finite[g] ? detail::sum_finite_lanes(lanes[g], n) : lift_special_task<K>(lift, c);
  }
  __syncthreads();
  if (active && finite[g] && n > 0) {
    double mx = 0.0, my = 0.0;
    const double mean_x = acc[g].x.mean, mean_y = acc[g].y.mean;
    with_kind_views<K>(lift.staging, lift.layouts, lift.tasks[c],
                       [&](const auto& x, const auto& y) {
                         detail::add_m2_lane(x, y, n, j, mean_x, mean_y, mx, my);
                         return 0;
                       });
    m2[g][0][j] = mx;
    m2[g][1][j] = my;
  }
  __syncthreads();
  if (active && j == 0) {
    if (finite[g] && n > 0) detail::add_m2_lanes(acc[g], m2[g][0], m2[g][1]);
    out[c] = acc[g];
  }
}

template <ViewKind K>
__global__ void __launch_bounds__(kLaneThreads, DUMPCMP_LANE_MIN_BLOCKS)
    lift_kld_lanes(LiftKldTask lift, int64_t first, int64_t end, KldAccumulator* out) {
  __shared__ double sums[kLaneGroups][3][kLanes];
  const int g = static_cast<int>(threadIdx.x) / kLanes, j = static_cast<int>(threadIdx.x) % kLanes;
  const int64_t c = first + static_cast<int64_t>(blockIdx.x) * kLaneGroups + g;
  const bool active = c < end;
  if (active) {
    const ChunkTask& t = lift.tasks[c];
    double sp = 0.0, sq = 0.0, st = 0.0;
    with_kind_views<K>(lift.staging, lift.layouts, t, [&](const auto& x, const auto& y) {
      add_kld_lane(x, y, t.count, j, t.sx, t.sy, sp, sq, st);
      return 0;
    });
    sums[g][0][j] = sp;
    sums[g][1][j] = sq;
    sums[g][2][j] = st;
  }
  __syncthreads();
  if (active && j == 0) out[c] = KldAccumulator::from_lanes(sums[g][0], sums[g][1], sums[g][2]);
}

inline unsigned lane_blocks(int64_t chunks) {
  return static_cast<unsigned>((chunks + kLaneGroups - 1) / kLaneGroups);
}

}  // namespace dumpcmp::device
