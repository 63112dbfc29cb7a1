#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

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

}  // namespace dumpcmp::cli
