#include "compare_vector_command.hpp"

#include <chrono>
#include <memory>

#include "common.hpp"
#include "compare/compare_engine.hpp"
#include "compare_command.hpp"
#include "core/error.hpp"
#include "detail/detail_messages.hpp"
#include "report/csv_writer.hpp"
#include "report/space_separated_writer.hpp"

namespace dumpcmp::cli {

void setup_compare_vector(CLI::App& app, CompareVectorOptions& o) {
  app.add_option("-l", o.left, "My output dump directory or file")->required();
  app.add_option("-r", o.right, "Ground-truth dump directory or file")->required();
  app.add_option("-o", o.output_file, "Result file")->required();
  app.add_flag("--csv", o.csv,
               "Write CSV (-csv); otherwise space-separated without the last column");
  app.add_option("-f", o.fusion_rule, "The offline model's JSON or GE graph text");
  app.add_option("-q", o.quant_rule, "The AMCT quantization rule JSON");
  app.add_option("-d", o.detail_op, "Single-operator detail of this op; -o is then a directory");
  app.add_flag("--ffts", o.ffts, "FFTS+ dumps: compare each slice file as it is (-ffts)");
  app.add_option("-t", o.detail_type, "With -d: input or output (default output)");
  app.add_option("-i", o.detail_index, "With -d: the tensor index (default 0)");
  app.add_option("--device", o.device, "auto | cpu | cuda | thrust-omp");
  app.add_option("-j,--threads", o.threads, "CPU threads (0 = all cores)");
}

int run_compare_vector(const CompareVectorOptions& o) {
  CompareOptions options;
  options.my_path = o.left;
  options.golden_path = o.right;
  options.threads = o.threads;
  options.fusion_rule_path = o.fusion_rule;
  options.quant_rule_path = o.quant_rule;
  options.ffts = o.ffts;
  if (!o.detail_op.empty()) {
    if (o.detail_type != "input" && o.detail_type != "output") {
      throw Error(ExitCode::kUsage, msg::detail_type_invalid(o.detail_type));
    }
    CompareCommandOptions detail;
    detail.op_name = o.detail_op;
    (o.detail_type == "input" ? detail.input_tensor : detail.output_tensor) = o.detail_index;
    detail.output_dir = o.output_file;
    ensure_directory(o.output_file);
    return run_detail(options, detail);
  }
  BackendSelection selection = select_backend(o.device, o.threads);
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<RecordSink> writer;
  if (o.csv) {
    writer = std::make_unique<CsvSink>(o.output_file);
  } else {
    writer = std::make_unique<SpaceSeparatedSink>(o.output_file);
  }
  const CompareSummary summary = dumpcmp::run_compare(options, *selection.backend, *writer);
  writer->commit();
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  print_summary(summary, o.output_file, selection.backend->name(), elapsed.count());
  return finish_compare(summary, "", "");
}

}  // namespace dumpcmp::cli
