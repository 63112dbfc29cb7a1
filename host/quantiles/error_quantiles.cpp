#include "quantiles/error_quantiles.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "math/chunk_plan.hpp"
#include "math/error_keys.hpp"
#include "simd/decode_elements.hpp"
#include "simd/error_keys.hpp"

namespace dumpcmp {
namespace {

float float_of(uint32_t key) {
  float v;
  std::memcpy(&v, &key, sizeof v);
  return v;
}

// Tensors up to this many elements have their errors collected and selected in memory (two
// uint32 keys an element); larger ones are selected by counting passes, whose memory does not
// grow with the tensor.
constexpr int64_t kInMemoryLimit = int64_t{1} << 16;

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

// The quantiles from the keys of their order statistics (ranks lo and hi of each level).
void finish_quantiles(ErrorDistribution& d, const QuantileRanks& r,
                      const std::array<uint32_t, kQuantileLevels.size()>& lo_key,
                      const std::array<uint32_t, kQuantileLevels.size()>& hi_key) {
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    d.quantile[q] = d.count == 0
                        ? std::numeric_limits<double>::quiet_NaN()
                        : interpolate_quantile(float_of(lo_key[q]), float_of(hi_key[q]), r.t[q]);
  }
}

// A small tensor: its errors collected, the wanted order statistics selected in place.
PairQuantiles in_memory_quantiles(const TensorPairJob& job, ChunkKeys& chunk) {
  PairQuantiles out;
  std::array<std::vector<uint32_t>, kErrorMeasures> keys;
  for (auto& k : keys) k.reserve(static_cast<std::size_t>(job.x.count));
  for (int64_t at = 0; at < job.x.count; at += kChunkElements) {
    const int64_t n = std::min(kChunkElements, job.x.count - at);
    chunk.fill(job, at, n);
    for (int m = 0; m < kErrorMeasures; ++m) {
      chunk.add_histogram(m, n, out.measure[m].histogram);
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t k = chunk.key[m][static_cast<std::size_t>(i)];
        if (k <= kInfKey) keys[m].push_back(k);
      }
    }
  }
  for (int m = 0; m < kErrorMeasures; ++m) {
    std::vector<uint32_t>& v = keys[m];
    ErrorDistribution& d = out.measure[m];
    d.count = static_cast<int64_t>(v.size());
    const QuantileRanks r = quantile_ranks(d.count);
    std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
    select_quantile_keys(v, r, lo, hi);
    finish_quantiles(d, r, lo, hi);
  }
  return out;
}

