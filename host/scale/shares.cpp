#include "scale/shares.hpp"

#include <algorithm>
#include <map>

namespace dumpcmp {

std::vector<Share> balanced_shares(const std::vector<uint64_t>& weights, int parts) {
  parts = std::max(parts, 1);
  // long double holds any 64-bit sum exactly: the cut points do not depend on rounding.
  std::vector<long double> prefix(weights.size() + 1, 0);
  for (std::size_t i = 0; i < weights.size(); ++i) prefix[i + 1] = prefix[i] + weights[i];
  const long double total = prefix.back();
  std::vector<Share> shares(static_cast<std::size_t>(parts));
  std::size_t at = 0;
  for (int p = 0; p < parts; ++p) {
    std::size_t end = weights.size();
    if (p + 1 < parts) {
      const long double target = total * (p + 1) / parts;
      end = at;
      while (end < weights.size() && prefix[end + 1] <= target) ++end;
      // The item that crosses the target joins this share when that leaves it nearer the target.
      if (end < weights.size() && prefix[end] < target &&
          prefix[end + 1] - target < target - prefix[end]) {
        ++end;
      }
    }
    shares[static_cast<std::size_t>(p)] = Share{at, end};
    at = end;
  }
  return shares;
}

uint64_t row_weight(const PlanRow& row) { return row.bytes() + kRowOverheadBytes; }

std::vector<int> assign_groups(const std::vector<uint64_t>& weights,
                               const std::vector<std::string>& group,
                               const std::vector<std::vector<int>>& readers, int ranks) {
  struct Group {
    uint64_t weight = 0;
    std::vector<std::size_t> items;
    std::vector<int> readers;  // ranks that can read every item
  };
  std::map<std::string, Group> groups;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    Group& g = groups[group[i]];
    std::vector<int> r = readers[i];
    std::sort(r.begin(), r.end());
    if (g.items.empty()) {
      g.readers = r;
    } else {
      std::vector<int> both;
      std::set_intersection(g.readers.begin(), g.readers.end(), r.begin(), r.end(),
                            std::back_inserter(both));
      g.readers = both;
    }
    g.weight += weights[i];
    g.items.push_back(i);
  }
  std::vector<const Group*> order;
  for (const auto& [name, g] : groups) order.push_back(&g);
  std::stable_sort(order.begin(), order.end(),
                   [](const Group* a, const Group* b) { return a->weight > b->weight; });
  std::vector<uint64_t> load(static_cast<std::size_t>(std::max(ranks, 1)), 0);
  std::vector<int> rank_of(weights.size(), 0);
  auto least_loaded = [&](const std::vector<int>& candidates) {
    int best = -1;
    for (int r : candidates) {
      if (r < 0 || r >= ranks) continue;
      if (best < 0 || load[static_cast<std::size_t>(r)] < load[static_cast<std::size_t>(best)]) {
        best = r;
      }
    }
    return best;
  };
  for (const Group* g : order) {
    if (const int r = least_loaded(g->readers); r >= 0) {
      for (std::size_t i : g->items) rank_of[i] = r;
      load[static_cast<std::size_t>(r)] += g->weight;
      continue;
    }
    for (std::size_t i : g->items) {  // no rank reads the whole group: item by item
      const int r = std::max(least_loaded(readers[i]), 0);
      rank_of[i] = r;
      load[static_cast<std::size_t>(r)] += weights[i];
    }
  }
  return rank_of;
}

}  // namespace dumpcmp
