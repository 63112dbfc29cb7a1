#include "math/chunk_plan.hpp"

namespace dumpcmp {

ChunkPlan make_chunk_plan(const std::vector<int64_t>& counts, int64_t chunk_elements) {
  ChunkPlan plan;
  plan.first_chunk.reserve(counts.size() + 1);
  for (std::size_t j = 0; j < counts.size(); ++j) {
    plan.first_chunk.push_back(static_cast<int64_t>(plan.chunks.size()));
    const int64_t n = counts[j];
    int64_t begin = 0;
    do {
      const int64_t count = n - begin < chunk_elements ? n - begin : chunk_elements;
      plan.chunks.push_back({static_cast<int32_t>(j), begin, count});
      begin += count;
    } while (begin < n);
  }
  plan.first_chunk.push_back(static_cast<int64_t>(plan.chunks.size()));
  return plan;
}

}  // namespace dumpcmp
