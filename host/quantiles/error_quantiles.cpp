#include "quantiles/error_quantiles.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "math/accumulator.hpp"
#include "math/chunk_plan.hpp"
#include "simd/decode_elements.hpp"

namespace dumpcmp {
namespace {

// A non-negative float32 orders as its bits do, so an error is kept as its bits (the key); every
// key above +inf's is a NaN.
constexpr uint32_t kInfKey = 0x7F800000u;

uint32_t bits_of(float v) {
  uint32_t k;
  std::memcpy(&k, &v, sizeof k);
  return k;
}

float float_of(uint32_t k) {
  float v;
  std::memcpy(&v, &k, sizeof v);
  return v;
}

// The first pass's errors (math/accumulator.hpp): |x - y| in float32, and the relative term.
std::array<uint32_t, kErrorMeasures> error_keys(float x, float y) {
  return {bits_of(std::fabs(x - y)), bits_of(detail::relative_term(x, y))};
}

int histogram_bin(uint32_t key) {
  if (key > kInfKey) return kHistogramBins - 1;
  if (key == 0) return 0;
  int bin = 1;
  for (float edge : kHistogramEdges) bin += key >= bits_of(edge);
  return bin;
}

// Tensors up to this many elements are sorted whole (two uint32 keys an element); larger ones are
// selected by counting passes, whose memory does not grow with the tensor.
constexpr int64_t kSortLimit = int64_t{1} << 16;

// Calls f(x, y) for every element of job in [begin, end), decoded a chunk at a time.
template <typename F>
void for_each_pair(const TensorPairJob& job, int64_t begin, int64_t end, std::vector<float>& bx,
                   std::vector<float>& by, F f) {
  for (int64_t at = begin; at < end; at += kChunkElements) {
    const int64_t n = std::min(kChunkElements, end - at);
    const Float32Bytes x = elements_of(job.x, at, n, bx.data());
    const Float32Bytes y = elements_of(job.y, at, n, by.data());
    for (int64_t i = 0; i < n; ++i) f(x[i], y[i]);
  }
}

// The ranks of the order statistics the quantiles need, and how to combine them.
struct QuantileRanks {
  std::array<int64_t, kQuantileLevels.size()> lo{}, hi{};
  std::array<double, kQuantileLevels.size()> t{};
};

// numpy's 'linear' method: the virtual index (n - 1) q between its floor and the next rank.
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

void finish_quantiles(ErrorDistribution& d, const QuantileRanks& r,
                      const std::array<uint32_t, kQuantileLevels.size()>& lo_key,
                      const std::array<uint32_t, kQuantileLevels.size()>& hi_key) {
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    d.quantile[q] = d.count == 0
                        ? std::numeric_limits<double>::quiet_NaN()
                        : interpolate_quantile(float_of(lo_key[q]), float_of(hi_key[q]), r.t[q]);
  }
}

// A small tensor: both errors of every element collected and sorted.
PairQuantiles sorted_quantiles(const TensorPairJob& job, std::vector<float>& bx,
                               std::vector<float>& by) {
  PairQuantiles out;
  std::array<std::vector<uint32_t>, kErrorMeasures> keys;
  for (auto& k : keys) k.reserve(static_cast<std::size_t>(job.x.count));
  for_each_pair(job, 0, job.x.count, bx, by, [&](float x, float y) {
    const auto k = error_keys(x, y);
    for (int m = 0; m < kErrorMeasures; ++m) {
      ++out.measure[m].histogram[histogram_bin(k[m])];
      if (k[m] <= kInfKey) keys[m].push_back(k[m]);
    }
  });
  for (int m = 0; m < kErrorMeasures; ++m) {
    std::vector<uint32_t>& v = keys[m];
    std::sort(v.begin(), v.end());
    ErrorDistribution& d = out.measure[m];
    d.count = static_cast<int64_t>(v.size());
    const QuantileRanks r = quantile_ranks(d.count);
    std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
    for (std::size_t q = 0; q < kQuantileLevels.size() && d.count > 0; ++q) {
      lo[q] = v[static_cast<std::size_t>(r.lo[q])];
      hi[q] = v[static_cast<std::size_t>(r.hi[q])];
    }
    finish_quantiles(d, r, lo, hi);
  }
  return out;
}

// Radix selection of a large tensor's order statistics. Each pass counts, for every wanted rank
// still open, the keys that share its known high bits by their next bits; three passes (12, 10
// and 10 bits) fix every bit. Counts are exact integers, so the thread count cannot change them.
class RadixSelection {
 public:
  static constexpr int kLevels = 3;
  static constexpr std::array<int, kLevels> kShift = {20, 10, 0};  // where each level's bits lie
  static constexpr std::array<int, kLevels> kBits = {12, 10, 10};

  RadixSelection(const TensorPairJob& job, int threads) : job_(job), threads_(threads) {}

  PairQuantiles run() {
    PairQuantiles out;
    count_level(0, &out);
    for (int m = 0; m < kErrorMeasures; ++m) {
      ErrorDistribution& d = out.measure[m];
      d.count = 0;
      for (int b = 0; b < kHistogramBins - 1; ++b) d.count += d.histogram[b];
      ranks_[m] = quantile_ranks(d.count);
      for (std::size_t q = 0; q < kQuantileLevels.size() && d.count > 0; ++q) {
        wanted_[m][2 * q] = {r_lo(m, q), 0};
        wanted_[m][2 * q + 1] = {r_hi(m, q), 0};
      }
      if (d.count == 0) wanted_[m] = {};
    }
    narrow(0);
    for (int level = 1; level < kLevels; ++level) {
      count_level(level, nullptr);
      narrow(level);
    }
    for (int m = 0; m < kErrorMeasures; ++m) {
      std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
      for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
        lo[q] = wanted_[m][2 * q].prefix;
        hi[q] = wanted_[m][2 * q + 1].prefix;
      }
      finish_quantiles(out.measure[m], ranks_[m], lo, hi);
    }
    return out;
  }

