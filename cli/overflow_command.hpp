#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// msaccucmp overflow: -d DUMP_DIR -out DIR [-n 1..5], plus the NaN/Inf/fp16 scan (--first N).
struct OverflowCommandOptions {
  std::string dump_dir, output_dir = ".";
  int top_n = 1;
  int scan_first = 20;
};

void setup_overflow(CLI::App& app, OverflowCommandOptions& options);
int run_overflow(const OverflowCommandOptions& options);

}  // namespace dumpcmp::cli
