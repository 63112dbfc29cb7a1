#pragma once
// Computes --quantiles' distributions (error_distribution.hpp) of tensor pairs on host threads.
// They are order statistics and counts, not sums, so every thread count (and every backend that
// computes them later) gives the same values by construction.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "backend/backend.hpp"
#include "math/error_distribution.hpp"
#include "math/radix_select.hpp"

namespace dumpcmp {

// out[i] receives jobs[i]'s distributions, computed on up to `threads` host threads (0 = all),
// except where counted[i] is set (a backend counted them: out[i] is kept). Memory stays bounded
// for any tensor size: a small tensor's errors are selected in memory, a large one's by two
// counting passes over its elements (math/radix_select.hpp).
void compute_error_quantiles(const std::vector<TensorPairJob>& jobs,
                             std::vector<PairQuantiles>& out, int threads,
                             const std::vector<char>& counted = {});

// The keys of ranks lo and hi of each level among `keys` (keys that order as their values),
// selected in place; none when keys is empty.
template <typename Key>
void select_quantile_keys(std::vector<Key>& keys, const QuantileRanks& r,
                          std::array<Key, kQuantileLevels.size()>& lo,
                          std::array<Key, kQuantileLevels.size()>& hi) {
  // The levels ascend, so each selection only looks right of the previous one.
  auto from = keys.begin();
  for (std::size_t q = 0; q < kQuantileLevels.size() && !keys.empty(); ++q) {
    const auto at = keys.begin() + r.lo[q];
    if (at >= from) std::nth_element(from, at, keys.end());
    lo[q] = *at;
    hi[q] = r.hi[q] == r.lo[q] ? lo[q] : *std::min_element(at + 1, keys.end());
    from = at + 1;
  }
}

}  // namespace dumpcmp
