#pragma once
// The chunk tasks of one lift launch, grouped by view kind before they go to the device, so each
// kind's kernel runs over its own tasks alone (no blocks launched for the other kinds' chunks, no
// launch at all for an absent kind). Only the tasks' order changes: each keeps its chunk id, and
// the accumulators are put back in chunk order before they are merged.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "chunk_kernels.hpp"

namespace dumpcmp::device {

inline constexpr int kViewKinds = 4;
static_assert(static_cast<int>(ViewKind::kDecoding) + 1 == kViewKinds, "every view kind counted");

// Kind k's tasks are [begin[k], begin[k + 1]).
struct KindRanges {
  std::array<int64_t, kViewKinds + 1> begin{};
  int64_t first(ViewKind k) const { return begin[static_cast<std::size_t>(k)]; }
  int64_t end(ViewKind k) const { return begin[static_cast<std::size_t>(k) + 1]; }
  int64_t total() const { return begin.back(); }
};

struct Launch {
  std::vector<ChunkTask> tasks;
  std::vector<int64_t> chunk_ids;  // global chunk index of each task
  KindRanges kinds;                // set by group_by_view_kind
};

// Groups l's tasks by view kind, in kind order, keeping their order within a kind; their chunk
// ids move with them.
inline void group_by_view_kind(Launch& l) {
  std::array<int64_t, kViewKinds> count{};
  for (const ChunkTask& t : l.tasks) ++count[static_cast<std::size_t>(view_kind(t))];
  l.kinds = KindRanges{};
  for (int k = 0; k < kViewKinds; ++k) l.kinds.begin[k + 1] = l.kinds.begin[k] + count[k];
  if (std::count(count.begin(), count.end(), 0) >= kViewKinds - 1) return;  // one kind: in place
  std::array<int64_t, kViewKinds> at{};
  std::copy(l.kinds.begin.begin(), l.kinds.begin.end() - 1, at.begin());
  std::vector<ChunkTask> tasks(l.tasks.size());
  std::vector<int64_t> ids(l.chunk_ids.size());
  for (std::size_t i = 0; i < l.tasks.size(); ++i) {
    const auto to = static_cast<std::size_t>(at[static_cast<std::size_t>(view_kind(l.tasks[i]))]++);
    tasks[to] = l.tasks[i];
    ids[to] = l.chunk_ids[i];
  }
  l.tasks = std::move(tasks);
  l.chunk_ids = std::move(ids);
}

}  // namespace dumpcmp::device
