#pragma once
// A whole run over the ranks of a world (docs/scale-out.md): rank 0 deals the leaves, every other
// rank plans and reduces the leaves dealt to it and sends rank 0 their records, and rank 0 writes
// every output, so the result files are those of a one-process run.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scale/world.hpp"
#include "tree/dump_tree.hpp"
#include "tree/leaf_group.hpp"
#include "tree/tree_compare.hpp"

namespace dumpcmp {

// Rank 0: sends every rank the jobs and deals them. `local[k]`: leaf k must run on rank 0 (done
// already, statistics, no golden). Leaves go in contiguous shares of about equal bytes, or with
// by_device each device's leaves together to a rank that can read them. Returns each leaf's rank.
std::vector<int> deal_leaves(World& world, const std::vector<TreeJob>& jobs,
                             const std::vector<char>& local, const CompareOptions& base,
                             bool by_device);

// Ranks other than 0: takes the deal, runs its leaves, sends their records to rank 0.
void run_tree_share(World& world, const CompareOptions& base, Backend& backend);

// Rank 0: the leaves the other ranks run, written into their result files as records arrive.
class RemoteLeaves {
 public:
  using Finished = std::function<void(std::size_t, LeafOutcome)>;
  RemoteLeaves(World& world, const std::vector<TreeJob>& jobs, const TreeRunOptions& run,
               const CompareOptions& base, std::function<void(std::size_t)> started,
               Finished finished);
  // Handles the messages that have arrived; with wait, until every rank has finished. Throws
  // Error naming the rank when a rank reports that it cannot go on.
  void poll(bool wait);

 private:
  void handle(int from, const std::string& bytes);
  World& world_;
  const std::vector<TreeJob>& jobs_;
  const TreeRunOptions& run_;
  const CompareOptions& base_;
  std::function<void(std::size_t)> started_;
  Finished finished_;
  std::map<std::size_t, std::unique_ptr<LeafResults>> open_;
  int ranks_done_ = 0;
};

// With node-local dumps: every rank discovers the tree under root as its host sees it; rank 0
// gets the union (leaves in natural order, each once), the other ranks their own view.
DumpTree discover_on_every_rank(World& world, const std::string& root);

}  // namespace dumpcmp
