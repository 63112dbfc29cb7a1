#pragma once
// CUDA-only, an experiment behind DUMPCMP_LANE_TILES=1 (cuda_glue.cuh), to be measured against
// lane_kernels.cuh on a GPU host: the same lifts of the typed view kinds (fp32, fp16, bf16 pairs
// without layout maps), with each block's chunks read through shared memory. A tile holds
// kTileElements of every group's chunk, both sides, loaded by all the block's threads with
// coalesced 16-byte loads (element loads where a side's tile is short or not 16-byte aligned); the
// group's lanes then fold it in the CPU's order (lane j: tile elements j, j + 8, ...), so every
// accumulator is lane_kernels.cuh's, bit for bit. The first pass still reads each chunk twice
// (its squared deviations need the chunk's mean).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "chunk_kernels.hpp"
#include "lane_kernels.cuh"

namespace dumpcmp::device {

inline constexpr int kTileElements = 128;  // a multiple of kLanes, so lanes keep their elements

// The tile rows of one view kind: [side][group], each padded by 8 elements so the 8 lanes of the 4
// groups of a warp read 32 different banks (or share a word) at each step.
template <ViewKind K>
struct LaneTiles {
  static_assert(K != ViewKind::kDecoding, "decoding and layout views are read where they lie");
  static constexpr DType kType = K == ViewKind::kFloat     ? DType::kFloat
                                 : K == ViewKind::kFloat16 ? DType::kFloat16
                                                           : DType::kBFloat16;
  static constexpr int kElementBytes = K == ViewKind::kFloat ? 4 : 2;
  using Bits = std::conditional_t<kElementBytes == 4, uint32_t, uint16_t>;
  static constexpr int kRowBytes = (kTileElements + 8) * kElementBytes;
  static constexpr int kVectors = kTileElements * kElementBytes / 16;  // 16-byte loads a row
  static constexpr int kBytes = 2 * kLaneGroups * kRowBytes;
  static_assert(kRowBytes % 16 == 0, "rows keep 16-byte alignment");

  unsigned char* rows;
  const uint8_t* const* base;  // [side][group]: the chunk's first element, or null when idle
  const int64_t* count;        // [group]

  __device__ unsigned char* row(int side, int g) const {
    return rows + (side * kLaneGroups + g) * kRowBytes;
  }
  __device__ TypedView<kType> view(int side, int g) const { return {row(side, g), 0}; }

