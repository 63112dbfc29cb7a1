#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// msaccucmp convert: -d FILE|LIST|DIR -out DIR [-t npy|bin] [-f FORMAT [-s SHAPE] [-o K | -i K]].
struct ConvertCommandOptions {
  std::string dump_path, output_dir = ".", file_type = "npy", format, shape;
  std::string output_tensor, input_tensor;
  std::string custom_dir;  // -c
};

void setup_convert(CLI::App& app, ConvertCommandOptions& options);
int run_convert(const ConvertCommandOptions& options);

}  // namespace dumpcmp::cli
