#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "common.hpp"
#include "compare/compare_engine.hpp"
#include "scale/world.hpp"

namespace dumpcmp::cli {

struct CompareCommandOptions : CommonCompareOptions {
  std::string my_path, golden_path;
  std::vector<std::string> algorithms = {"all"};
  std::string custom_dir, algorithm_options;  // -c, -a
  int64_t max_cmp_size = 0;
  std::string device = "auto";
  uint64_t device_memory_mb = 0;
  std::string fusion_rule, quant_rule, close_fusion_rule;  // -f, -q, -cf
  std::string range, select;                               // -r, -s
  bool overflow_detection = false;
  bool quantiles = false;
  bool advisor = false;
  bool mapping = false;  // -map: write mapping_<ts>.csv instead of comparing
  // Single-operator detail (-op NAME with -o k | -i k).
  std::string op_name;
  std::string output_tensor, input_tensor;
  int top_n = 20;
  int64_t max_line = 1000000;
  bool ignore_single_op_result = false;
  // Reports and verdicts (docs/verdicts.md, docs/hdf5.md).
  std::string hdf5, html;
  std::string model_explorer;  // --model-explorer DIR: the graph and node data for Model Explorer
  std::string original_model;  // --original-model FILE: draw that model (ONNX, TF, Caffe) instead
  std::vector<std::string> thresholds;
  bool ffts = false;
  // The plan (docs/plan.md): written instead of comparing, or a saved one run.
  std::string plan_only, plan;
  // Whole runs (docs/trees.md): --tree, its leaf selection, and --resume.
  bool tree = false, resume = false, mirror = false;
  std::string steps, devices;
  // Live compare (--follow): watch the NPU directory while it is written.
  bool follow = false;
  double idle_seconds = 60;
  std::string until_op;
  // Over MPI ranks (docs/scale-out.md): how leaves are dealt, "bytes" or "device".
  std::string shard_by = "bytes";
};

void setup_compare(CLI::App& app, CompareCommandOptions& options);
// The command line, for the reports (HTML, HDF5 attributes).
void remember_command_line(int argc, char** argv);
std::string command_line();
// Every rank of the world runs it; rank 0 writes the outputs (docs/scale-out.md).
int run_compare(const CompareCommandOptions& options, World& world);

// Single-operator detail (-op, and compare_vector -d) into o.output_dir.
int run_detail(const CompareOptions& options, const CompareCommandOptions& o);

}  // namespace dumpcmp::cli
