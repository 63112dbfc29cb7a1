#include "compare_stats_command.hpp"

#include <filesystem>
#include <iostream>
#include <set>

#include "common.hpp"
#include "core/directory_lock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/timestamp.hpp"
#include "stats/stats_compare.hpp"
#include "stats/stats_tree.hpp"
#include "stats/tensor_stats.hpp"

namespace dumpcmp::cli {
namespace {

namespace fs = std::filesystem;

// msprobe's --rank / --step: comma-separated whole numbers; empty selects everything.
std::set<int64_t> id_list(const std::string& text, const char* what) {
  std::set<int64_t> ids;
  if (trim(text).empty()) return ids;
  for (const std::string& piece : split_commas(text)) {
    const std::optional<int64_t> n = parse_natural(trim(piece), 9);
    if (!n)
      throw Error(ExitCode::kUsage,
                  std::string("--") + what + ": '" + piece + "' is not a whole number");
    ids.insert(*n);
  }
  return ids;
}

void print_table_warnings(const StatsTable& table, const char* side) {
  for (const StatsProblem& p : table.problems) {
    print_diagnostic(Severity::kWarning, p.text() + " (compared as NaN)");
  }
  if (table.files.empty()) return;
  const std::string where =
      table.files.size() == 1
          ? table.files.front()
          : std::to_string(table.files.size()) + " files (the first " + table.files.front() + ")";
  for (const std::string& column : table.missing_columns) {
    print_diagnostic(Severity::kWarning, std::string(side) + " statistics " + where + ": no '" +
                                             column + "' column (compared as NaN)");
  }
}

// Compares two tables into `path` and prints the summary line; returns the rows outside.
std::size_t compare_into(const StatsTable& npu, const StatsTable& bench, const std::string& label,
                         const std::string& path, const StatsCompareOptions& options, bool quiet) {
  print_table_warnings(npu, "NPU");
  print_table_warnings(bench, "bench");
  const StatsComparison result = compare_stats(npu, bench, options);
  write_stats_result(path, npu, bench, result, options);
  if (quiet) return result.outside;
  std::string first = "none";
  if (result.first_divergent) first = result.rows[*result.first_divergent].key;
  std::cout << "dumpcmp: compare_stats" << label << ": " << result.rows.size() << " rows, "
            << result.compared << " compared, " << result.outside << " outside tolerance ("
            << result.npu_only << " NPU only, " << result.bench_only
            << " bench only), first divergent op: " << first << "; result written to " << path
            << '\n';
  return result.outside;
}

// A lowest-level directory's table, or nullopt (with a warning) when it holds no statistics.
std::optional<StatsTable> read_leaf(const std::string& dir) {
  if (is_stats_directory(dir)) return read_stats_path(dir);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".npy") {
      print_diagnostic(Severity::kWarning,
                       dir +
                           ": holds .npy dumps (msprobe's NPY_MODE), which compare_stats does "
                           "not compare; skipped");
      break;
    }
  }
  return std::nullopt;
}

std::optional<StatsTable> read_leaves(const std::vector<std::string>& dirs) {
  std::optional<StatsTable> table;
  for (const std::string& dir : dirs) {
    std::optional<StatsTable> leaf = read_leaf(dir);
    if (!leaf) continue;
    if (!table) {
      table = std::move(leaf);
    } else {
      table->append(std::move(*leaf));
    }
  }
  return table;
}

bool is_single_table(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) || is_stats_directory(path);
}

// The statistics of a tensor-dump side, computed to look like the statistics side's file.
StatsTable computed_table(const std::string& dir, const StatsTable& other,
                          const CompareStatsOptions& o, const char* side) {
  TensorStatsOptions options;
  if (o.flavor == "auto") {
    options.flavor = stats_flavor_of(other);
  } else {
    options.flavor = o.flavor == "cann" ? StatsFlavor::kCann : StatsFlavor::kMindSpore;
  }
  if (!o.nan_rule.empty()) options.nan_rule = parse_stats_nan_rule(o.nan_rule);
  options.significant_digits = o.stats_digits;
  options.threads = o.threads;
  StatsTable table = stats_from_tensor_dumps(dir, options);
  for (const StatsProblem& p : table.problems) {
    print_diagnostic(Severity::kWarning, p.file + ": " + p.message + " (its tensors are left out)");
  }
  table.problems.clear();
  if (o.quiet) return table;
  std::cout << "dumpcmp: compare_stats: " << side << " statistics computed from "
            << table.rows.size() << " tensors of " << table.files.size() << " dumps in " << dir
            << " (as " << (options.flavor == StatsFlavor::kCann ? "CANN" : "MindSpore")
            << " writes them, NaN rule " << stats_nan_rule_name(options.rule()) << ")\n";
  return table;
}

}  // namespace

