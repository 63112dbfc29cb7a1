#pragma once
// Pairs the leaves of an NPU dump tree with the golden side (docs/trees.md): a second NPU tree
// (by device, graph and step; the graph by exact name, else by graph id), golden step folders
// `{step}/`, or one flat golden folder for every step.
#include <optional>
#include <string>
#include <vector>

#include "core/step_set.hpp"
#include "tree/dump_tree.hpp"

namespace dumpcmp {

enum class GoldenKind { kNpuTree, kStepFolders, kFlat };

struct GoldenTree {
  GoldenKind kind = GoldenKind::kFlat;
  std::string root;
  DumpTree tree;  // kNpuTree: its leaves
};

// A root that holds dump or .npy files itself is flat; one whose subdirectories are all numbers
// holding files is step folders; anything else is an NPU tree.
GoldenTree discover_golden_tree(const std::string& root);

struct LeafSelection {
  std::optional<StepSet> steps;      // --steps; every step when absent
  std::vector<std::string> devices;  // --devices; every device when empty
  std::vector<std::string> graphs;   // graphs to compare (exact name or graph id); all when empty
  bool selects(const TreeLeaf& leaf) const;
};

struct LeafPair {
  TreeLeaf npu;
  std::string golden_path;  // "" when the golden side has no leaf for it
  std::string note;         // how it was paired, when not by exact names
};

struct TreePairing {
  std::vector<LeafPair> pairs;        // the selected NPU leaves, in tree order
  std::vector<TreeLeaf> golden_only;  // NPU-tree goldens that no selected NPU leaf took
  std::vector<std::string> warnings;
};

TreePairing pair_tree_leaves(const DumpTree& npu, const GoldenTree& golden,
                             const LeafSelection& selection);

// True when a model_name directory is the named graph: the same name, or the same graph id.
bool graph_matches(const std::string& model_name, const std::string& graph);

}  // namespace dumpcmp
