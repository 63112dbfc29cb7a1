#include "quantiles/error_quantiles.hpp"

#include <omp.h>

#include <algorithm>

#include "math/chunk_plan.hpp"
#include "math/error_keys.hpp"
#include "simd/decode_elements.hpp"
#include "simd/error_keys.hpp"

namespace dumpcmp {
namespace {

// The histogram's edges as keys.
std::array<uint32_t, kHistogramEdges.size()> edge_keys() {
  std::array<uint32_t, kHistogramEdges.size()> keys{};
  for (std::size_t e = 0; e < keys.size(); ++e) keys[e] = magnitude_key(kHistogramEdges[e]);
  return keys;
}

// A chunk's elements, decoded, and both measures' keys and histogram bins (math/error_keys.hpp).
struct ChunkKeys {
  std::vector<float> x = std::vector<float>(kChunkElements), y = std::vector<float>(kChunkElements);
  std::array<std::vector<uint32_t>, kErrorMeasures> key = {std::vector<uint32_t>(kChunkElements),
                                                           std::vector<uint32_t>(kChunkElements)};
  std::array<std::vector<uint32_t>, kErrorMeasures> bin = {std::vector<uint32_t>(kChunkElements),
                                                           std::vector<uint32_t>(kChunkElements)};
  std::array<uint32_t, kHistogramEdges.size()> edges = edge_keys();

  // Elements [begin, begin + n) of job.
  void fill(const TensorPairJob& job, int64_t begin, int64_t n) {
    const Float32Bytes xs = elements_of(job.x, begin, n, x.data());
    const Float32Bytes ys = elements_of(job.y, begin, n, y.data());
    simd::error_keys(xs, ys, n, edges.data(), static_cast<int>(edges.size()), key[0].data(),
                     key[1].data(), bin[0].data(), bin[1].data());
  }