// Radix selection of a large tensor's order statistics in two counting passes. Pass 1 counts every
// error by its top 16 bits (and fills the histogram); each wanted order statistic then knows its
// bucket and its rank inside it. Pass 2 counts the errors of the wanted buckets by their low 16
// bits, which fixes the rest. Counts are exact integers, summed from per-thread counts, so the
// thread count cannot change them.
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
    PairQuantiles out;
    count_pass(true, out);
    std::array<QuantileRanks, kErrorMeasures> ranks;
    for (int m = 0; m < kErrorMeasures; ++m) {
      ErrorDistribution& d = out.measure[m];
      for (int b = 0; b < kHistogramBins - 1; ++b) d.count += d.histogram[b];
      ranks[m] = quantile_ranks(d.count);
      slot_of_[m].assign(kBuckets, kNoSlot);
      buckets_[m].clear();
      for (std::size_t q = 0; q < kQuantileLevels.size() && d.count > 0; ++q) {
        for (const int64_t rank : {ranks[m].lo[q], ranks[m].hi[q]}) {
          Wanted w;
          w.rank = rank;
          w.high = locate(counts_[m].data(), w.rank);  // now the rank inside the bucket
          if (slot_of_[m][w.high] == kNoSlot) {
            slot_of_[m][w.high] = static_cast<uint8_t>(buckets_[m].size());
            buckets_[m].push_back(w.high);
          }
          wanted_[m].push_back(w);
        }
      }
    }
    count_pass(false, out);
    for (int m = 0; m < kErrorMeasures; ++m) {
      std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
      for (std::size_t w = 0; w < wanted_[m].size(); ++w) {
        Wanted s = wanted_[m][w];
        const std::size_t slot = slot_of_[m][s.high];
        const uint32_t low = locate(counts_[m].data() + slot * kBuckets, s.rank);
        (w % 2 == 0 ? lo : hi)[w / 2] = (s.high << 16) | low;
      }
      finish_quantiles(out.measure[m], ranks[m], lo, hi);
    }
    return out;
  }

 private:
  static constexpr std::size_t kBuckets = std::size_t{1} << 16;
  static constexpr uint8_t kNoSlot = 0xFF;

  struct Wanted {
    int64_t rank = 0;   // among all keys; after pass 1, among the keys of its bucket
    uint32_t high = 0;  // its top 16 bits, found by pass 1
  };

  // The bucket holding the key of `rank` (counted from 0) among counts[0..kBuckets); rank becomes
  // its rank inside that bucket.
  static uint32_t locate(const int64_t* counts, int64_t& rank) {
    std::size_t b = 0;
    for (; b + 1 < kBuckets && rank >= counts[b]; ++b) rank -= counts[b];
    return static_cast<uint32_t>(b);
  }

  // Pass 1 (first): every key by its top 16 bits, and the histogram. Pass 2: the keys of the
  // wanted buckets by their low 16 bits, one block of counts per bucket.
  void count_pass(bool first, PairQuantiles& out) {
    std::array<std::size_t, kErrorMeasures> blocks{};
    for (int m = 0; m < kErrorMeasures; ++m) {
      blocks[m] = first ? 1 : buckets_[m].size();
      counts_[m].assign(blocks[m] * kBuckets, 0);
    }
    const auto chunks = static_cast<int64_t>(order_.size());
#pragma omp parallel num_threads(threads_)
    {
      ChunkKeys chunk;
      // uint32 counts per thread, moved to the int64 totals before they could overflow.
      std::array<std::vector<uint32_t>, kErrorMeasures> local;
      for (int m = 0; m < kErrorMeasures; ++m) local[m].assign(blocks[m] * kBuckets, 0);
      std::array<std::array<int64_t, kHistogramBins>, kErrorMeasures> bins{};
      int64_t unflushed = 0;
      auto flush = [&] {
#pragma omp critical
        for (int m = 0; m < kErrorMeasures; ++m) {
          for (std::size_t i = 0; i < local[m].size(); ++i) counts_[m][i] += local[m][i];
          std::fill(local[m].begin(), local[m].end(), 0u);
          if (first) {
            for (int b = 0; b < kHistogramBins; ++b) out.measure[m].histogram[b] += bins[m][b];
            bins[m] = {};
          }
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
          // Zeros (equal elements, often most of a tensor) are left to the histogram's first bin,
          // which counts them without a chain of increments on one counter; added below.
          if (first) {
            chunk.add_histogram(m, n, bins[m]);
            for (int64_t i = 0; i < n; ++i) {
              if (keys[i] - 1u < kInfKey) ++counts[keys[i] >> 16];  // not 0, not NaN
            }
            continue;
          }
          const uint8_t* slot_of = slot_of_[m].data();
          for (int64_t i = 0; i < n; ++i) {
            // A NaN key counted here sorts after every wanted key (none is above +inf's), so it
            // cannot move their ranks.
            const uint8_t slot = slot_of[keys[i] >> 16];
            if (slot != kNoSlot && keys[i] != 0) ++counts[slot * kBuckets + (keys[i] & 0xFFFFu)];
          }
        }
      }
      flush();
    }
    // The zeros left out above: key 0 is bucket 0 in pass 1 and low bits 0 of bucket 0 in pass 2.
    for (int m = 0; m < kErrorMeasures; ++m) {
      const int64_t zeros = out.measure[m].histogram[0];
      if (first) {
        counts_[m][0] += zeros;
      } else if (slot_of_[m][0] != kNoSlot) {
        counts_[m][slot_of_[m][0] * kBuckets] += zeros;
      }
    }
  }

  const TensorPairJob& job_;
  int threads_;
  std::vector<int64_t> order_;
  std::array<std::vector<int64_t>, kErrorMeasures> counts_;
  // Per measure: the wanted statistics (lo, hi of each level in turn), the distinct buckets they
  // lie in, and each bucket's slot among those (kNoSlot: not wanted).
  std::array<std::vector<Wanted>, kErrorMeasures> wanted_;
  std::array<std::vector<uint32_t>, kErrorMeasures> buckets_;
  std::array<std::vector<uint8_t>, kErrorMeasures> slot_of_;
};

}  // namespace

QuantileRanks quantile_ranks(int64_t n) {
  QuantileRanks r;
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    const double index = static_cast<double>(n - 1) * kQuantileLevels[q];
    const double floor_index = std::floor(index);
    r.lo[q] = static_cast<int64_t>(floor_index);
    r.hi[q] = std::min(r.lo[q] + 1, n - 1);
    r.t[q] = index - floor_index;
  }
  return r;
}

double interpolate_quantile(double a, double b, double t) {
  if (t == 0 || a == b) return a;
  if (std::isinf(b)) return b;
  // numpy's _lerp: from a below the middle, from b at or above it.
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

void compute_error_quantiles(const std::vector<TensorPairJob>& jobs,
                             std::vector<PairQuantiles>& out, int threads) {
  if (threads <= 0) threads = omp_get_num_procs();
  out.assign(jobs.size(), PairQuantiles{});
  std::vector<int64_t> small;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].x.count <= kInMemoryLimit) {
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
