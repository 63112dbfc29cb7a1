#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// The seed's shape_conversion tool: -i DUMP_FILE -format FORMAT -o DIR [-shape 1,3,224,224]
// [-tensor input|output] [-index K] [-custom DIR].
struct ShapeConversionCommandOptions {
  std::string dump_file, format, output_dir, shape, tensor = "output", index = "0", custom_dir;
};

void setup_shape_conversion(CLI::App& app, ShapeConversionCommandOptions& options);
int run_shape_conversion(const ShapeConversionCommandOptions& options);

}  // namespace dumpcmp::cli
