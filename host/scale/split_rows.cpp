#include "scale/split_rows.hpp"

#include <algorithm>

#include "math/chunk_plan.hpp"
#include "scale/shares.hpp"

namespace dumpcmp {
namespace {

bool splittable_dtype(DType t) {
  return t != DType::kUInt1 && t != DType::kInt4 && dtype_storage_size(t) > 0;
}

ElementSource slice(const ElementSource& s, int64_t first, int64_t count) {
  ElementSource out = s;
  out.data = s.data + static_cast<uint64_t>(first) * dtype_storage_size(s.dtype);
  out.count = count;
  out.source_count = 0;
  return out;
}

}  // namespace

int64_t SplitRow::block_count(int rank) const {
  const int64_t first = block_first(rank);
  return rank < blocks ? std::min(block_elements, count - first) : 0;
}

std::vector<SplitRow> plan_split_rows(const ComparePlan& plan, int ranks) {
  std::vector<SplitRow> split;
  if (ranks <= 1) return split;
  uint64_t total = 0;
  for (const PlanRow& r : plan.rows) total += row_weight(r);
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const PlanRow& r = plan.rows[i];
    if (!r.compared || r.x.layout >= 0 || r.y.layout >= 0 || !splittable_dtype(r.x.dtype) ||
        !splittable_dtype(r.y.dtype) || r.x.count < 2 * kChunkElements ||
        static_cast<long double>(row_weight(r)) * ranks <= static_cast<long double>(total)) {
      continue;
    }
    const int64_t chunks = (r.x.count + kChunkElements - 1) / kChunkElements;
    const int64_t per_rank = (chunks + ranks - 1) / ranks;
    int64_t block = 1;
    while (block < per_rank) block *= 2;
    SplitRow s;
    s.row = i;
    s.block_elements = block * kChunkElements;
    s.blocks = static_cast<int>((chunks + block - 1) / block);
    s.count = r.x.count;
    split.push_back(s);
  }
  return split;
}

TensorPairJob slice_job(const TensorPairJob& job, int64_t first, int64_t count) {
  TensorPairJob out = job;
  out.x = slice(job.x, first, count);
  out.y = slice(job.y, first, count);
  return out;
}

}  // namespace dumpcmp
