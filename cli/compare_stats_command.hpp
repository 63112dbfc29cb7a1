#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "common.hpp"

namespace dumpcmp::cli {

// compare_stats: msprobe's statistics compare of two statistics dumps (docs/statistics.md).
// -m NPU -g BENCH: each a statistic.csv, a directory holding statistic.csv or CANN per-op .csv
// stats files, or a MindSpore dump root (rank_N/<net>/<graph>/<step>/statistic.csv). One side may
// instead be a directory of tensor dumps when the other is a single statistics table: its
// statistics are computed from the tensors (stats/tensor_stats.hpp, docs/statistics.md §9).
struct CompareStatsOptions : CommonCompareOptions {
  std::string npu_path, bench_path;
  std::string ranks, steps;  // msprobe's --rank / --step: comma lists, empty for all
  int numpy = 2;             // which numpy msprobe runs on (1 or 2)
  // A tensor-dump side: whose file to imitate ("auto": the statistics side's), the NaN rule
  // ("": the flavor's), the significant digits kept (0: all).
  std::string flavor = "auto", nan_rule;
  int stats_digits = 6;
};

void setup_compare_stats(CLI::App& app, CompareStatsOptions& options);
int run_compare_stats(const CompareStatsOptions& options);

}  // namespace dumpcmp::cli
