#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// msaccucmp file_compare: -m a.npy -g b.npy -out DIR -> DIR/file_result_<timestamp>.txt.
struct FileCompareOptions {
  std::string my_path, golden_path, output_dir = ".";
  std::string device = "auto";
};

void setup_file_compare(CLI::App& app, FileCompareOptions& options);
int run_file_compare(const FileCompareOptions& options);

}  // namespace dumpcmp::cli
