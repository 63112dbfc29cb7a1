#include "tree/tree_pairing.hpp"

#include <algorithm>

#include "tree/batch_mode.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

// False for a directory that does not exist or cannot be listed.
bool holds_dump_files(const std::string& dir) {
  std::vector<TreeEntry> entries;
  try {
    entries = list_tree_level(dir);
  } catch (const std::exception&) {
    return false;
  }
  return std::any_of(entries.begin(), entries.end(), [](const TreeEntry& e) {
    return e.kind == EntryKind::kFile && is_dump_or_stats_file(e.name);
  });
}

bool same_leaf_slot(const TreeLeaf& a, const TreeLeaf& b) {
  return a.device == b.device && a.step == b.step && a.op_name == b.op_name &&
         a.single_op() == b.single_op();
}

// The golden leaf for an NPU leaf: same device and step (and op for single-op trees), the graph by
// exact name, else by graph id; among several, the same model_id.
const TreeLeaf* find_golden_leaf(const TreeLeaf& npu, const DumpTree& golden, std::string& note) {
  std::vector<const TreeLeaf*> exact, by_id;
  const std::string id = graph_id_of(npu.model_name);
  for (const TreeLeaf& g : golden.leaves) {
    if (!same_leaf_slot(npu, g)) continue;
    if (g.model_name == npu.model_name) {
      exact.push_back(&g);
    } else if (!id.empty() && graph_id_of(g.model_name) == id) {
      by_id.push_back(&g);
    }
  }
  const std::vector<const TreeLeaf*>& found = exact.empty() ? by_id : exact;
  if (found.empty()) return nullptr;
  const TreeLeaf* chosen = found.front();
  for (const TreeLeaf* g : found) {
    if (g->model_id == npu.model_id) chosen = g;
  }
  if (exact.empty()) {
    note = "graph " + npu.model_name + " paired with " + chosen->model_name + " by graph id " + id +
           " (their time stamps differ)";
  }
  return chosen;
}

}  // namespace

bool graph_matches(const std::string& model_name, const std::string& graph) {
  if (model_name == graph) return true;
  const std::string id = graph_id_of(graph);
  return !id.empty() && graph_id_of(model_name) == id;
}

bool LeafSelection::selects(const TreeLeaf& leaf) const {
  if (!devices.empty() && std::find(devices.begin(), devices.end(), leaf.device) == devices.end()) {
    return false;
  }
  if (steps && !leaf.single_op() && !steps->contains(leaf.step)) return false;
  if (!graphs.empty() && !leaf.single_op() &&
      std::none_of(graphs.begin(), graphs.end(),
                   [&](const std::string& g) { return graph_matches(leaf.model_name, g); })) {
    return false;
  }
  return true;
}

GoldenTree discover_golden_tree(const std::string& root) {
  GoldenTree golden;
  golden.root = root;
  const std::vector<TreeEntry> entries = list_tree_level(root);  // throws naming root
  if (holds_dump_files(root)) return golden;                     // kFlat
  bool step_folders = false;
  for (const TreeEntry& e : entries) {
    if (e.kind != EntryKind::kDirectory) continue;
    if (!all_digits(e.name) || !holds_dump_files(child_path(root, e.name))) {
      step_folders = false;
      break;
    }
    step_folders = true;
  }
  if (step_folders) {
    golden.kind = GoldenKind::kStepFolders;
    return golden;
  }
  golden.kind = GoldenKind::kNpuTree;
  golden.tree = discover_dump_tree(root);
  return golden;
}

TreePairing pair_tree_leaves(const DumpTree& npu, const GoldenTree& golden,
                             const LeafSelection& selection) {
  TreePairing pairing;
  std::vector<bool> taken(golden.tree.leaves.size(), false);
  for (const TreeLeaf& leaf : npu.leaves) {
    if (!selection.selects(leaf)) continue;
    LeafPair pair{leaf, "", ""};
    switch (golden.kind) {
      case GoldenKind::kFlat:
        pair.golden_path = golden.root;
        break;
      case GoldenKind::kStepFolders: {
        const std::string dir = child_path(golden.root, leaf.step);
        if (!leaf.step.empty() && holds_dump_files(dir)) pair.golden_path = dir;
        break;
      }
      case GoldenKind::kNpuTree:
        if (const TreeLeaf* g = find_golden_leaf(leaf, golden.tree, pair.note)) {
          pair.golden_path = g->path;
          taken[g - golden.tree.leaves.data()] = true;
        }
        break;
    }
    pairing.pairs.push_back(std::move(pair));
  }
  for (size_t k = 0; k < taken.size(); ++k) {
    if (!taken[k] && selection.selects(golden.tree.leaves[k])) {
      pairing.golden_only.push_back(golden.tree.leaves[k]);
    }
  }
  return pairing;
}

}  // namespace dumpcmp
