#pragma once
// How the work of a run is dealt to its ranks: contiguous shares of about equal weight (rows of a
// plan, leaves of a tree), or whole groups (a device's leaves) to the ranks that can read them.
// Pure functions of their inputs, so every rank computes the same shares.
#include <cstdint>
#include <string>
#include <vector>

#include "compare/compare_plan.hpp"

namespace dumpcmp {

struct Share {
  std::size_t begin = 0, end = 0;  // items [begin, end)
};

// `parts` contiguous shares of the items, in order, each ending where the running weight comes
// nearest to its fraction of the whole. Some shares are empty when there are fewer items than
// parts.
std::vector<Share> balanced_shares(const std::vector<uint64_t>& weights, int parts);

// What one row costs to run, in payload bytes: its tensors, plus opening and parsing its dumps
// (measured as about as long as reading 64 KiB), so that many small or failed rows still spread.
uint64_t row_weight(const PlanRow& row);
inline constexpr uint64_t kRowOverheadBytes = 64 << 10;

// The rank of each item: items of one group (e.g. one device) go together to one of the ranks
// that can read all of them (readers[i]: the ranks that can read item i), the least loaded so far,
// heaviest groups first. An item no rank can read goes to rank 0 (where it fails, named).
std::vector<int> assign_groups(const std::vector<uint64_t>& weights,
                               const std::vector<std::string>& group,
                               const std::vector<std::vector<int>>& readers, int ranks);

}  // namespace dumpcmp
