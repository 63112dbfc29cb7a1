#include "probe_compare_command.hpp"

#include <filesystem>
#include <iostream>

#include "compare_command.hpp"
#include "compare_stats_command.hpp"
#include "core/error.hpp"

namespace dumpcmp::cli {

bool is_probe_compare(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != "compare") return false;
  for (const std::string& a : args) {
    if (a == "--target_path" || a == "--golden_path") return true;
  }
  return false;
}

void setup_probe_compare(CLI::App& app, ProbeCommandOptions& command) {
  ProbeRunOptions& o = command.run.compare;
  app.add_option("-m,--mode",
                 "msprobe's compare mode: auto (the default), or offline_data: msaccucmp's "
                 "compare of CANN dumps with -fr/-qfr/-cfr for -f/-q/-cf")
      ->check(CLI::IsMember({"auto"}));
  app.add_option("--target_path", o.target_path,
                 "-tp: the NPU side: a dump.json or a step directory")
      ->required();
  app.add_option("--golden_path", o.golden_path, "-gp: the bench side, of the same kind as -tp")
      ->required();
  app.add_option("-o,--output_path", o.output_dir, "The output directory (./output)")
      ->expected(0, 1)
      ->default_str("./output");
  app.add_option("--data_mapping", o.data_mapping,
                 "-dm: a YAML of full row names, {npu_row_name: bench_row_name}; mapped rows pair "
                 "whatever their dtypes");
  app.add_option("--cell_mapping", o.cell_mapping,
                 "-cm [MAP.yaml]: compare MindSpore Cell rows with PyTorch Module rows, cell "
                 "paths renamed by {npu_cell_path: bench_module_path}")
      ->expected(0, 1);
  app.add_option("--api_mapping", o.api_mapping,
                 "-am [MAP.yaml]: compare MindSpore APIs with PyTorch ones by msprobe's built-in "
                 "names, then by a list of {ms_api, pt_api, ms_args, pt_args, ...} entries")
      ->expected(0, 1);
  app.add_option("--layer_mapping", o.layer_mapping,
                 "-lm [MAP.yaml]: compare a MindSpore run with a PyTorch one by their module "
                 "trees (construct.json, stack.json), children renamed by "
                 "{ClassName: {child.path: bench_child}}; writes data_mapping_<ts>.yaml")
      ->expected(0, 1);
  app.add_option("--pandas", o.pandas,
                 "The pandas major version of the msprobe install to match: 3 (the default), or "
                 "2 (Python 3.10 and older): None dtypes, integer statistics of unmatched rows "
                 "and the last digits of the statistics differences as pandas 2 writes them")
      ->check(CLI::IsMember({2, 3}));
  app.add_flag("--fuzzy_match", o.fuzzy_match,
               "-fm: pair rows by name without call numbers, walking both runs in order, with no "
               "backward renumbering (tensor and md5 mode; statistics mode as far as msprobe "
               "writes it)");
  app.add_flag("--diff_analyze", o.diff_analyze,
               "-da: on step directories, check each rank's ops (compare_result_rank<R>_<ts>.json) "
               "and write the first differing node over the ranks (diff_analyze_<ns>.json), "
               "before, across or after their communication ops; ignored for two files");
  app.add_option("--numpy", o.numpy,
                 "The numpy major version beside msprobe: 2 (the default), or 1 (pandas 1.x "
                 "installs), whose value-based casting computes a 0-d pair's relative error in "
                 "float32")
      ->check(CLI::IsMember({1, 2}));
  app.add_option("--html", o.html,
                 "Also write this page: each pair's rows by msprobe's Result and its error and "
                 "warning rows (not with -da)");
  app.add_option("--hdf5", o.hdf5,
                 "Also write the result tables to this HDF5 file: the metrics and statistics as "
                 "float64 (docs/hdf5.md; not with -da)");
  app.add_option("--config", o.config,
                 "Tensor mode: msprobe's post-processing YAML: matrices that multiply the named "
                 "data files before they are compared (right_matmul, left_matmul, "
                 "left_right_matmul); float sums in float64, not BLAS's order");
  app.add_flag("--quantiles", o.quantiles,
               "Tensor mode: after msprobe's columns, exact quantiles (P50, P99, P99.9) and a "
               "decade histogram of each pair's absolute and relative errors (docs/quantiles.md)");
  app.add_flag("--xlsx", o.xlsx,
               "Write each result as compare_result_*.xlsx, with the CSV's cells, in its place");
  command.steps = app.add_option("--steps", command.run.steps,
                                 "A whole run: -tp and -gp are dump paths holding step<N> "
                                 "directories; every step (or those of N|N-M|...) is compared "
                                 "into OUT/step<N>/, with OUT/summary.csv and OUT/index.html")
                      ->expected(0, 1);
  command.rank = app.add_option("--rank", command.ranks,
                                "On two directories: msprobe's MindSpore graph-mode compare of "
                                "dump roots (rank_N/<net>/<graph>/<step>/statistic.csv), the "
                                "ranks to compare, comma-separated (as compare_stats)");
  app.add_option("--step", command.graph_steps,
                 "With --rank: the graph-mode steps to compare, comma-separated");
  app.add_flag("--resume", command.run.resume,
               "With --steps: skip the steps an earlier run of the same command finished");
  app.add_option("--device", command.device,
                 "Where tensor mode's pairs are reduced: cpu (the default), thrust-omp or cuda, "
                 "the same cells on each; auto keeps them on the cpu");
  app.add_option("-j,--threads", command.threads, "CPU threads (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--device-memory", command.device_memory_mb,
                 "MiB of tensors a device backend holds at once (default 1024)");
  app.add_flag("--consistent_check", o.consistent_check,
               "msprobe's verl train-against-infer compare of a PyTorch run: training rows "
               "(FSDP or Megatron names) against inference rows (vLLM names), merged projections "
               "gathered; ignored for MindSpore runs as msprobe ignores it");
  app.add_option("--backend", o.verl_backend,
                 "With --consistent_check: fsdp or megatron (ignored without it, as by msprobe)")
      ->check(CLI::IsMember({"fsdp", "megatron"}));
  app.add_flag(
      "--is_print_compare_log",
      "-tensor_log: msprobe logs each compared row; dumpcmp's rows are in the result file");
}

