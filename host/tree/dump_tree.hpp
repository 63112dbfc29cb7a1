#pragma once
// A whole dump run as leaves: `{dump_path}/{time}/{device}/{model_name}/{model_id}/{step}/` for
// model dumps, `{dump_path}/{device}/{op_name}/` (or `{time}/{device}/`) for single-op dumps
// (docs/trees.md). Discovery never fails on a stray entry: it becomes a warning.
#include <string>
#include <vector>

namespace dumpcmp {

struct TreeLeaf {
  std::string path;      // root + relative, as given
  std::string relative;  // from the root; "" when the root itself holds the dumps
  std::string time;      // "" when the tree has no time level
  std::string device;
  std::string model_name;  // "" for single-op leaves
  std::string model_id;
  std::string step;
  std::string op_name;  // single-op leaves: the op directory ("" when the files sit in {device})
  bool single_op() const { return model_name.empty(); }
  // "device 0, ge_default_1, step 10" (for messages and the console).
  std::string label() const;
};

struct DumpTree {
  std::string root;
  std::vector<TreeLeaf> leaves;       // by device, model_name, model_id, step (natural order)
  std::vector<std::string> warnings;  // "PATH: problem; skipped"
};

// Directories that hold dump files (binary, protobuf, .npy, or stats .csv) are leaves; their
// position below root names them. Throws Error(kInput) only when root itself cannot be listed.
DumpTree discover_dump_tree(const std::string& root);

// True when the name is a dump file or a stats dump (`statistic.csv`, `<dump name>.csv`).
bool is_dump_or_stats_file(const std::string& name);

}  // namespace dumpcmp
