#include "backend/cpu_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <new>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "math/chunk_plan.hpp"
#include "simd/chunk_lift.hpp"
#include "simd/decode_elements.hpp"

namespace dumpcmp {
namespace {

// Scratch for one chunk's decoded elements, per thread.
struct DecodeBuffers {
  std::vector<float> x = std::vector<float>(CpuBackend::kChunkElements);
  std::vector<float> y = std::vector<float>(CpuBackend::kChunkElements);
};

// The order chunks are handed to threads. A chunk's partial does not depend on when it runs (the
// merge order is fixed), so the chunks of each tensor run in the order of their first element in
// the file: read through a device layout (NC1HWC0 in NCHW order), the chunks of one C0 group's
// channels then run one after another while the group's cache lines are loaded, instead of each
// channel making its own pass over the whole tensor.
std::vector<int64_t> chunk_order(const std::vector<TensorPairJob>& jobs, const ChunkPlan& plan) {
  std::vector<int64_t> order(plan.chunks.size()), key(plan.chunks.size());
  for (std::size_t c = 0; c < order.size(); ++c) {
    const Chunk& chunk = plan.chunks[c];
    order[c] = static_cast<int64_t>(c);
    key[c] = first_source_element(jobs[static_cast<std::size_t>(chunk.job)], chunk.begin);
  }
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const Chunk &ca = plan.chunks[static_cast<std::size_t>(a)],
                &cb = plan.chunks[static_cast<std::size_t>(b)];
    if (ca.job != cb.job) return ca.job < cb.job;
    return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)];
  });
  return order;
}

// Where the first pass keeps the bits of a job's 16-bit sides for the KLD pass (null: not kept).
struct KeptSides {
  std::vector<uint16_t*> x, y;
};

template <typename Acc, typename Lift>
void reduce_chunks(const std::vector<TensorPairJob>& jobs, const ChunkPlan& plan,
                   const std::vector<int64_t>& order, const std::vector<char>& active, int threads,
                   std::vector<Acc>& partials, Lift lift, KeptSides* keep = nullptr) {
  const int64_t chunk_count = static_cast<int64_t>(plan.chunks.size());
  partials.assign(plan.chunks.size(), Acc{});
#pragma omp parallel num_threads(threads)
  {
    DecodeBuffers buffers;
#pragma omp for schedule(dynamic, 4)
    for (int64_t k = 0; k < chunk_count; ++k) {
      const int64_t c = order[static_cast<std::size_t>(k)];
      const Chunk& chunk = plan.chunks[static_cast<std::size_t>(c)];
      const auto j = static_cast<std::size_t>(chunk.job);
      const TensorPairJob& job = jobs[j];
      if (!active[j] || chunk.count == 0) continue;
      const auto kept = [&](const std::vector<uint16_t*>& sides) -> uint16_t* {
        return sides[j] == nullptr ? nullptr : sides[j] + chunk.begin;
      };
      const ChunkSide x = chunk_side(job.x, chunk.begin, chunk.count, buffers.x.data(),
                                     keep ? kept(keep->x) : nullptr);
      const ChunkSide y = chunk_side(job.y, chunk.begin, chunk.count, buffers.y.data(),
                                     keep ? kept(keep->y) : nullptr);
      partials[static_cast<std::size_t>(c)] = lift(j, x, y, chunk.count);
    }
  }
  for (std::size_t j = 0; j + 1 < plan.first_chunk.size(); ++j) {
    const int64_t first = plan.first_chunk[j];
    merge_pairwise(partials.data() + first, plan.first_chunk[j + 1] - first);
  }
}

// Bytes a side's payload holds.
uint64_t payload_bytes(const ElementSource& s) {
  const int64_t held = s.layout != nullptr && s.source_count > 0 ? s.source_count : s.count;
  return static_cast<uint64_t>(held) * dtype_storage_size(s.dtype);
}

// A kept copy smaller than this is not worth its memory: the second gather of a small side costs
// little (2,000 outputs of 2 KiB through -f: the same time, 4.6 MB less).
constexpr uint64_t kMinKeptBytes = 64 << 10;

// Sides the KLD pass would gather again through their layout (a binary16 NC1HWC0 output against
// its NCHW golden): the first pass keeps their bits in the compared order, 2 bytes an element, and
// the KLD pass reads those in order. Kept while a job's copies stay within a third of its pair's
// payload, so that peak memory stays near the pair's own. All copies of a batch share one buffer,
// reused batch after batch: memory follows the data, however many small tensors a batch holds.
// Keeping only saves time: without memory for the copies, the sides are gathered again; so are
// sides under kMinKeptBytes.
KeptSides sides_to_keep(const std::vector<TensorPairJob>& jobs, ScratchBuffer& buffer) {
  KeptSides keep;
  keep.x.assign(jobs.size(), nullptr);
  keep.y.assign(jobs.size(), nullptr);
  constexpr uint64_t kAlign = 64;  // each copy starts on its own cache line
  std::vector<std::pair<uint16_t**, uint64_t>> offsets;
  uint64_t total = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const TensorPairJob& job = jobs[j];
    if (!job.need_kld || job.both_bool || job.whole != nullptr) continue;
    const uint64_t budget = (payload_bytes(job.x) + payload_bytes(job.y)) / 3;
    uint64_t used = 0;
    for (auto [side, kept] : {std::pair{&job.x, &keep.x[j]}, std::pair{&job.y, &keep.y[j]}}) {
      const uint64_t bytes = 2 * static_cast<uint64_t>(side->count);
      if (!can_keep_gathered(*side) || bytes < kMinKeptBytes || used + bytes > budget) continue;
      offsets.emplace_back(kept, total);
      total += (bytes + kAlign - 1) / kAlign * kAlign;
      used += bytes;
    }
  }
  if (offsets.empty()) return keep;
  uint8_t* base = nullptr;
  try {
    base = static_cast<uint8_t*>(buffer.reserve(total));
  } catch (const std::bad_alloc&) {
    return KeptSides{std::vector<uint16_t*>(jobs.size()), std::vector<uint16_t*>(jobs.size())};
  }
  for (auto [kept, offset] : offsets) *kept = reinterpret_cast<uint16_t*>(base + offset);
  return keep;
}

