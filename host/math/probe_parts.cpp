#include "math/probe_parts.hpp"

#include "math/blas_dot.hpp"

namespace dumpcmp {

std::vector<ProbePart> probe_parts(const std::vector<ProbePairJob>& jobs, std::size_t begin,
                                   std::size_t end, int threads) {
  std::vector<ProbePart> parts;
  for (std::size_t j = begin; j < end; ++j) {
    int64_t first = 0;
    for (const int64_t count : blas_dot_parts(jobs[j].count, threads)) {
      parts.push_back({j, first, count});
      first += count;
    }
  }
  return parts;
}

void add_probe_parts(const std::vector<ProbePart>& parts, const std::vector<ProbeSums>& partial,
                     std::vector<ProbeSums>& sums) {
  for (std::size_t k = 0; k < parts.size(); ++k) sums[parts[k].job].add_part(partial[k]);
}

}  // namespace dumpcmp
