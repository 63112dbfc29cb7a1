#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// dumpcmp extract --graph model.json --dump DIR --start OP --end OP -out DIR
struct ExtractCommandOptions {
  std::string graph, dump_dir, start, end, output_dir = ".";
};

void setup_extract(CLI::App& app, ExtractCommandOptions& options);
int run_extract(const ExtractCommandOptions& options);

}  // namespace dumpcmp::cli
