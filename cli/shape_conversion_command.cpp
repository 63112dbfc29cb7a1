#include "shape_conversion_command.hpp"

#include <iostream>

#include "common.hpp"
#include "convert/convert_dumps.hpp"
#include "convert/shape_conversion.hpp"
#include "core/error.hpp"

namespace dumpcmp::cli {

void setup_shape_conversion(CLI::App& app, ShapeConversionCommandOptions& o) {
  app.add_option("-i", o.dump_file, "The dump file")->required();
  app.add_option("--format", o.format, "The format to convert to, e.g. NCHW (-format)")->required();
  app.add_option("-o", o.output_dir, "Output directory")->required();
  app.add_option("--shape", o.shape, "The target shape for FRACTAL_NZ, e.g. 1,3,224,224 (-shape)");
  app.add_option("--tensor", o.tensor, "input | output (default) (-tensor)");
  app.add_option("--index", o.index, "The tensor's index, from 0 (-index)");
  app.add_option("--custom", o.custom_dir,
                 "The directory above format_convert/ with convert_{FROM}_to_{TO}.py (-custom)");
}

int run_shape_conversion(const ShapeConversionCommandOptions& o) {
  ShapeConversionOptions options;
  options.dump_file = o.dump_file;
  options.output_dir = o.output_dir;
  if (!parse_format(o.format, options.format)) {
    throw Error(ExitCode::kUsage,
                "The format \"'" + o.format + "'\" is not supported. Please check the format.");
  }
  options.shape = parse_convert_shape(o.shape);
  options.tensor = o.tensor;
  options.index = tensor_index_argument(o.index, "tensor index");
  options.custom_dir = o.custom_dir;
  const std::string path = convert_shape(options);
  if (path.empty()) {
    std::cout << "dumpcmp: There is no need to transfer format because the format (" << o.format
              << ") is the same.\n";
  } else {
    std::cout << "dumpcmp: written to " << path << '\n';
  }
  return 0;
}

}  // namespace dumpcmp::cli
