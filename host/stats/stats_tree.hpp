#pragma once
// msprobe's MindSpore graph-mode dump tree (docs/statistics.md §3): the lowest-level directories
// of a dump root, each filed under the (rank, step) its path names, and the pairs both sides have.
#include <cstdint>
#include <string>
#include <vector>

namespace dumpcmp {

struct RankStep {
  int64_t rank = -1;
  int64_t step = -1;
  bool operator<(const RankStep& o) const { return rank != o.rank ? rank < o.rank : step < o.step; }
  bool operator==(const RankStep& o) const { return rank == o.rank && step == o.step; }
};

// The (rank, step) msprobe reads from a lowest-level directory's absolute path split on '/'
// (GraphMSComparator.generate_rank_step_path): with "rank_" anywhere in the path, the rank is the
// number after the last '_' of the 4th component from the end, the step the last component;
// otherwise the rank is the 4th (else 3rd) component from the end. -1 where a component is not a
// whole number; msprobe skips such directories.
RankStep rank_step_of(const std::string& absolute_dir);

struct RankStepDirs {
  RankStep id;
  std::vector<std::string> dirs;  // sorted
};

// The directories under `root` (absolute, lexically normal) that have no subdirectory, grouped by
// rank_step_of and sorted by (rank, step); those without a valid rank and step are left out.
// Throws Error(kInput) naming root when it is not a readable directory or nests more than 400
// levels (msprobe's MAX_DEPTH).
std::vector<RankStepDirs> find_rank_step_dirs(const std::string& root);

struct RankStepPair {
  RankStep id;
  std::vector<std::string> npu_dirs, bench_dirs;
};

// The (rank, step) both sides have, in ascending order.
std::vector<RankStepPair> pair_rank_steps(const std::vector<RankStepDirs>& npu,
                                          const std::vector<RankStepDirs>& bench);

}  // namespace dumpcmp
