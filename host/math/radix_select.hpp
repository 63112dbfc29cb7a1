#pragma once
// --quantiles' exact order statistics of a large tensor pair by radix selection in two counting
// passes over its error keys (math/error_keys.hpp), apart from where the counting runs: host
// threads (quantiles/error_quantiles.cpp) or device kernels (kernels/quantile_counting.hpp).
// Counts are exact integers, so every place and order of counting gives the same statistics.
//
// Pass 1 counts every key that is neither zero nor NaN by its top 16 bits (a bucket; the sign bit
// is clear, so 2^15 of them) and fills the histogram. Each wanted order statistic then knows its
// bucket and its rank inside it. Pass 2 counts the non-zero keys of the wanted buckets by their
// low 16 bits, one block of counts per wanted bucket (its slot), which fixes the rest. Zero keys,
// often most of a tensor, are counted by the histogram's first bin alone (no chain of increments
// on one counter), NaN keys by its last.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "math/error_distribution.hpp"

namespace dumpcmp {

// Pairs up to this many elements have their errors collected and selected in memory (two uint32
// keys an element); larger ones are radix-selected, whose memory does not grow with the tensor.
inline constexpr int64_t kInMemoryQuantileLimit = int64_t{1} << 16;

inline constexpr std::size_t kTopBuckets = std::size_t{1} << 15;
inline constexpr std::size_t kLowBuckets = std::size_t{1} << 16;
inline constexpr uint8_t kNoSlot = 0xFF;  // a bucket pass 2 does not count

using ErrorHistogram = std::array<int64_t, kHistogramBins>;

// The ranks of the order statistics each quantile level needs among n sorted values (numpy's
// 'linear' method: the virtual index (n - 1) q between its floor lo and the next rank hi), and the
// fraction t between them.
struct QuantileRanks {
  std::array<int64_t, kQuantileLevels.size()> lo{}, hi{};
  std::array<double, kQuantileLevels.size()> t{};
};
QuantileRanks quantile_ranks(int64_t n);

// numpy's 'linear' quantile of a sorted population from its two neighbouring order statistics
// a <= b and the fraction t between them, in double as numpy computes it; where numpy's arithmetic
// meets inf (inf - inf, inf * 0) the result is the order statistic a (t = 0) or inf.
double interpolate_quantile(double a, double b, double t);

// A measure's distribution from its histogram (count: every bin but NaN's) and the keys of its
// order statistics (ranks lo and hi of each level).
ErrorDistribution error_distribution(const ErrorHistogram& histogram,
                                     const std::array<uint32_t, kQuantileLevels.size()>& lo_key,
                                     const std::array<uint32_t, kQuantileLevels.size()>& hi_key);

// The bookkeeping of one pair's selection, both measures.
class RadixSelect {
 public:
  // After pass 1: each measure's histogram and its kTopBuckets counts.
  void choose(const std::array<ErrorHistogram, kErrorMeasures>& histogram,
              const std::array<const int64_t*, kErrorMeasures>& top);

  // Pass 2's slot of each of measure m's buckets (kNoSlot: not counted), and its slot count.
  const std::vector<uint8_t>& slot_of(int m) const { return slot_of_[m]; }
  std::size_t slots(int m) const { return buckets_[m].size(); }

  // After pass 2: low[m] holds slots(m) blocks of kLowBuckets counts.
  PairQuantiles finish(const std::array<const int64_t*, kErrorMeasures>& low) const;

 private:
  struct Wanted {
    int64_t rank = 0;     // among the bucket's keys
    uint32_t bucket = 0;  // the key's top 16 bits
  };
  std::array<ErrorHistogram, kErrorMeasures> histogram_{};
  // Per measure: the wanted statistics (lo, hi of each level in turn), the distinct buckets they
  // lie in, and each bucket's slot among those.
  std::array<std::vector<Wanted>, kErrorMeasures> wanted_;
  std::array<std::vector<uint32_t>, kErrorMeasures> buckets_;
  std::array<std::vector<uint8_t>, kErrorMeasures> slot_of_;
};

}  // namespace dumpcmp
