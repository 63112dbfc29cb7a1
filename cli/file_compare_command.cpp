#include "file_compare_command.hpp"

#include <iostream>

#include "common.hpp"
#include "compare/file_compare.hpp"
#include "core/atomic_file.hpp"
#include "core/timestamp.hpp"

namespace dumpcmp::cli {

void setup_file_compare(CLI::App& app, FileCompareOptions& o) {
  app.add_option("-m,--my_dump_path", o.my_path, "My output .npy file")->required();
  app.add_option("-g,--golden_dump_path", o.golden_path, "Ground-truth .npy file")->required();
  app.add_option("--output", o.output_dir, "Directory for file_result_<timestamp>.txt (-out)");
  app.add_option("--device", o.device, "auto | cpu | cuda | thrust-omp");
}

int run_file_compare(const FileCompareOptions& o) {
  ensure_directory(o.output_dir);
  BackendSelection selection = select_backend(o.device, 0);
  const FileCompareResult result = compare_npy_files(o.my_path, o.golden_path, *selection.backend);
  for (const std::string& reason : result.reasons) std::cerr << "dumpcmp: " << reason << '\n';
  const std::string path = o.output_dir + "/file_result_" + local_timestamp() + ".txt";
  write_file_atomically(path, format_file_result(result));
  std::cout << "dumpcmp: result written to " << path << '\n';
  return 0;
}

}  // namespace dumpcmp::cli
