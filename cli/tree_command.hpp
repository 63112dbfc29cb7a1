#pragma once
// Whole runs from `compare`: `--tree` (dump trees, every step) and msaccucmp's batch mode (`-f` a
// directory of offline-model JSONs).
#include "compare/compare_engine.hpp"
#include "compare_command.hpp"

namespace dumpcmp::cli {

// compare --tree -m NPU_ROOT -g GOLDEN_ROOT [-f RULE] [--steps S] [--devices D] [--resume].
int run_tree_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world);

// compare -m {dump_path}/{time} -g GOLDEN -f JSON_DIR (docs/batch-mode.md).
int run_batch_mode(const CompareOptions& options, const CompareCommandOptions& o, World& world);

}  // namespace dumpcmp::cli
