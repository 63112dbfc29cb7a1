#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// dumpcmp extract --graph model.json --dump DIR --start OP --end OP -out DIR
// dumpcmp extract --model MODEL [--weights W] [--graph om.json --dump DIR] --start L --end L
//                 -out DIR [--list] [--html FILE]
struct ExtractCommandOptions {
  std::string model, weights, graph, dump_dir, start, end, output_dir = ".", html;
  bool list = false;
};

void setup_extract(CLI::App& app, ExtractCommandOptions& options);
int run_extract(const ExtractCommandOptions& options);

}  // namespace dumpcmp::cli
