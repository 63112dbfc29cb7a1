#include "compare_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "common.hpp"
#include "compare/compare_engine.hpp"
#include "compare/mapping_table.hpp"
#include "compare/plan_json.hpp"
#include "core/atomic_file.hpp"
#include "core/directory_lock.hpp"
#include "core/error.hpp"
#include "core/timestamp.hpp"
#include "detail/detail_messages.hpp"
#include "detail/single_op_detail.hpp"
#include "extract/source_model.hpp"
#include "follow.hpp"
#include "fusion/fusion_messages.hpp"
#include "plugin/custom_algorithms.hpp"
#include "plugin/custom_conversions.hpp"
#include "plugin/custom_metrics.hpp"
#include "report/csv_writer.hpp"
#include "report/progress_line.hpp"
#include "report/result_analysis.hpp"
#include "run/network_run.hpp"
#include "scale/distributed_plan.hpp"
#include "tree_command.hpp"

namespace dumpcmp::cli {

void remember_command_line(int argc, char** argv);

namespace {

std::string& command_line_storage() {
  static std::string text;
  return text;
}

std::vector<std::string>& command_line_tokens() {
  static std::vector<std::string> tokens;
  return tokens;
}

// The verdicts on the console: counts, the first divergent op, the five worst tensors.
void print_verdicts(const ResultAnalysis& a) {
  std::cout << "dumpcmp: " << a.count(Verdict::kPass) << " tensors within tolerance, "
            << a.count(Verdict::kFail) << " outside, " << a.count(Verdict::kNotCompared)
            << " not compared (docs/verdicts.md)\n";
  const DivergentOp first = a.first_divergent();
  if (first.found) {
    std::cout << "dumpcmp: first divergent op: #" << first.index << " " << first.op << " ("
              << first.why << ")"
              << (first.inherited ? ", but its inputs already failed"
                                  : ", its inputs were within tolerance")
              << '\n';
  }
  const auto worst = a.worst(5);
  if (!worst.empty() && !a.metrics().empty()) {
    std::cout << "dumpcmp: worst tensors:";
    for (const AnalysedRow* r : worst) {
      std::cout << "\n  #" << r->index << " " << r->tensor_index << " "
                << metric_name(a.metrics()[0]) << " "
                << format_metric_cell(a.metrics()[0], r->cells[0]);
    }
    std::cout << '\n';
  }
}

// The end of a whole-network compare on the console: the summary, the verdicts, the files
// written, the advisor's finding, each new input problem and their count.
void print_network_run(const NetworkRunResult& run, const CompareCommandOptions& o,
                       const World& world) {
  const RunOutputs& outputs = *run.outputs;
  print_summary(run.summary, outputs.csv_path(), run.backend, run.seconds);
  if (world.size() > 1) {
    std::cout << "dumpcmp: " << world.size() << " ranks, " << world.bytes_moved()
              << " bytes between ranks (the plan and the records), " << run.summary.split_rows
              << " tensors split between ranks\n";
  }
  print_verdicts(outputs.analysis());
  if (!o.html.empty()) std::cout << "dumpcmp: report written to " << o.html << '\n';
  if (!o.hdf5.empty()) std::cout << "dumpcmp: HDF5 written to " << o.hdf5 << '\n';
  if (!o.model_explorer.empty()) {
    std::cout << "dumpcmp: Model Explorer files written to " << o.model_explorer
              << " (model-explorer " << o.model_explorer
              << "/graph.json --node_data_paths=" << o.model_explorer << "/verdict.json)\n";
  }
  if (outputs.advice()) {
    for (const std::string& line : outputs.advice()->lines()) {
      std::cout << "dumpcmp: " << line << '\n';
    }
  }
  for (const InputProblem& p : run.problems) print_diagnostic(Severity::kWarning, p.text);
  if (!run.problem_counts.empty()) std::cout << "dumpcmp: " << run.problem_counts << '\n';
}

// --plan-only: the plan as JSON lines, to a file (atomically) or standard output.
int write_plan(const CompareOptions& options, const CompareCommandOptions& o) {
  const ComparePlan plan = plan_compare(options);
  std::ostringstream text;
  write_plan_jsonl(plan, text);
  for (const std::string& w : plan.warnings) print_diagnostic(Severity::kWarning, w);
  if (o.plan_only == "-") {
    std::cout << text.str();
    return 0;
  }
  write_file_atomically(o.plan_only, text.str());
  if (!o.quiet) {
    int64_t compared = 0;
    uint64_t bytes = 0;
    for (const PlanRow& r : plan.rows) {
      compared += r.compared;
      bytes += r.bytes();
    }
    std::cout << "dumpcmp: planned " << plan.rows.size() << " rows (" << compared << " to compare, "
              << static_cast<double>(bytes) / 1e6 << " MB of " << plan.files.size()
              << " files), written to " << o.plan_only << '\n';
  }
  return 0;
}

// msaccucmp's console table of the largest errors: columns left-aligned to their widest cell and
// separated by tabs.
void print_top_table(const TopTable& table) {
  std::vector<size_t> width(table.rows.front().size(), 0);
  for (const auto& r : table.rows) {
    for (size_t k = 0; k < r.size() && k < width.size(); ++k) {
      width[k] = std::max(width[k], r[k].size());
    }
  }
  std::cout << "dumpcmp: " << table.title << " TopN\n";
  for (const auto& r : table.rows) {
    for (size_t k = 0; k < r.size(); ++k) {
      std::cout << r[k];
      if (k + 1 < r.size()) std::cout << std::string(width[k] - r[k].size(), ' ') << '\t';
    }
    std::cout << '\n';
  }
}

}  // namespace

std::string command_line() { return command_line_storage(); }

int run_detail(const CompareOptions& options, const CompareCommandOptions& o) {
  if (o.mapping) {
    throw Error(ExitCode::kUsage, msg::mapping_excludes_detail());
  }
  if (!o.range.empty() || !o.select.empty()) {
    throw Error(ExitCode::kUsage, "-r/--range and -s/--select cannot be used with -op.");
  }
  if (o.max_line < 10000 || o.max_line > 1000000) {
    throw Error(ExitCode::kUsage, msg::max_line_out_of_range(o.max_line));
  }
  DetailRequest request;
  request.op_name = o.op_name;
  request.input = !o.input_tensor.empty() && o.output_tensor.empty();
  request.index = tensor_index_argument(
      request.input ? o.input_tensor : (o.output_tensor.empty() ? "0" : o.output_tensor), "detail");
  request.top_n = o.top_n;
  request.max_line = o.max_line;
  request.ignore_result = o.ignore_single_op_result;
  request.output_dir = o.output_dir;
  const DetailSummary summary = run_single_op_detail(options, request);
  for (const std::string& w : summary.warnings) print_diagnostic(Severity::kWarning, w);
  for (const TopTable& table : summary.top_tables) print_top_table(table);
  std::cout << "dumpcmp: " << request.tensor_id() << ": " << summary.count
            << " elements detailed in " << o.output_dir << '\n';
  return 0;
}

// Inputs: the two dump paths, or a saved plan; the output directory and threads.
void add_input_options(CLI::App& app, CompareCommandOptions& o) {
  auto* my =
      app.add_option("-m,--my_dump_path", o.my_path, "My output (NPU) dump directory or file");
  auto* golden =
      app.add_option("-g,--golden_dump_path", o.golden_path, "Ground-truth dump directory or file");
  auto* plan_only = app.add_option(
      "--plan-only", o.plan_only,
      "Write the compare's plan as JSON lines to this file ('-': standard output) and stop");
  auto* plan = app.add_option("--plan", o.plan, "Run a plan written by --plan-only");
  plan->excludes(my)->excludes(golden)->excludes(plan_only);
  app.parse_complete_callback([&o] {
    if (!o.plan.empty()) return;
    if (o.my_path.empty()) throw CLI::RequiredError("--my_dump_path");
    if (o.golden_path.empty()) throw CLI::RequiredError("--golden_dump_path");
  });
  add_common_compare_options(app, o);
}

// What is computed and where: the algorithms, plug-ins, -max and the device.
void add_metric_options(CLI::App& app, CompareCommandOptions& o) {
  app.add_option(
      "--algorithm", o.algorithms,
      "Algorithms: all, or names and indexes 0-9 comma-separated, or indexes space-separated "
      "(-alg)");
  app.add_option("-c,--custom_script_path", o.custom_dir,
                 "Custom plug-ins: DIR/algorithm/alg_<Name>.py, selected by name with -alg "
                 "(run by python3 with numpy; DUMPCMP_PYTHON names another interpreter)");
  app.add_option("-a,--algorithm_options", o.algorithm_options,
                 "Parameters for the algorithms: \"Name:key=value,key2=value2;Name2:...\"");
  app.add_option("--max_cmp_size", o.max_cmp_size,
                 "Compare only the first N elements, 0 = all (-max)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--device", o.device, "auto | cpu | cuda | thrust-omp");
  app.add_option("--device-memory", o.device_memory_mb,
                 "MiB of payload a device backend stages at once (default 1024)");
}

// The rule files and the operator selection through them.
void add_rule_options(CLI::App& app, CompareCommandOptions& o) {
  auto* plan = app.get_option("--plan");
  app.add_option("-f,--fusion_rule_file", o.fusion_rule,
                 "The offline model's JSON (atc --mode=1) or GE graph dump (ge_proto_*_Build.txt): "
                 "compare it with framework dumps");
  app.add_option("-q,--quant_fusion_rule_file", o.quant_rule,
                 "The AMCT quantization rule JSON (or GE graph text)");
  app.add_option("--close_fusion_rule_file", o.close_fusion_rule,
                 "The fusion-off model's JSON or GE graph text, NPU vs NPU (-cf)");
  auto* range = app.add_option("-r,--range", o.range, "start,end,step of OpSequence (needs -f)");
  auto* select = app.add_option("-s,--select", o.select, "OpSequence ids i,j,... (needs -f)");
  range->excludes(select);
  for (const char* rule : {"-f", "-q", "--close_fusion_rule_file", "-r", "-s"}) {
    app.get_option(rule)->excludes(plan);
  }
}

// Extra columns, and the modes that replace the compare: -map and -op with its options.
void add_mode_options(CLI::App& app, CompareCommandOptions& o) {
  app.add_flag("--overflow_detection", o.overflow_detection,
               "OverFlow column: fp16 tensors with |x| >= 65504 (-overflow_detection)");
  app.add_flag("--quantiles", o.quantiles,
               "Columns of exact quantiles (P50, P99, P99.9) and a decade histogram of |x - y| "
               "and of the relative error, per tensor");
  app.add_flag(
      "--mapping", o.mapping,
      "Write mapping_<ts>.csv (NPU tensor -> ground-truth file) instead of comparing (-map)");
  app.add_option("--op_name", o.op_name, "Single-operator detail of this op (-op)");
  app.add_option("-o,--output_tensor", o.output_tensor, "With -op: output k (the default, 0)");
  app.add_option("-i,--input_tensor", o.input_tensor, "With -op: input k");
  app.add_option("-n,--topn", o.top_n, "With -op: rows of the top-N files (1-10000)")
      ->check(CLI::Range(1, 10000));
  app.add_option("--max_line", o.max_line, "With -op: rows per detail CSV, 10000-1000000 (-ml)");
  app.add_flag("--ignore_single_op_result", o.ignore_single_op_result,
               "With -op: no per-element CSVs, only the summary and the top-N files");
}

// The reports beside the result CSV, --follow, the verdicts' tolerances.
void add_report_options(CLI::App& app, CompareCommandOptions& o) {
  app.add_option("--hdf5", o.hdf5, "Also write the results to this HDF5 file (docs/hdf5.md)");
  app.add_option("--html", o.html, "Also write a self-contained HTML report to this file");
  app.add_option("--model-explorer", o.model_explorer,
                 "With -f: also write the model's graph and node data colouring its ops by the "
                 "results to this directory, for Google's Model Explorer (docs/model-explorer.md)");
  app.add_option("--original-model", o.original_model,
                 "With --model-explorer: draw this original model (.onnx, .pb, .prototxt) the "
                 "offline model was built from, its layers coloured through the ops' original "
                 "names")
      ->check(CLI::ExistingFile);
  auto* follow = app.add_flag("--follow", o.follow,
                              "Watch -m while the device run writes it: compare each dump as soon "
                              "as it is complete, print its rows' verdicts, then write the result "
                              "files for the complete dumps on Ctrl-C, --idle or --until");
  app.add_option("--idle", o.idle_seconds,
                 "With --follow: stop after this many seconds without a new dump (0: never; "
                 "default 60)")
      ->needs(follow);
  app.add_option("--until", o.until_op, "With --follow: stop once this op's dump is compared")
      ->needs(follow);
  app.add_option("--threshold", o.thresholds,
                 "[PATTERN:]Metric=VALUE: a tolerance (Cosine is a minimum, the others maxima); "
                 "repeatable (docs/verdicts.md)");
  app.add_flag("--ffts", o.ffts,
               "FFTS+ dumps: compare each slice file as it is, without merging (-ffts)");
  app.add_flag(
      "--advisor", o.advisor,
      "Write advisor_summary.txt: the first overflow, input or accuracy problem (-advisor)");
}

// Whole runs: --tree and its selection, --resume, the ranks.
void add_tree_options(CLI::App& app, CompareCommandOptions& o) {
  auto* plan = app.get_option("--plan");
  auto* plan_only = app.get_option("--plan-only");
  auto* tree = app.add_flag("--tree", o.tree,
                            "-m and -g are whole dump trees: compare every leaf (docs/trees.md)");
  app.add_option("--steps", o.steps, "With --tree: the steps to compare, e.g. 0|3-5|10")
      ->needs(tree);
  app.add_option("--devices", o.devices, "With --tree: the devices to compare, e.g. 0,1")
      ->needs(tree);
  app.add_flag("--mirror", o.mirror,
               "With --tree: each result in a tree like the dump's, <leaf>/result_<ts>.csv")
      ->needs(tree);
  app.add_flag("--resume", o.resume,
               "Continue an interrupted --tree or batch run from its journal in the output "
               "directory");
  tree->excludes(plan)->excludes(plan_only);
  app.add_option("--shard-by", o.shard_by,
                 "Over MPI ranks with --tree: deal leaves in byte-balanced shares (bytes) or each "
                 "device's leaves to a rank whose host can read them (device)")
      ->check(CLI::IsMember({"bytes", "device"}));
}

// The combinations that the options' presence decides; those that depend on their values (-f a
// directory: batch mode) or on the ranks are checked as the run starts.
void declare_combinations(CLI::App& app) {
  auto* follow = app.get_option("--follow");
  auto* plan = app.get_option("--plan");
  auto* plan_only = app.get_option("--plan-only");
  auto* tree = app.get_option("--tree");
  auto* op = app.get_option("--op_name");
  auto* mapping = app.get_option("--mapping");
  auto* fusion = app.get_option("--fusion_rule_file");
  auto* model_explorer = app.get_option("--model-explorer");
  app.get_option("--original-model")->needs(model_explorer);
  model_explorer->needs(fusion)->excludes(op)->excludes(mapping)->excludes(plan_only);
  plan->excludes(mapping)->excludes(op);
  app.get_option("--quantiles")->excludes(mapping)->excludes(op);
  follow->excludes(fusion)
      ->excludes("--quant_fusion_rule_file")
      ->excludes("--close_fusion_rule_file")
      ->excludes(op)
      ->excludes(mapping)
      ->excludes(plan)
      ->excludes(plan_only);
  tree->excludes(op)
      ->excludes(mapping)
      ->excludes("--html")
      ->excludes(model_explorer)
      ->excludes(follow);
}

void setup_compare(CLI::App& app, CompareCommandOptions& o) {
  add_input_options(app, o);
  add_metric_options(app, o);
  add_rule_options(app, o);
  add_mode_options(app, o);
  add_report_options(app, o);
  add_tree_options(app, o);
  declare_combinations(app);
}

// The custom algorithm plug-ins (-c, -alg) and format conversions of a run: they live as long as
// the run, and their warnings go to the console and the run's log, each once (a plug-in failing
// on every row says so once).
struct Plugins {
  explicit Plugins(std::vector<std::string>& run_warnings)
      : warnings(run_warnings), sink([this](Severity s, const std::string& w) {
          if (!seen.insert(w).second) return;
          print_diagnostic(s, w);
          warnings.push_back(w);
        }) {}
  std::vector<std::string>& warnings;
  std::set<std::string> seen;
  DiagnosticSink sink;
  std::unique_ptr<CustomMetrics> metrics;
  std::unique_ptr<PythonConversions> conversions;
};

// -alg and -c: the metrics chosen, and the plug-ins loaded into `options` (custom metrics on rank
// 0, which writes the records).
void load_plugins(const CompareCommandOptions& o, const World& world, CompareOptions& options,
                  Plugins& plugins) {
  std::vector<std::string> warnings;
  std::vector<std::string> custom_names;
  if (!o.custom_dir.empty()) custom_names = find_custom_algorithms(o.custom_dir, warnings);
  AlgorithmSelection algorithms;
  try {
    algorithms = parse_algorithm_selection(o.algorithms, custom_names, &warnings);
  } catch (const Error&) {  // msaccucmp warns of each name it skipped before it gives up
    for (const std::string& w : warnings) print_diagnostic(Severity::kWarning, w);
    throw;
  }
  options.metrics = algorithms.metrics;
  const AlgorithmParams algorithm_params = parse_algorithm_params(o.algorithm_options);
  for (const std::string& w : warnings) {
    print_diagnostic(Severity::kWarning, w);
    plugins.warnings.push_back(w);
  }
  // Custom format conversions apply where msaccucmp converts: through a fusion rule (-f).
  const bool custom_conversions =
      !o.custom_dir.empty() && !o.fusion_rule.empty() && has_custom_converters(o.custom_dir);
  if (!algorithms.custom.empty() || custom_conversions) {
    if (o.tree || world.size() > 1 || !o.plan.empty() || !o.plan_only.empty() ||
        !o.op_name.empty() ||
        (!o.fusion_rule.empty() && std::filesystem::is_directory(o.fusion_rule))) {
      throw Error(ExitCode::kUsage,
                  std::string(algorithms.custom.empty() ? "custom format conversions"
                                                        : "custom algorithms") +
                      " (-c) run in a single-process whole-network compare: not with --tree, "
                      "batch mode, MPI ranks, --plan, --plan-only or -op");
    }
  }
  if (custom_conversions) {
    plugins.conversions = std::make_unique<PythonConversions>(o.custom_dir, plugins.sink);
    options.custom_conversions = plugins.conversions.get();
  }
  if (algorithms.custom.empty() || world.rank() != 0) return;
  plugins.metrics = std::make_unique<CustomMetrics>(o.custom_dir, algorithms.custom,
                                                    algorithm_params, plugins.sink);
  if (plugins.metrics->loaded_columns().empty() && options.metrics.empty()) {
    std::string selected;
    for (const CustomColumn& c : algorithms.custom) {
      selected += (selected.empty() ? "'" : ", '") + c.name + "'";
    }
    throw Error(ExitCode::kUsage,
                unsupported_algorithms_message("[" + selected + "]", custom_names));
  }
  options.custom_columns = plugins.metrics->loaded_columns();
  options.custom_metrics = plugins.metrics.get();
}

// The compare's options as the command line gives them (the plug-ins' aside); `warnings` gets what
// they warn of, printed as it is found.
void set_compare_options(const CompareCommandOptions& o, CompareOptions& options,
                         std::vector<std::string>& warnings) {
  options.max_cmp_size = o.max_cmp_size;
  if (o.max_cmp_size > 0 && o.fusion_rule.empty() && o.quant_rule.empty() && o.op_name.empty()) {
    warnings.push_back("-max " + std::to_string(o.max_cmp_size) +
                       " cuts tensors compared through a rule file (-f/-q) only; without "
                       "one whole tensors are compared, as msaccucmp does");
    print_diagnostic(Severity::kWarning, warnings.back());
  }
  options.threads = o.threads;
  options.fusion_rule_path = o.fusion_rule;
  options.quant_rule_path = o.quant_rule;
  options.close_fusion_rule_path = o.close_fusion_rule;
  options.range = o.range;
  options.select = o.select;
  // msaccucmp adds OpSequence only when -r, -s, --range or --select is an argument of its own
  // (RangeManager._has_cmd): "--range=4,10,2" selects without the column.
  options.op_sequence_column = false;
  for (const std::string& token : command_line_tokens()) {
    if (token == "-r" || token == "-s" || token == "--range" || token == "--select") {
      options.op_sequence_column = true;
    }
  }
  options.overflow_detection = o.overflow_detection;
  options.quantiles = o.quantiles;
  options.ffts = o.ffts;
  if ((!o.range.empty() || !o.select.empty()) && o.fusion_rule.empty() && o.quant_rule.empty()) {
    throw Error(ExitCode::kUsage, "-r/--range and -s/--select need a fusion rule (-f or -q)");
  }
}

// A whole-network compare on every rank (the follow mode's watching first), its end printed by
// rank 0; returns the exit code.
int run_whole_network(const CompareCommandOptions& o, World& world, CompareOptions options,
                      const std::vector<std::string>& option_warnings, bool advisor,
                      const SourceModel* original) {
  const bool quiet = o.quiet || world.rank() != 0;
  BackendSelection selection =
      select_backend(o.device, o.threads, o.device_memory_mb, quiet, world.local_rank());
  if (o.follow) {
    const VerdictRules rules(o.thresholds);  // the live verdicts
    options.rules = &rules;
    // The result files hold the dumps that were complete when watching stopped.
    const std::set<std::string> complete =
        follow_dumps(options, {o.idle_seconds, o.until_op, o.quiet}, *selection.backend);
    options.npu_file_filter = [complete](const std::string& p) { return complete.count(p) > 0; };
    options.rules = nullptr;  // the run's own, from the same thresholds
  }
  NetworkRunRequest request;
  request.outputs = {o.output_dir, o.hdf5, o.html, o.model_explorer, advisor};
  request.plan = o.plan;
  request.thresholds = o.thresholds;
  request.description = {o.my_path,    o.golden_path, o.fusion_rule,
                         o.quant_rule, o.plan,        command_line()};
  request.warnings = &option_warnings;
  request.original = original ? &original->graph() : nullptr;
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress(std::cerr, !quiet && isatty(STDERR_FILENO) != 0, [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  options.progress = [&progress](int64_t done, int64_t total, uint64_t bytes) {
    progress.update(done, total, bytes);
  };
  const NetworkRunResult run = run_network(request, options, *selection.backend, world);
  progress.finish();
  if (world.rank() != 0) return 0;
  if (!o.quiet) print_network_run(run, o, world);
  const int code = finish_compare(run.summary, o.range, o.select);
  if (code == 0 && o.fail_on_threshold && run.outputs->analysis().count(Verdict::kFail) > 0) {
    return static_cast<int>(ExitCode::kOutsideTolerance);
  }
  return code;
}

int run_compare(const CompareCommandOptions& o, World& world) {
  CompareOptions options;
  options.my_path = o.my_path;
  options.golden_path = o.golden_path;
  std::vector<std::string> option_warnings;  // for the console and the run's log
  Plugins plugins(option_warnings);
  load_plugins(o, world, options, plugins);
  set_compare_options(o, options, option_warnings);
  if (o.tree ||
      (!o.fusion_rule.empty() && !o.mapping && std::filesystem::is_directory(o.fusion_rule))) {
    std::optional<DirectoryLock> lock;
    if (world.rank() == 0) {
      ensure_directory(o.output_dir);
      lock.emplace(o.output_dir);
    }
    return o.tree ? run_tree_mode(options, o, world) : run_batch_mode(options, o, world);
  }
  if (o.resume) throw Error(ExitCode::kUsage, "--resume continues a --tree or batch-mode run");
  if (o.follow && world.size() > 1) {
    throw Error(ExitCode::kUsage,
                "--follow watches an NPU dump directory in one process: not over MPI ranks");
  }
  // The original model is read before comparing: a bad one stops the run before any output.
  std::unique_ptr<SourceModel> original;
  if (!o.original_model.empty()) original = read_source_model(o.original_model, "");
  bool advisor = o.advisor;
  if (advisor && (!o.range.empty() || !o.select.empty())) {
    print_diagnostic(Severity::kWarning,
                     "-advisor takes no effect with -r/--range or -s/--select.");
    advisor = false;
  }
  if (advisor) options.overflow_detection = true;  // as msaccucmp: the advisor reads OverFlow
  // A plan, a mapping or one op's detail is rank 0's alone; a compare is shared by every rank.
  const bool shared = o.plan_only.empty() && o.op_name.empty() && !o.mapping;
  if (world.rank() != 0 && !shared) return 0;
  if (!o.plan_only.empty()) return write_plan(options, o);
  std::optional<DirectoryLock> lock;
  if (world.rank() == 0) {
    ensure_directory(o.output_dir);
    lock.emplace(o.output_dir);
  }
  if (!o.op_name.empty()) return run_detail(options, o);
  if (o.mapping) {
    CsvWriter table(o.output_dir + "/mapping_" + local_timestamp() + ".csv");
    const int64_t rows = write_mapping_table(options, table);
    table.commit();
    std::cout << "dumpcmp: " << rows << " tensors mapped, written to " << table.path() << '\n';
    return 0;
  }
  return run_whole_network(o, world, options, option_warnings, advisor, original.get());
}

void remember_command_line(int argc, char** argv) {
  std::string& text = command_line_storage();
  for (int i = 0; i < argc; ++i) {
    text += (i ? " " : "") + std::string(argv[i]);
    command_line_tokens().emplace_back(argv[i]);
  }
}

}  // namespace dumpcmp::cli