// A kept side as a source: its elements in order, no layout.
ElementSource kept_source(const ElementSource& side, const uint16_t* bits) {
  ElementSource s = side;
  s.data = reinterpret_cast<const uint8_t*>(bits);
  s.layout = nullptr;
  s.source_count = 0;
  return s;
}

}  // namespace

CpuBackend::CpuBackend(int threads) : threads_(threads > 0 ? threads : omp_get_num_procs()) {}

void CpuBackend::reduce(const std::vector<TensorPairJob>& jobs, std::vector<PairStats>& stats) {
  stats.assign(jobs.size(), PairStats{});
  std::vector<int64_t> counts;
  counts.reserve(jobs.size());
  for (const TensorPairJob& job : jobs) counts.push_back(job.x.count);
  const ChunkPlan plan = make_chunk_plan(counts, kChunkElements);
  const std::vector<int64_t> order = chunk_order(jobs, plan);

  std::vector<char> numeric(jobs.size()), boolean(jobs.size()), kld(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    // A slice with its whole tensor's first pass needs only the KLD pass.
    boolean[j] = jobs[j].both_bool && !jobs[j].whole;
    numeric[j] = !jobs[j].both_bool && !jobs[j].whole;
  }

  KeptSides keep = sides_to_keep(jobs, kept_buffer_);
  // A kept side whose layout reads whole channel blocks is gathered up front, each block read
  // once; both passes then read it in order. Other kept sides are gathered by the first pass,
  // chunk by chunk.
  std::vector<TensorPairJob> first_jobs = jobs;
  KeptSides first_keep = keep;
  const auto gather_up_front = [this](const ElementSource& side, uint16_t* kept,
                                      ElementSource& first_side, uint16_t*& first_kept) {
    if (kept == nullptr || !gather_bits16_by_blocks(side, kept, threads_)) return;
    first_side = kept_source(side, kept);
    first_kept = nullptr;
  };
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    gather_up_front(jobs[j].x, keep.x[j], first_jobs[j].x, first_keep.x[j]);
    gather_up_front(jobs[j].y, keep.y[j], first_jobs[j].y, first_keep.y[j]);
  }
  const std::vector<int64_t> first_order = chunk_order(first_jobs, plan);
  std::vector<PairAccumulator> pair_partials;
  reduce_chunks(
      first_jobs, plan, first_order, numeric, threads_, pair_partials,
      [](std::size_t, ChunkSide x, ChunkSide y, int64_t n) {
        return simd::lift_pair_chunk(x, y, n);
      },
      &first_keep);
  std::vector<BoolAccumulator> bool_partials;
  reduce_chunks(jobs, plan, order, boolean, threads_, bool_partials,
                [](std::size_t, ChunkSide x, ChunkSide y, int64_t n) {
                  // Both sides bool: decoded into float32, never binary16 bits.
                  return lift_bool_chunk(Float32Bytes(x.bytes), Float32Bytes(y.bytes), n);
                });

  std::vector<KldScale> scale_x(jobs.size()), scale_y(jobs.size());
  bool any_kld = false;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto first = static_cast<std::size_t>(plan.first_chunk[j]);
    stats[j].both_bool = jobs[j].both_bool;
    stats[j].pair = pair_partials[first];
    stats[j].boolean = bool_partials[first];
    kld[j] = wants_kld_pass(jobs[j], stats[j]);
    any_kld = any_kld || kld[j];
    scale_x[j] = kld_scale_x(jobs[j], stats[j]);
    scale_y[j] = kld_scale_y(jobs[j], stats[j]);
  }
  if (!any_kld) return;

  std::vector<TensorPairJob> kld_jobs = jobs;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (keep.x[j] != nullptr) kld_jobs[j].x = kept_source(jobs[j].x, keep.x[j]);
    if (keep.y[j] != nullptr) kld_jobs[j].y = kept_source(jobs[j].y, keep.y[j]);
  }
  std::vector<KldAccumulator> kld_partials;
  reduce_chunks(kld_jobs, plan, order, kld, threads_, kld_partials,
                [&](std::size_t j, ChunkSide x, ChunkSide y, int64_t n) {
                  return simd::lift_kld_chunk(x, y, n, scale_x[j], scale_y[j]);
                });
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (kld[j]) stats[j].kld = kld_partials[static_cast<std::size_t>(plan.first_chunk[j])];
  }
}

}  // namespace dumpcmp
