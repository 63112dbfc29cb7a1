#include "math/radix_select.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace dumpcmp {
namespace {

float float_of(uint32_t key) {
  float v;
  std::memcpy(&v, &key, sizeof v);
  return v;
}

// The index holding the value of `rank` (counted from 0) among counts[0..n), where index 0 also
// holds `zeros` more (the zero keys, which the passes leave to the histogram); rank becomes its
// rank inside that index.
uint32_t locate(const int64_t* counts, std::size_t n, int64_t zeros, int64_t& rank) {
  std::size_t b = 0;
  for (; b + 1 < n && rank >= counts[b] + (b == 0 ? zeros : 0); ++b) {
    rank -= counts[b] + (b == 0 ? zeros : 0);
  }
  return static_cast<uint32_t>(b);
}

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

ErrorDistribution error_distribution(const ErrorHistogram& histogram,
                                     const std::array<uint32_t, kQuantileLevels.size()>& lo_key,
                                     const std::array<uint32_t, kQuantileLevels.size()>& hi_key) {
  ErrorDistribution d;
  d.histogram = histogram;
  for (int b = 0; b < kHistogramBins - 1; ++b) d.count += histogram[b];
  const QuantileRanks r = quantile_ranks(d.count);
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    d.quantile[q] = d.count == 0
                        ? std::numeric_limits<double>::quiet_NaN()
                        : interpolate_quantile(float_of(lo_key[q]), float_of(hi_key[q]), r.t[q]);
  }
  return d;
}

void RadixSelect::choose(const std::array<ErrorHistogram, kErrorMeasures>& histogram,
                         const std::array<const int64_t*, kErrorMeasures>& top) {
  histogram_ = histogram;
  for (int m = 0; m < kErrorMeasures; ++m) {
    int64_t count = 0;
    for (int b = 0; b < kHistogramBins - 1; ++b) count += histogram[m][b];
    const QuantileRanks ranks = quantile_ranks(count);
    wanted_[m].clear();
    buckets_[m].clear();
    slot_of_[m].assign(kTopBuckets, kNoSlot);
    for (std::size_t q = 0; q < kQuantileLevels.size() && count > 0; ++q) {
      for (const int64_t rank : {ranks.lo[q], ranks.hi[q]}) {
        Wanted w;
        w.rank = rank;
        w.bucket = locate(top[m], kTopBuckets, histogram[m][0], w.rank);
        if (slot_of_[m][w.bucket] == kNoSlot) {
          slot_of_[m][w.bucket] = static_cast<uint8_t>(buckets_[m].size());
          buckets_[m].push_back(w.bucket);
        }
        wanted_[m].push_back(w);
      }
    }
  }
}

PairQuantiles RadixSelect::finish(const std::array<const int64_t*, kErrorMeasures>& low) const {
  PairQuantiles out;
  for (int m = 0; m < kErrorMeasures; ++m) {
    std::array<uint32_t, kQuantileLevels.size()> lo{}, hi{};
    for (std::size_t w = 0; w < wanted_[m].size(); ++w) {
      const Wanted& s = wanted_[m][w];
      const std::size_t slot = slot_of_[m][s.bucket];
      int64_t rank = s.rank;
      // The zero keys are low bits 0 of bucket 0.
      const uint32_t bits = locate(low[m] + slot * kLowBuckets, kLowBuckets,
                                   s.bucket == 0 ? histogram_[m][0] : 0, rank);
      (w % 2 == 0 ? lo : hi)[w / 2] = (s.bucket << 16) | bits;
    }
    out.measure[m] = error_distribution(histogram_[m], lo, hi);
  }
  return out;
}

}  // namespace dumpcmp
