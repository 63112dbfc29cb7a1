#include "convert_command.hpp"

#include <iostream>

#include "common.hpp"
#include "convert/convert_dumps.hpp"
#include "convert/convert_messages.hpp"
#include "convert/npy_to_dump.hpp"
#include "core/error.hpp"

namespace dumpcmp::cli {

void setup_convert(CLI::App& app, ConvertCommandOptions& o) {
  app.add_option("-d,--dump_file", o.dump_path,
                 "A dump file, a comma-separated list or a directory")
      ->required();
  app.add_option("--output", o.output_dir, "Output directory (-out)");
  app.add_option(
      "-t,--type", o.file_type,
      "npy (default), bin, msnpy (npy named for MindSpore), pt (torch.load), or dump: .npy "
      "files (op.index.timestamp.npy) to dump files");
  app.add_option("-f,--format", o.format, "Convert to this format first (NCHW, ND, ...)");
  app.add_option("-s,--shape", o.shape, "With -f: the target shape, e.g. 1,3,224,224 (FRACTAL_NZ)");
  app.add_option("-c,--custom_script_path", o.custom_dir,
                 "With -f: DIR/format_convert/convert_{FROM}_to_{TO}.py runs instead of the "
                 "built-in conversion (python3 with numpy; docs/plugins.md)");
  app.add_option("-o,--output_tensor", o.output_tensor, "With -f and one file: only output k");
  app.add_option("-i,--input_tensor", o.input_tensor, "With -f and one file: only input k");
}

int run_convert(const ConvertCommandOptions& o) {
  if (o.file_type == "dump") {
    const NpyToDumpSummary s = convert_npy_to_dumps(o.dump_path, o.output_dir);
    std::cout << "dumpcmp: " << s.npy_files << " .npy files written as " << s.dumps
              << " dump files in " << o.output_dir << '\n';
    return 0;
  }
  ConvertOptions options;
  options.dump_path = o.dump_path;
  options.output_dir = o.output_dir;
  options.file_type = o.file_type;
  if (!o.format.empty()) {
    Format f;
    if (!parse_format(o.format, f)) {
      throw Error(ExitCode::kUsage, msg::convert_format_not_supported(o.format));
    }
    options.format = f;
    options.shape = parse_convert_shape(o.shape);
    options.custom_dir = o.custom_dir;
    if (!o.input_tensor.empty()) {
      options.tensor = "input";
      options.index = tensor_index_argument(o.input_tensor, "tensor");
    }
    if (!o.output_tensor.empty()) {  // -o wins, as in msaccucmp
      options.tensor = "output";
      options.index = tensor_index_argument(o.output_tensor, "tensor");
    }
  } else if (!o.shape.empty() || !o.input_tensor.empty() || !o.output_tensor.empty() ||
             !o.custom_dir.empty()) {
    print_diagnostic(Severity::kWarning, "-s, -i, -o and -c take effect only with -f.");
  }
  options.report = print_diagnostic;
  const ConvertSummary s = convert_dumps(options);
  std::cout << "dumpcmp: converted " << s.files - s.failed_files << " of " << s.files
            << " files into " << s.written << " files in " << o.output_dir << '\n';
  if (s.failed_files > 0) {
    std::cerr << "dumpcmp: " << s.failed_files << " failed";
    if (s.files > 1) std::cerr << ", listed in " << o.output_dir << "/convert_failed_file_list.txt";
    std::cerr << '\n';
  }
  return s.failed_files > 0 ? static_cast<int>(ExitCode::kInput) : 0;  // as msaccucmp: any failure
}

}  // namespace dumpcmp::cli