  // Adds the histogram of the first n keys of measure m: four interleaved copies of the counts,
  // since most errors fall in one or two bins and one counter would serialise the increments.
  void add_histogram(int m, int64_t n, std::array<int64_t, kHistogramBins>& out) const {
    std::array<std::array<int64_t, kHistogramBins>, 4> part{};
    const uint32_t* b = bin[m].data();
    for (int64_t i = 0; i < n; ++i) ++part[i & 3][b[i]];
    for (const auto& p : part) {
      for (int k = 0; k < kHistogramBins; ++k) out[k] += p[k];
    }
  }
};

// A small tensor: its errors collected, the wanted order statistics selected in place.
PairQuantiles in_memory_quantiles(const TensorPairJob& job, ChunkKeys& chunk) {
  std::array<ErrorHistogram, kErrorMeasures> histogram{};
  std::array<std::vector<uint32_t>, kErrorMeasures> keys;
  for (auto& k : keys) k.reserve(static_cast<std::size_t>(job.x.count));
  for (int64_t at = 0; at < job.x.count; at += kChunkElements) {
    const int64_t n = std::min(kChunkElements, job.x.count - at);
    chunk.fill(job, at, n);
    for (int m = 0; m < kErrorMeasures; ++m) {
      chunk.add_histogram(m, n, histogram[m]);
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t k = chunk.key[m][static_cast<std::size_t>(i)];
        if (k <= kInfKey) keys[m].push_back(k);
      }
    }
  }
  PairQuantiles out;
  for (int m = 0; m < kErrorMeasures; ++m) {
    std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
    select_quantile_keys(keys[m], quantile_ranks(static_cast<int64_t>(keys[m].size())), lo, hi);
    out.measure[m] = error_distribution(histogram[m], lo, hi);
  }
  return out;
}

// A large tensor's radix selection (math/radix_select.hpp), its two counting passes on host
// threads. Each thread counts its chunks in uint32 and adds them to the int64 totals, so the
// thread count cannot change the counts.
class RadixSelection {
 public:
  RadixSelection(const TensorPairJob& job, int threads) : job_(job), threads_(threads) {
    // The chunks in the order of their first element in the file (see first_source_element).
    const int64_t chunks = (job.x.count + kChunkElements - 1) / kChunkElements;
    order_.resize(static_cast<std::size_t>(chunks));
    std::vector<int64_t> key(order_.size());
    for (int64_t c = 0; c < chunks; ++c) {
      order_[static_cast<std::size_t>(c)] = c;
      key[static_cast<std::size_t>(c)] = first_source_element(job, c * kChunkElements);
    }
    std::stable_sort(order_.begin(), order_.end(), [&](int64_t a, int64_t b) {
      return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)];
    });
  }

  PairQuantiles run() {
    std::array<ErrorHistogram, kErrorMeasures> histogram{};
    count_pass(true, histogram);
    select_.choose(histogram, {counts_[0].data(), counts_[1].data()});
    count_pass(false, histogram);
    return select_.finish({counts_[0].data(), counts_[1].data()});
  }

 private:
  // Pass 1 (first): the non-zero, non-NaN keys by their top 16 bits, and the histogram. Pass 2:
  // the non-zero keys of the wanted buckets by their low 16 bits, one block per slot.
  void count_pass(bool first, std::array<ErrorHistogram, kErrorMeasures>& histogram) {
    std::array<std::size_t, kErrorMeasures> size{};
    for (int m = 0; m < kErrorMeasures; ++m) {
      size[m] = first ? kTopBuckets : select_.slots(m) * kLowBuckets;
      counts_[m].assign(size[m], 0);
    }
    const auto chunks = static_cast<int64_t>(order_.size());
#pragma omp parallel num_threads(threads_)
    {
      ChunkKeys chunk;
      // uint32 counts per thread, moved to the int64 totals before they could overflow.
      std::array<std::vector<uint32_t>, kErrorMeasures> local;
      for (int m = 0; m < kErrorMeasures; ++m) local[m].assign(size[m], 0);
      std::array<ErrorHistogram, kErrorMeasures> bins{};
      int64_t unflushed = 0;
      auto flush = [&] {
#pragma omp critical
        for (int m = 0; m < kErrorMeasures; ++m) {
          for (std::size_t i = 0; i < local[m].size(); ++i) counts_[m][i] += local[m][i];
          std::fill(local[m].begin(), local[m].end(), 0u);
          for (int b = 0; b < kHistogramBins; ++b) histogram[m][b] += bins[m][b];
          bins[m] = {};
        }
        unflushed = 0;
      };
#pragma omp for schedule(dynamic, 4)
      for (int64_t k = 0; k < chunks; ++k) {
        const int64_t begin = order_[static_cast<std::size_t>(k)] * kChunkElements;
        const int64_t n = std::min(kChunkElements, job_.x.count - begin);
        if (unflushed + n > int64_t{UINT32_MAX}) flush();
        unflushed += n;
        chunk.fill(job_, begin, n);
        for (int m = 0; m < kErrorMeasures; ++m) {
          const uint32_t* keys = chunk.key[m].data();
          uint32_t* counts = local[m].data();
          if (first) {
            chunk.add_histogram(m, n, bins[m]);
            for (int64_t i = 0; i < n; ++i) {
              if (keys[i] - 1u < kInfKey) ++counts[keys[i] >> 16];  // not 0, not NaN
            }
            continue;
          }
          const uint8_t* slot_of = select_.slot_of(m).data();
          for (int64_t i = 0; i < n; ++i) {
            // A NaN key's bucket is never wanted (none is above +inf's), nor is a zero counted.
            const uint8_t slot = slot_of[keys[i] >> 16];
            if (slot != kNoSlot && keys[i] != 0) ++counts[slot * kLowBuckets + (keys[i] & 0xFFFFu)];
          }
        }
      }
      flush();
    }
  }

  const TensorPairJob& job_;
  int threads_;
  std::vector<int64_t> order_;
  std::array<std::vector<int64_t>, kErrorMeasures> counts_;
  RadixSelect select_;
};

}  // namespace

void compute_error_quantiles(const std::vector<TensorPairJob>& jobs,
                             std::vector<PairQuantiles>& out, int threads,
                             const std::vector<char>& counted) {
  if (threads <= 0) threads = omp_get_num_procs();
  out.resize(jobs.size());
  std::vector<int64_t> small;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (j < counted.size() && counted[j]) continue;
    if (jobs[j].x.count <= kInMemoryQuantileLimit) {
      small.push_back(static_cast<int64_t>(j));
    } else {
      out[j] = RadixSelection(jobs[j], threads).run();
    }
  }
  const auto count = static_cast<int64_t>(small.size());
#pragma omp parallel num_threads(threads)
  {
    ChunkKeys chunk;
#pragma omp for schedule(dynamic)
    for (int64_t i = 0; i < count; ++i) {
      const auto j = static_cast<std::size_t>(small[static_cast<std::size_t>(i)]);
      out[j] = in_memory_quantiles(jobs[j], chunk);
    }
  }
}

}  // namespace dumpcmp