 private:
  // A wanted order statistic: its rank among the keys that share the bits found so far (prefix).
  struct Wanted {
    int64_t rank = 0;
    uint32_t prefix = 0;
  };
  static constexpr std::size_t kWanted = 2 * kQuantileLevels.size();

  int64_t r_lo(int m, std::size_t q) const { return ranks_[m].lo[q]; }
  int64_t r_hi(int m, std::size_t q) const { return ranks_[m].hi[q]; }

  // counts_[m][w][bucket]: keys of measure m with wanted w's prefix, by their bits at `level`.
  void count_level(int level, PairQuantiles* histograms) {
    const std::size_t buckets = std::size_t{1} << kBits[level];
    const std::size_t slots = level == 0 ? 1 : kWanted;
    for (auto& per_measure : counts_) per_measure.assign(slots * buckets, 0);
    const int64_t n = job_.x.count;
    const int64_t chunks = (n + kChunkElements - 1) / kChunkElements;
#pragma omp parallel num_threads(threads_)
    {
      std::vector<float> bx(kChunkElements), by(kChunkElements);
      std::array<std::vector<int64_t>, kErrorMeasures> local;
      for (auto& l : local) l.assign(slots * buckets, 0);
      std::array<std::array<int64_t, kHistogramBins>, kErrorMeasures> bins{};
      const int above = level == 0 ? 32 : kShift[level - 1];  // the prefix: bits above `level`
      const uint32_t mask = static_cast<uint32_t>(buckets - 1);
#pragma omp for schedule(dynamic, 4)
      for (int64_t c = 0; c < chunks; ++c) {
        const int64_t begin = c * kChunkElements;
        for_each_pair(job_, begin, std::min(n, begin + kChunkElements), bx, by,
                      [&](float x, float y) {
                        const auto k = error_keys(x, y);
                        for (int m = 0; m < kErrorMeasures; ++m) {
                          if (histograms) ++bins[m][histogram_bin(k[m])];
                          if (k[m] > kInfKey) continue;
                          const uint32_t bucket = (k[m] >> kShift[level]) & mask;
                          if (level == 0) {
                            ++local[m][bucket];
                            continue;
                          }
                          const uint32_t prefix = static_cast<uint32_t>(uint64_t{k[m]} >> above);
                          for (std::size_t w = 0; w < kWanted; ++w) {
                            if (wanted_[m][w].prefix == prefix && first_of_prefix(m, w)) {
                              ++local[m][w * buckets + bucket];
                            }
                          }
                        }
                      });
      }
#pragma omp critical
      for (int m = 0; m < kErrorMeasures; ++m) {
        for (std::size_t i = 0; i < local[m].size(); ++i) counts_[m][i] += local[m][i];
        if (histograms) {
          for (int b = 0; b < kHistogramBins; ++b)
            histograms->measure[m].histogram[b] += bins[m][b];
        }
      }
    }
  }

  // Whether wanted w is the first with its prefix (the others read its counts).
  bool first_of_prefix(int m, std::size_t w) const { return first_[m][w] == w; }

  // Fixes each wanted statistic's bits at `level` from the counts, and its rank among the keys
  // that share them.
  void narrow(int level) {
    const std::size_t buckets = std::size_t{1} << kBits[level];
    for (int m = 0; m < kErrorMeasures; ++m) {
      std::array<std::size_t, kWanted> first = first_[m];
      for (std::size_t w = 0; w < kWanted; ++w) {
        Wanted& s = wanted_[m][w];
        const int64_t* counts = counts_[m].data() + (level == 0 ? 0 : first[w] * buckets);
        std::size_t bucket = 0;
        for (; bucket + 1 < buckets && s.rank >= counts[bucket]; ++bucket) s.rank -= counts[bucket];
        s.prefix = (s.prefix << kBits[level]) | static_cast<uint32_t>(bucket);
      }
      // Wanted statistics that now share a prefix share its counts in the next pass.
      for (std::size_t w = 0; w < kWanted; ++w) {
        first_[m][w] = w;
        for (std::size_t v = 0; v < w; ++v) {
          if (wanted_[m][v].prefix == wanted_[m][w].prefix) {
            first_[m][w] = v;
            break;
          }
        }
      }
    }
  }

  const TensorPairJob& job_;
  int threads_;
  std::array<QuantileRanks, kErrorMeasures> ranks_;
  std::array<std::array<Wanted, kWanted>, kErrorMeasures> wanted_{};
  std::array<std::array<std::size_t, kWanted>, kErrorMeasures> first_{};
  std::array<std::vector<int64_t>, kErrorMeasures> counts_;
};

}  // namespace

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
    if (jobs[j].x.count <= kSortLimit) {
      small.push_back(static_cast<int64_t>(j));
    } else {
      out[j] = RadixSelection(jobs[j], threads).run();
    }
  }
  const auto count = static_cast<int64_t>(small.size());
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> bx(kChunkElements), by(kChunkElements);
#pragma omp for schedule(dynamic)
    for (int64_t i = 0; i < count; ++i) {
      const auto j = static_cast<std::size_t>(small[static_cast<std::size_t>(i)]);
      out[j] = sorted_quantiles(jobs[j], bx, by);
    }
  }
}

}  // namespace dumpcmp
