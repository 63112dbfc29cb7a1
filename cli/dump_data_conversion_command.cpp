#include "dump_data_conversion_command.hpp"

#include <iostream>

#include "common.hpp"
#include "convert/data_conversion.hpp"
#include "core/error.hpp"

namespace dumpcmp::cli {

void setup_dump_data_conversion(CLI::App& app, DumpDataConversionOptions& o) {
  app.add_option("--type", o.type,
                 "caffe | tf | quant | offline | sim: how the files are named (-type)")
      ->required();
  app.add_option("--target", o.target, "numpy (dumps to .npy) | dump (.npy to dumps) (-target)")
      ->required();
  app.add_option("-i", o.input, "A file, or a directory whose files are all converted")->required();
  app.add_option("-o", o.output_dir, "Output directory")->required();
}

int run_dump_data_conversion(const DumpDataConversionOptions& o) {
  DataConversionOptions options;
  options.type = o.type;
  options.target = o.target;
  options.input = o.input;
  options.output_dir = o.output_dir;
  options.report = print_diagnostic;
  const DataConversionSummary s = convert_data(options);
  std::cout << "dumpcmp: converted " << s.files - s.failed_files << " of " << s.files
            << " files into " << s.written << " files in " << o.output_dir << '\n';
  if (s.failed_files > 0) {
    std::cerr << "dumpcmp: " << s.failed_files << " failed, listed in " << o.output_dir
              << "/convert_failed_file_list.txt\n";
  }
  return s.failed_files > 0 ? static_cast<int>(ExitCode::kInput) : 0;
}

}  // namespace dumpcmp::cli
