#pragma once
// A batch of msprobe tensor pairs cut into their OpenBLAS parts (math/blas_dot.hpp), the tasks a
// backend reduces side by side (math/probe_pair.hpp), and their sums put back together.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "math/probe_pair.hpp"

namespace dumpcmp {

struct ProbePart {
  std::size_t job;
  int64_t begin, count;
};

// The parts of jobs[begin, end), pair by pair, each pair's in order, cut for `threads` threads.
std::vector<ProbePart> probe_parts(const std::vector<ProbePairJob>& jobs, std::size_t begin,
                                   std::size_t end, int threads);

// partial[k] is parts[k]'s result: each is added to sums[part.job] in order, as ddot and numpy add
// a pair's parts (sums holds the pairs' zero sums to start with).
void add_probe_parts(const std::vector<ProbePart>& parts, const std::vector<ProbeSums>& partial,
                     std::vector<ProbeSums>& sums);

}  // namespace dumpcmp
