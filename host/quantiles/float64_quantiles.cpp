#include "quantiles/float64_quantiles.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "quantiles/error_quantiles.hpp"
#include "simd/float64_keys.hpp"

namespace dumpcmp {
namespace {

// A non-negative double orders as its bits do; zero of either sign is key 0, NaN sorts last.
constexpr uint64_t kNanKey = std::numeric_limits<uint64_t>::max();

uint64_t key_of(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & (uint64_t{0} - (v != 0))) | (uint64_t{0} - (v != v));  // branch-free
}

double value_of(uint64_t key) {
  double v;
  std::memcpy(&v, &key, sizeof v);
  return v;
}

constexpr int64_t kInMemoryLimit = int64_t{1} << 16;
constexpr int64_t kChunk = int64_t{1} << 14;  // elements filled at a time
constexpr int kDigitBits = 16;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;

void finish(ErrorDistribution& d, const std::array<uint64_t, kQuantileLevels.size()>& lo,
            const std::array<uint64_t, kQuantileLevels.size()>& hi) {
  const QuantileRanks r = quantile_ranks(d.count);
  for (std::size_t q = 0; q < kQuantileLevels.size(); ++q) {
    d.quantile[q] = d.count == 0 ? std::numeric_limits<double>::quiet_NaN()
                                 : interpolate_quantile(value_of(lo[q]), value_of(hi[q]), r.t[q]);
  }
}

// A small tensor: every error collected, the wanted order statistics selected in place.
PairQuantiles in_memory(int64_t count, const Float64ErrorFill& fill) {
  std::vector<double> errors[kErrorMeasures];
  for (auto& e : errors) e.resize(static_cast<std::size_t>(count));
  fill(0, count, errors[0].data(), errors[1].data());
  PairQuantiles out;
  for (int m = 0; m < kErrorMeasures; ++m) {
    ErrorDistribution& d = out.measure[m];
    std::vector<uint64_t> keys;
    keys.reserve(errors[m].size());
    for (const double e : errors[m]) {
      ++d.histogram[static_cast<std::size_t>(float64_histogram_bin(e))];
      if (e == e) keys.push_back(key_of(e));
    }
    d.count = static_cast<int64_t>(keys.size());
    std::array<uint64_t, kQuantileLevels.size()> lo{}, hi{};
    select_quantile_keys(keys, quantile_ranks(d.count), lo, hi);
    finish(d, lo, hi);
  }
  return out;
}

// A large tensor: radix selection. Pass 0 counts every error by its top 16 bits (and fills the
// histogram); each wanted order statistic then knows its bucket and its rank inside it. While the
// errors that share a wanted statistic's known bits are many, a pass counts them by their next 16
// bits; once at most collect_limit remain for a measure, a pass collects them and selects in
// memory. Counts are exact integers summed from per-thread counts, and a selection
// does not depend on the order it meets its keys in, so the thread count cannot change a result.
class Float64Radix {
 public:
  Float64Radix(int64_t count, const Float64ErrorFill& fill, int threads, int64_t collect_limit)
      : count_(count), fill_(fill), threads_(threads), collect_limit_(collect_limit) {}

  PairQuantiles run() {
    PairQuantiles out;
    count_pass(out);
    for (int m = 0; m < kErrorMeasures; ++m) {
      ErrorDistribution& d = out.measure[m];
      for (int b = 0; b + 1 < kHistogramBins; ++b) d.count += d.histogram[b];
      const QuantileRanks r = quantile_ranks(d.count);
      for (std::size_t q = 0; q < kQuantileLevels.size() && d.count > 0; ++q) {
        wanted_[m].push_back({r.lo[q], 0, 0});
        wanted_[m].push_back({r.hi[q], 0, 0});
      }
      prefixes_[m] = {0};
      if (!wanted_[m].empty()) locate(m);
    }
    for (int m = 0; m < kErrorMeasures; ++m) done_[m] = wanted_[m].empty();
    for (known_ = kDigitBits; known_ < 64; known_ += kDigitBits) {
      for (int m = 0; m < kErrorMeasures; ++m) {
        prefixes_[m].clear();
        if (done_[m]) continue;
        int64_t remaining = 0;
        for (const Wanted& w : wanted_[m]) {
          if (std::find(prefixes_[m].begin(), prefixes_[m].end(), w.prefix) != prefixes_[m].end())
            continue;
          prefixes_[m].push_back(w.prefix);
          remaining += static_cast<int64_t>(w.sharing);
        }
        collect_[m] = remaining <= collect_limit_;
      }
      count_pass(out);
      bool all_done = true;
      for (int m = 0; m < kErrorMeasures; ++m) {
        if (done_[m]) continue;
        if (collect_[m]) {
          select_collected(m);
        } else {
          locate(m);
        }
        done_[m] = collect_[m] || known_ + kDigitBits == 64;
        all_done = all_done && done_[m];
      }
      if (all_done) break;
    }
    for (int m = 0; m < kErrorMeasures; ++m) {
      std::array<uint64_t, kQuantileLevels.size()> lo{}, hi{};
      for (std::size_t w = 0; w < wanted_[m].size(); ++w)
        (w % 2 == 0 ? lo : hi)[w / 2] = wanted_[m][w].prefix;
      finish(out.measure[m], lo, hi);
    }
    return out;
  }

