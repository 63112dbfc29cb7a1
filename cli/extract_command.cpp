#include "extract_command.hpp"

#include <iostream>

#include "extract/submodel_extract.hpp"

namespace dumpcmp::cli {

void setup_extract(CLI::App& app, ExtractCommandOptions& o) {
  app.add_option("--graph", o.graph,
                 "The offline model JSON (atc --mode=1) or GE graph text (ge_proto_*.txt)")
      ->required();
  app.add_option("--dump", o.dump_dir, "The model's dump directory")->required();
  app.add_option("--start", o.start, "First op of the sub-model (its inputs are exported)")
      ->required();
  app.add_option("--end", o.end, "Last op of the sub-model")->required();
  app.add_option("--output", o.output_dir, "Output directory (-out)");
}

int run_extract(const ExtractCommandOptions& o) {
  const ExtractSummary s = extract_submodel({o.graph, o.dump_dir, o.start, o.end, o.output_dir});
  std::cout << "dumpcmp: " << s.ops.size() << " ops from " << o.start << " to " << o.end << ": "
            << s.copied << " dump files copied, " << s.missing << " without dump, " << s.exported
            << " inputs exported; log in " << s.log_path << '\n';
  return 0;
}

}  // namespace dumpcmp::cli
