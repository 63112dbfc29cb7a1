#include "overflow_command.hpp"

#include <iostream>

#include "overflow/overflow_scan.hpp"

namespace dumpcmp::cli {

void setup_overflow(CLI::App& app, OverflowCommandOptions& o) {
  app.add_option("-d,--dump_path", o.dump_dir, "The dump directory")->required();
  app.add_option("--output", o.output_dir, "Directory for overflow_summary_<ts>.txt (-out)");
  app.add_option("-n,--top_num", o.top_n, "Opdebug overflow records shown (1-5, default 1)")
      ->check(CLI::Range(1, 5));
  app.add_option("--first", o.scan_first,
                 "Dumps with NaN / Inf / fp16 overflow listed by the scan (default 20)")
      ->check(CLI::NonNegativeNumber);
}

int run_overflow(const OverflowCommandOptions& o) {
  OverflowOptions options;
  options.dump_dir = o.dump_dir;
  options.output_dir = o.output_dir;
  options.top_n = o.top_n;
  options.scan_first = o.scan_first;
  std::string path;
  std::cout << analyse_overflow(options, path);
  std::cout << "dumpcmp: overflow summary written to " << path << '\n';
  return 0;
}

}  // namespace dumpcmp::cli