void setup_compare_stats(CLI::App& app, CompareStatsOptions& o) {
  app.add_option("-m,--my_dump_path", o.npu_path,
                 "NPU statistics: statistic.csv, a directory of stats files, a dump root, or a "
                 "directory of tensor dumps (statistics computed from the tensors)")
      ->required();
  app.add_option("-g,--golden_dump_path", o.bench_path, "Bench statistics (same kinds as -m)")
      ->required();
  add_common_compare_options(app, o);
  app.add_option("--rank", o.ranks, "Dump roots: ranks to compare, comma-separated (msprobe)");
  app.add_option("--step", o.steps, "Dump roots: steps to compare, comma-separated (msprobe)");
  app.add_option("--numpy", o.numpy,
                 "Reproduce msprobe on numpy 1.x/pandas 2.x (1) or numpy 2.x/pandas 3.x (2)")
      ->check(CLI::IsMember({1, 2}));
  app.add_option("--flavor", o.flavor,
                 "A tensor-dump side: spell its statistics as CANN's per-op .csv (cann) or "
                 "statistic.csv (mindspore); auto follows the statistics side")
      ->check(CLI::IsMember({"auto", "cann", "mindspore"}));
  app.add_option("--nan-rule", o.nan_rule,
                 "A tensor-dump side: how NaN/inf enter max/min/mean (cann-aicpu, cann-runtime, "
                 "propagate); default cann-aicpu for cann, propagate for mindspore")
      ->check(CLI::IsMember({"cann-aicpu", "cann-runtime", "propagate"}));
  app.add_option("--stats-digits", o.stats_digits,
                 "A tensor-dump side: significant digits kept, as the writers print (0: all)")
      ->check(CLI::Range(0, 17));
}

int run_compare_stats(const CompareStatsOptions& o) {
  StatsCompareOptions options;
  options.numpy = o.numpy == 1 ? NumpyGeneration::kNumpy1 : NumpyGeneration::kNumpy2;
  ensure_directory(o.output_dir);
  const DirectoryLock lock(o.output_dir);
  const std::string out_dir = fs::absolute(o.output_dir).lexically_normal().string();
  std::size_t outside = 0;
  const bool npu_single = is_single_table(o.npu_path);
  const bool bench_single = is_single_table(o.bench_path);
  const bool npu_tensors = !npu_single && is_tensor_dump_directory(o.npu_path);
  const bool bench_tensors = !bench_single && is_tensor_dump_directory(o.bench_path);
  if (npu_tensors && bench_tensors) {
    throw Error(ExitCode::kUsage, o.npu_path + " and " + o.bench_path +
                                      ": both hold tensor dumps and no statistics; compare "
                                      "them with dumpcmp compare");
  }
  if (npu_single || bench_single) {
    if (npu_single != bench_single && !npu_tensors && !bench_tensors) {
      throw Error(ExitCode::kUsage, (npu_single ? o.bench_path : o.npu_path) +
                                        ": holds no statistic.csv, CANN stats file or tensor "
                                        "dump, while the other side holds statistics");
    }
    if (!o.ranks.empty() || !o.steps.empty()) {
      throw Error(ExitCode::kUsage, "--rank and --step select directories of dump roots only");
    }
    StatsTable npu, bench;
    if (npu_tensors) {
      bench = read_stats_path(o.bench_path);
      npu = computed_table(o.npu_path, bench, o, "NPU");
    } else if (bench_tensors) {
      npu = read_stats_path(o.npu_path);
      bench = computed_table(o.bench_path, npu, o, "bench");
    } else {
      npu = read_stats_path(o.npu_path);
      bench = read_stats_path(o.bench_path);
    }
    const std::string path = out_dir + "/compare_stats_result_" + local_timestamp() + ".csv";
    outside = compare_into(npu, bench, "", path, options, o.quiet);
  } else {
    const std::set<int64_t> ranks = id_list(o.ranks, "rank");
    const std::set<int64_t> steps = id_list(o.steps, "step");
    std::vector<RankStepPair> pairs =
        pair_rank_steps(find_rank_step_dirs(o.npu_path), find_rank_step_dirs(o.bench_path));
    std::size_t written = 0;
    for (const RankStepPair& pair : pairs) {
      if (!ranks.empty() && ranks.count(pair.id.rank) == 0) continue;
      if (!steps.empty() && steps.count(pair.id.step) == 0) continue;
      const std::string label =
          " rank " + std::to_string(pair.id.rank) + " step " + std::to_string(pair.id.step);
      const std::optional<StatsTable> npu = read_leaves(pair.npu_dirs);
      const std::optional<StatsTable> bench = read_leaves(pair.bench_dirs);
      if (!npu || !bench) {
        print_diagnostic(Severity::kWarning, "compare_stats" + label + ": no statistics on the " +
                                                 (npu ? "bench" : "NPU") + " side; skipped");
        continue;
      }
      const std::string path = out_dir + "/compare_result_" + std::to_string(pair.id.rank) + "_" +
                               std::to_string(pair.id.step) + "_" + local_timestamp() + ".csv";
      outside += compare_into(*npu, *bench, label, path, options, o.quiet);
      ++written;
    }
    if (written == 0) {
      throw Error(ExitCode::kInput, o.npu_path + " and " + o.bench_path +
                                        ": no rank/step directory with statistics in common");
    }
  }
  if (o.fail_on_threshold && outside > 0) return static_cast<int>(ExitCode::kOutsideTolerance);
  return 0;
}

}  // namespace dumpcmp::cli
