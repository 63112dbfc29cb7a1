#pragma once
// msprobe's statistics compare of two statistics tables (MindSpore graph mode, STATISTIC_MODE of
// ms_graph_compare.GraphMSComparator; docs/statistics.md): rows paired by op name, task id, IO and
// slot (the n-th occurrence in time order with the n-th), the max/min/mean/l2norm differences and
// relative errors, msprobe's "Accuracy Reached or Not" verdict, and its result CSV.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/statistic_csv.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {

struct StatsCompareOptions {
  // numpy 2 computes float32 * 100 and max + 1e-10 in float32 and prints float32 from 1e6 up in
  // scientific notation; numpy 1 promotes both to float64 (docs/statistics.md §4.3).
  NumpyGeneration numpy = NumpyGeneration::kNumpy2;
};

// The four statistics in msprobe's column order.
enum StatIndex : std::size_t { kStatMax = 0, kStatMin = 1, kStatMean = 2, kStatL2Norm = 3 };
inline constexpr std::size_t kStatCount = 4;

// One relative-error cell: |diff / bench| * 100 followed by '%', msprobe's "Nan" when that is NaN,
// "N/A" when bench is 0, or empty when the row was not compared.
struct RelativeError {
  enum class Kind { kNone, kPercent, kNan, kNotApplicable };
  Kind kind = Kind::kNone;
  double percent = 0;  // kPercent: the value msprobe prints (float32 under numpy 2)
};

enum class StatsVerdict { kNone /* not compared: empty cell */, kYes, kNo };

struct StatsComparedRow {
  std::optional<std::size_t> npu, bench;  // row indices into the tables; nullopt: no such row
  std::string key;                        // the pairing key both sides share
  std::size_t occurrence = 0;             // msprobe's "Local Index": n-th row of key in time order
  // The statistics as msprobe holds them (np.float32 of the cell, widened exactly); NaN where the
  // cell is absent or the side has no row.
  std::array<double, kStatCount> npu_stats{}, bench_stats{};
  bool compared = false;                  // no error message: the differences below are filled
  std::array<double, kStatCount> diff{};  // npu - bench in float32
  std::array<RelativeError, kStatCount> relative{};
  StatsVerdict accuracy = StatsVerdict::kNone;
  std::string error_message;  // msprobe's Err_message: each message ends with '\n'
};

struct StatsComparison {
  std::vector<StatsComparedRow> rows;  // msprobe's order: by key, then occurrence
  std::size_t compared = 0;            // rows with differences
  std::size_t outside = 0;             // rows whose verdict is "No"
  std::size_t npu_only = 0, bench_only = 0;
  // The "No" row whose NPU tensor was dumped first (smallest NPU timestamp; file order on ties).
  std::optional<std::size_t> first_divergent;
};

StatsComparison compare_stats(const StatsTable& npu, const StatsTable& bench,
                              const StatsCompareOptions& options = {});

// The 26 column names of msprobe's statistics result, in its order.
const std::vector<std::string>& stats_result_header();

// The result rows as the cells msprobe's CSV holds (numbers formatted as pandas writes them).
std::vector<std::vector<std::string>> stats_result_cells(const StatsTable& npu,
                                                         const StatsTable& bench,
                                                         const StatsComparison& comparison,
                                                         const StatsCompareOptions& options = {});

// Writes the result CSV (header, then the rows; '\n' line ends, minimal quoting) through an
// AtomicFile: nothing appears under `path` unless the whole file was written. Throws Error(kInput)
// naming the file when it cannot be written.
void write_stats_result(const std::string& path, const StatsTable& npu, const StatsTable& bench,
                        const StatsComparison& comparison, const StatsCompareOptions& options = {});

}  // namespace dumpcmp
