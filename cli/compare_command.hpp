#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dumpcmp::cli {

struct CompareCommandOptions {
  std::string my_path, golden_path, output_dir = ".";
  std::vector<std::string> algorithms = {"all"};
  int64_t max_cmp_size = 0;
  std::string device = "auto";
  int threads = 0;
  uint64_t device_memory_mb = 0;
  std::string fusion_rule, quant_rule, close_fusion_rule;  // -f, -q, -cf
  std::string range, select;                               // -r, -s
  bool overflow_detection = false;
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
  std::vector<std::string> thresholds;
  bool fail_on_threshold = false, quiet = false;
  bool ffts = false;
  // The plan (docs/plan.md): written instead of comparing, or a saved one run.
  std::string plan_only, plan;
};

void setup_compare(CLI::App& app, CompareCommandOptions& options);
// The command line, for the reports (HTML, HDF5 attributes).
void remember_command_line(int argc, char** argv);
int run_compare(const CompareCommandOptions& options);

// Legacy compare_vector.py spellings: -l left, -r right, -o result file, -csv.
struct CompareVectorOptions {
  std::string left, right, output_file;
  std::string fusion_rule, quant_rule;                                // -f, -q
  std::string detail_op, detail_type = "output", detail_index = "0";  // -d, -t, -i
  bool csv = false, ffts = false;
  std::string device = "auto";
  int threads = 0;
};

void setup_compare_vector(CLI::App& app, CompareVectorOptions& options);
int run_compare_vector(const CompareVectorOptions& options);

// msaccucmp file_compare: -m a.npy -g b.npy -out DIR -> DIR/file_result_<timestamp>.txt.
struct FileCompareOptions {
  std::string my_path, golden_path, output_dir = ".";
  std::string device = "auto";
};

void setup_file_compare(CLI::App& app, FileCompareOptions& options);
int run_file_compare(const FileCompareOptions& options);

}  // namespace dumpcmp::cli