 private:
  struct Wanted {
    int64_t rank;      // among the keys that share its prefix
    uint64_t prefix;   // the top known_ bits; the whole key once selected
    uint64_t sharing;  // how many keys share that prefix
  };

  std::size_t slot_of(int m, uint64_t prefix) const {
    return static_cast<std::size_t>(std::find(prefixes_[m].begin(), prefixes_[m].end(), prefix) -
                                    prefixes_[m].begin());
  }

  // After a pass that counted measure m: each wanted statistic's next digit from its group's
  // counts, or, after one that collected, its key selected from its group's keys.
  void locate(int m) {
    for (Wanted& w : wanted_[m]) {
      const std::size_t slot = slot_of(m, w.prefix);
      const int64_t* counts = counts_[m].data() + slot * kBuckets;
      std::size_t digit = 0;
      for (; digit + 1 < kBuckets && w.rank >= counts[digit]; ++digit) w.rank -= counts[digit];
      w.prefix = (w.prefix << kDigitBits) | digit;
      w.sharing = static_cast<uint64_t>(counts[digit]);
    }
  }

  void select_collected(int m) {
    for (Wanted& w : wanted_[m]) {
      std::vector<uint64_t>& keys = collected_[m][slot_of(m, w.prefix)];
      const auto at = keys.begin() + w.rank;
      std::nth_element(keys.begin(), at, keys.end());
      w.prefix = *at;
    }
  }