namespace {

int run_steps(const ProbeStepsOptions& options, World& world) {
  const ProbeStepsResult result =
      run_probe_steps(options, world, [](const std::vector<ProbeStepPair>& pairs) {
        for (const ProbeStepPair& p : pairs) {
          std::cout << "dumpcmp: step " << p.step << (p.pair.empty() ? "" : " " + p.pair) << ": ";
          if (p.status == "compared") {
            std::cout << p.errors << " errors, " << p.warnings << " warnings in " << p.rows
                      << " rows";
          } else {
            std::cout << p.status << (p.message.empty() ? "" : " (" + p.message + ")");
          }
          std::cout << (p.resumed ? " (resumed)" : "") << '\n';
        }
      });
  if (world.rank() != 0) return 0;
  for (const std::string& warning : result.warnings)
    std::cerr << "dumpcmp: warning: " << warning << '\n';
  std::cout << "dumpcmp: compare: wrote " << result.summary << " and " << result.index << '\n';
  if (!result.log.empty()) std::cerr << "dumpcmp: the warnings are in " << result.log << '\n';
  return 0;
}

}  // namespace

int run_probe_compare_command(const ProbeCommandOptions& command, World& world) {
  ProbeStepsOptions steps = command.run;
  ProbeRunOptions& o = steps.compare;
  if (o.output_dir.empty()) o.output_dir = "./output";
  o.command = command_line();
  o.threads = command.threads;
  const BackendSelection backend = select_backend(
      command.device, command.threads, command.device_memory_mb, false, world.local_rank());
  o.backend = backend.backend.get();
  if (command.steps != nullptr && command.steps->count() > 0) {
    if (!o.html.empty())
      throw dumpcmp::Error(ExitCode::kUsage,
                           "--html goes with one compare: --steps writes index.html");
    if (!o.hdf5.empty())
      throw dumpcmp::Error(ExitCode::kUsage, "--hdf5 goes with one compare, not with --steps");
    return run_steps(steps, world);
  }
  namespace fs = std::filesystem;
  if (command.rank != nullptr && command.rank->count() > 0 && fs::is_directory(o.target_path) &&
      fs::is_directory(o.golden_path)) {
    if (world.rank() != 0) return 0;
    CompareStatsOptions stats;  // compare_auto_mode hands two directories with --rank to it
    stats.npu_path = o.target_path;
    stats.bench_path = o.golden_path;
    stats.output_dir = o.output_dir;
    stats.ranks = command.ranks;
    stats.steps = command.graph_steps;
    stats.numpy = o.numpy;
    return run_compare_stats(stats);
  }
  if (world.rank() != 0) return 0;  // one step's compare is rank 0's
  if (steps.resume) throw dumpcmp::Error(ExitCode::kUsage, "--resume goes with --steps");
  const ProbeRunResult result = run_probe_compare(o);
  for (const std::string& warning : result.warnings)
    std::cerr << "dumpcmp: warning: " << warning << '\n';
  for (const std::string& file : result.written)
    std::cout << "dumpcmp: compare: wrote " << file << '\n';
  for (const std::string* extra : {&o.html, &o.hdf5}) {
    if (!extra->empty()) std::cout << "dumpcmp: compare: wrote " << *extra << '\n';
  }
  if (result.diff_analyzed && result.diff_analysis.empty())
    std::cout << "dumpcmp: compare: no differing node found: no analysis file written\n";
  if (!result.log.empty()) std::cerr << "dumpcmp: the warnings are in " << result.log << '\n';
  return 0;
}

}  // namespace dumpcmp::cli
