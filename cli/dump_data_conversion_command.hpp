#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// The seed's dump_data_conversion tool: -type caffe|tf|quant|offline|sim -target numpy|dump
// -i FILE|DIR -o DIR.
struct DumpDataConversionOptions {
  std::string type, target, input, output_dir;
};

void setup_dump_data_conversion(CLI::App& app, DumpDataConversionOptions& options);
int run_dump_data_conversion(const DumpDataConversionOptions& options);

}  // namespace dumpcmp::cli