  // Pass 0 (known_ == 0): every key by its top digit, and the histogram. Later passes: for each
  // measure still counting, the keys whose top known_ bits are a wanted prefix, by their next
  // digit, one block of counts per prefix; for a measure collecting, those keys themselves.
  void count_pass(PairQuantiles& out) {
    const int known = known_;
    std::array<std::size_t, kErrorMeasures> blocks{};
    for (int m = 0; m < kErrorMeasures; ++m) {
      blocks[m] = known == 0 ? 1 : prefixes_[m].size();
      counts_[m].assign(collect_[m] && known > 0 ? 0 : blocks[m] * kBuckets, 0);
      collected_[m].assign(collect_[m] && known > 0 ? blocks[m] : 0, {});
      // Which top 16 bits a wanted prefix has: its slot + 1 while the prefix is those 16 bits.
      top_filter_[m].assign(kBuckets, 0);
      for (std::size_t slot = 0; known > 0 && slot < prefixes_[m].size(); ++slot) {
        top_filter_[m][prefixes_[m][slot] >> (known - kDigitBits)] = static_cast<uint8_t>(slot + 1);
      }
    }
    std::array<double, kHistogramEdges.size()> edges{};
    for (std::size_t e = 0; e < edges.size(); ++e) edges[e] = kHistogramEdges[e];
    const int64_t chunks = (count_ + kChunk - 1) / kChunk;
#pragma omp parallel num_threads(threads_)
    {
      std::vector<double> errors[kErrorMeasures] = {std::vector<double>(kChunk),
                                                    std::vector<double>(kChunk)};
      std::vector<uint64_t> keys(kChunk);
      std::vector<uint64_t> bin_of(kChunk);
      std::array<std::vector<int64_t>, kErrorMeasures> local;
      std::array<std::vector<std::vector<uint64_t>>, kErrorMeasures> gathered;
      for (int m = 0; m < kErrorMeasures; ++m) {
        local[m].assign(counts_[m].size(), 0);
        gathered[m].resize(collected_[m].size());
      }
      std::array<std::array<std::array<int64_t, kHistogramBins>, 4>, kErrorMeasures> bins{};
#pragma omp for schedule(dynamic, 4)
      for (int64_t c = 0; c < chunks; ++c) {
        const int64_t begin = c * kChunk, n = std::min(kChunk, count_ - begin);
        fill_(begin, n, errors[0].data(), errors[1].data());
        for (int m = 0; m < kErrorMeasures; ++m) {
          simd::float64_keys(errors[m].data(), n, edges.data(), static_cast<int>(edges.size()),
                             keys.data(), bin_of.data());
          int64_t* counts = local[m].data();
          if (known == 0) {
            // Four copies of the histogram, since most errors fall in one or two bins and one
            // counter would serialise the increments.
            for (int64_t i = 0; i < n; ++i) ++bins[m][i & 3][bin_of[i]];
            for (int64_t i = 0; i < n; ++i)
              counts[keys[i] >> (64 - kDigitBits)] += keys[i] != kNanKey;
            continue;
          }
          const std::vector<uint64_t>& prefixes = prefixes_[m];
          const uint8_t* filter = top_filter_[m].data();
          const int shift = 64 - known;
          for (int64_t i = 0; i < n; ++i) {
            const uint64_t key = keys[i];
            const uint8_t hit = filter[key >> (64 - kDigitBits)];  // never for NaN
            if (hit == 0) continue;
            std::size_t s = hit - 1u;  // the slot, when the prefix is the top 16 bits
            if (known > kDigitBits) {
              s = static_cast<std::size_t>(
                  std::find(prefixes.begin(), prefixes.end(), key >> shift) - prefixes.begin());
              if (s == prefixes.size()) continue;
            }
            if (collect_[m]) {
              gathered[m][s].push_back(key);
            } else {
              ++counts[s * kBuckets + ((key >> (shift - kDigitBits)) & (kBuckets - 1))];
            }
          }
        }
      }
#pragma omp critical
      for (int m = 0; m < kErrorMeasures; ++m) {
        for (std::size_t i = 0; i < local[m].size(); ++i) counts_[m][i] += local[m][i];
        for (const auto& copy : bins[m]) {
          for (int b = 0; b < kHistogramBins; ++b) out.measure[m].histogram[b] += copy[b];
        }
        for (std::size_t s = 0; s < gathered[m].size(); ++s) {
          collected_[m][s].insert(collected_[m][s].end(), gathered[m][s].begin(),
                                  gathered[m][s].end());
        }
      }
    }
  }

  int64_t count_;
  const Float64ErrorFill& fill_;
  int threads_;
  int64_t collect_limit_;
  int known_ = 0;  // bits of each wanted key known before the pass
  std::array<std::vector<Wanted>, kErrorMeasures> wanted_;
  // Per measure: the distinct prefixes of its wanted statistics (by slot), whether the pass
  // collects rather than counts the keys that have them, and whether all are found.
  std::array<std::vector<uint64_t>, kErrorMeasures> prefixes_;
  std::array<bool, kErrorMeasures> collect_{}, done_{};
  std::array<std::vector<uint8_t>, kErrorMeasures> top_filter_;
  std::array<std::vector<int64_t>, kErrorMeasures> counts_;
  std::array<std::vector<std::vector<uint64_t>>, kErrorMeasures> collected_;  // by slot
};

}  // namespace

int float64_histogram_bin(double error) {
  if (error != error) return kHistogramBins - 1;
  if (error == 0) return 0;
  int bin = 1;
  for (const float edge : kHistogramEdges) {
    if (error < static_cast<double>(edge)) return bin;
    ++bin;
  }
  return bin;  // [1, inf]
}

PairQuantiles float64_error_quantiles(int64_t count, const Float64ErrorFill& fill, int threads,
                                      int64_t collect_limit) {
  if (threads <= 0) threads = omp_get_num_procs();
  if (count <= kInMemoryLimit) return in_memory(count, fill);
  return Float64Radix(count, fill, threads, collect_limit).run();
}

}  // namespace dumpcmp
