#pragma once
// A row whose tensors are more than one rank's share of a run is cut between the ranks at chunk
// boundaries: rank r reduces block r, a power of two of chunks aligned to its size, so its partial
// accumulator is exactly a subtree of the one-process merge tree (math/chunk_plan's pairwise
// order); merging the blocks' partials pairwise gives the one-process result bit for bit.
#include <cstdint>
#include <vector>

#include "backend/backend.hpp"
#include "compare/compare_plan.hpp"

namespace dumpcmp {

struct SplitRow {
  std::size_t row = 0;         // index into plan.rows
  int64_t block_elements = 0;  // a power of two times kChunkElements
  int blocks = 0;              // ranks 0 .. blocks - 1 take one block each
  int64_t count = 0;           // the row's elements

  bool has_block(int rank) const { return rank < blocks; }
  int64_t block_first(int rank) const { return block_elements * rank; }
  int64_t block_count(int rank) const;
};

// The rows worth cutting: compared, plain (no layout map, no sub-byte type), at least two chunks,
// and weighing more than a rank's share of the whole plan (scale/shares row_weight). None for one
// rank.
std::vector<SplitRow> plan_split_rows(const ComparePlan& plan, int ranks);

// The elements [first, first + count) of a job's tensors, as a job of their own (first is a
// multiple of kChunkElements; the job has no layout map).
TensorPairJob slice_job(const TensorPairJob& job, int64_t first, int64_t count);

}  // namespace dumpcmp