  // Every thread of the block: elements [begin, begin + kTileElements) of each group's chunk
  // whose base is set, into the rows. The caller synchronises before and after.
  __device__ void load(int64_t begin) const {
    for (int v = static_cast<int>(threadIdx.x); v < 2 * kLaneGroups * kVectors;
         v += static_cast<int>(blockDim.x)) {
      const int g = v / (2 * kVectors), side = (v / kVectors) % 2, k = v % kVectors;
      const uint8_t* chunk = base[side * kLaneGroups + g];
      if (chunk == nullptr || begin >= count[g]) continue;
      const int64_t n = count[g] - begin < kTileElements ? count[g] - begin : kTileElements;
      const uint8_t* from = chunk + begin * kElementBytes + k * 16;
      unsigned char* to = row(side, g) + k * 16;
      if (n == kTileElements && reinterpret_cast<uintptr_t>(from) % 16 == 0) {
        *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(from);
        continue;
      }
      constexpr int kPerVector = 16 / kElementBytes;
      for (int e = 0; e < kPerVector && k * kPerVector + e < n; ++e) {
        reinterpret_cast<Bits*>(to)[e] = reinterpret_cast<const Bits*>(from)[e];
      }
    }
  }
};

// The block's groups' chunk bases and counts, set by each group's first thread.
struct TileChunks {
  const uint8_t* base[2 * kLaneGroups];
  int64_t count[kLaneGroups];
  int64_t most;  // the largest count: the tiles to walk
};

// A thread's place: its group g and lane j, the group's chunk c among [first, end) and its count.
struct TileThread {
  int g, j;
  int64_t c;
  bool active;
  int64_t n;
};

// Every thread of the block: its place, with `chunks` set for the block's groups (synchronised).
template <int kElementBytes>
__device__ TileThread tile_thread(const uint8_t* staging, const ChunkTask* tasks, int64_t first,
                                  int64_t end, TileChunks& chunks) {
  TileThread t;
  t.g = static_cast<int>(threadIdx.x) / kLanes;
  t.j = static_cast<int>(threadIdx.x) % kLanes;
  t.c = first + static_cast<int64_t>(blockIdx.x) * kLaneGroups + t.g;
  t.active = t.c < end;
  const ChunkTask* task = t.active ? tasks + t.c : nullptr;
  t.n = task ? task->count : 0;
  if (threadIdx.x == 0) chunks.most = 0;
  __syncthreads();
  if (t.j == 0) {
    const int64_t at = task ? task->local_begin * kElementBytes : 0;
    chunks.base[t.g] = task ? staging + task->x_offset + at : nullptr;
    chunks.base[kLaneGroups + t.g] = task ? staging + task->y_offset + at : nullptr;
    chunks.count[t.g] = t.n;
    if (task) atomicMax(reinterpret_cast<unsigned long long*>(&chunks.most), task->count);
  }
  __syncthreads();
  return t;
}

template <ViewKind K>
__global__ void __launch_bounds__(kLaneThreads, DUMPCMP_LANE_MIN_BLOCKS)
    lift_pair_tiles(LiftPairTask lift, int64_t first, int64_t end, PairAccumulator* out) {
  using Tiles = LaneTiles<K>;
  // The tile rows; after the first pass's last tile, the lanes meet there.
  constexpr int kRowsBytes =
      Tiles::kBytes > static_cast<int>(sizeof(detail::FiniteLanes)) * kLaneGroups
          ? Tiles::kBytes
          : static_cast<int>(sizeof(detail::FiniteLanes)) * kLaneGroups;
  __shared__ alignas(16) unsigned char rows[kRowsBytes];
  __shared__ alignas(
      PairAccumulator) unsigned char acc_storage[sizeof(PairAccumulator) * kLaneGroups];
  auto* acc = reinterpret_cast<PairAccumulator*>(acc_storage);
  __shared__ double m2[kLaneGroups][2][kLanes];
  __shared__ bool finite[kLaneGroups];
  __shared__ TileChunks chunks;
  const auto [g, j, c, active, n] =
      tile_thread<Tiles::kElementBytes>(lift.staging, lift.tasks, first, end, chunks);
  const Tiles tiles{rows, chunks.base, chunks.count};

  detail::FiniteLane lane;
  for (int64_t begin = 0; begin < chunks.most; begin += kTileElements) {
    tiles.load(begin);
    __syncthreads();
    if (begin < n) {
      const int64_t tn = n - begin < kTileElements ? n - begin : kTileElements;
      const auto x = tiles.view(0, g), y = tiles.view(1, g);
      DUMPCMP_UNROLL
      for (int64_t i = j; i < tn; i += kLanes) lane.lift(x[i], y[i]);
    }
    __syncthreads();
  }
  auto* lanes = reinterpret_cast<detail::FiniteLanes*>(rows);
  if (active) lanes[g].set(j, lane);
  __syncthreads();
  if (active && j == 0) {
    finite[g] = lanes[g].finite();
    acc[g] = finite[g] ? detail::sum_finite_lanes(lanes[g], n) : lift_special_task<K>(lift, c);
  }
  __syncthreads();

  // The squared deviations: the chunks that need them, through the tiles again.
  const bool deviations = active && finite[g] && n > 0;
  if (j == 0 && !deviations) chunks.base[g] = chunks.base[kLaneGroups + g] = nullptr;
  __syncthreads();
  double mx = 0.0, my = 0.0;
  const double mean_x = deviations ? acc[g].x.mean : 0.0, mean_y = deviations ? acc[g].y.mean : 0.0;
  for (int64_t begin = 0; begin < chunks.most; begin += kTileElements) {
    tiles.load(begin);
    __syncthreads();
    if (deviations && begin < n) {
      const int64_t tn = n - begin < kTileElements ? n - begin : kTileElements;
      detail::add_m2_lane(tiles.view(0, g), tiles.view(1, g), tn, j, mean_x, mean_y, mx, my);
    }
    __syncthreads();
  }
  if (deviations) {
    m2[g][0][j] = mx;
    m2[g][1][j] = my;
  }
  __syncthreads();
  if (active && j == 0) {
    if (deviations) detail::add_m2_lanes(acc[g], m2[g][0], m2[g][1]);
    out[c] = acc[g];
  }
}

template <ViewKind K>
__global__ void __launch_bounds__(kLaneThreads, DUMPCMP_LANE_MIN_BLOCKS)
    lift_kld_tiles(LiftKldTask lift, int64_t first, int64_t end, KldAccumulator* out) {
  using Tiles = LaneTiles<K>;
  __shared__ alignas(16) unsigned char rows[Tiles::kBytes];
  __shared__ double sums[kLaneGroups][3][kLanes];
  __shared__ TileChunks chunks;
  const auto [g, j, c, active, n] =
      tile_thread<Tiles::kElementBytes>(lift.staging, lift.tasks, first, end, chunks);
  const Tiles tiles{rows, chunks.base, chunks.count};
  double sp = 0.0, sq = 0.0, st = 0.0;
  const KldScale sx = active ? lift.tasks[c].sx : KldScale{},
                 sy = active ? lift.tasks[c].sy : KldScale{};
  for (int64_t begin = 0; begin < chunks.most; begin += kTileElements) {
    tiles.load(begin);
    __syncthreads();
    if (begin < n) {
      const int64_t tn = n - begin < kTileElements ? n - begin : kTileElements;
      add_kld_lane(tiles.view(0, g), tiles.view(1, g), tn, j, sx, sy, sp, sq, st);
    }
    __syncthreads();
  }
  if (active) {
    sums[g][0][j] = sp;
    sums[g][1][j] = sq;
    sums[g][2][j] = st;
  }
  __syncthreads();
  if (active && j == 0) out[c] = KldAccumulator::from_lanes(sums[g][0], sums[g][1], sums[g][2]);
}

}  // namespace dumpcmp::device
