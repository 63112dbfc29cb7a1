#pragma once
// Statistics computed from tensor dumps (docs/statistics.md §9): for every dump of a directory,
// one StatsRow per input and output tensor, filled as a statistics dump of that tensor would be
// (CANN's per-op .csv or MindSpore's statistic.csv), so that compare_stats pairs a real statistics
// table with the computed one by the same key.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "io/dump_file.hpp"
#include "stats/statistic_csv.hpp"

namespace dumpcmp {

// Whose statistics file the computed rows imitate: the identifying cells are spelled as that
// writer spells them, because msprobe's pairing key and its shape/dtype checks compare text.
enum class StatsFlavor {
  // CANN per-op "<dump file name>.csv" (acl.json dump_data "stats", docs/formats.md §6): IO
  // "Input"/"Output", dtype "DT_FLOAT", format "NC1HWC0", shape "1x1x28x28x16" ("-" for none).
  kCann,
  // MindSpore / msprobe statistic.csv: IO "input"/"output", dtype "float32", no format, shape
  // "(128,1,28,28)" ("()" for a scalar).
  kMindSpore,
};

// How NaN and +-inf enter max, min and mean; the writers differ (docs/statistics.md §9.2).
enum class StatsNanRule {
  // CANN's AICPU stats writer (RT aicpu dump_task ProcessDumpStats, DataStats<T>::Stats): max and
  // min start at element 0 and skip NaN by comparison, so they are NaN only when element 0 is;
  // +-inf count. Mean: +inf (-inf) when only +inf (only -inf) occur, else NaN with a NaN or with
  // both infinities, else the mean.
  kCannAicpu,
  // CANN's newer runtime writer (runtime_thread_aicpu datadump FloatingStatistics): max and min
  // skip NaN (NaN when every element is NaN); mean NaN with any NaN or both infinities, else +-inf
  // with one kind of infinity, else the mean of the finite elements.
  kCannRuntime,
  // MindSpore's TensorSummary, numpy and torch: any NaN makes max, min and mean NaN; +-inf take
  // part as numbers (the mean of +inf and -inf is NaN).
  kPropagate,
};

std::string_view stats_nan_rule_name(StatsNanRule rule);  // "cann-aicpu", "cann-runtime", ...
std::optional<StatsNanRule> parse_stats_nan_rule(std::string_view text);

struct TensorStatsOptions {
  StatsFlavor flavor = StatsFlavor::kCann;
  // Default: kCannAicpu for kCann, kPropagate for kMindSpore.
  std::optional<StatsNanRule> nan_rule;
  // Every writer prints with std::ostream's default precision: 6 significant digits (integer max
  // and min of CANN's writers in full). The computed values are rounded the same way so that
  // equal tensors give equal cells; 0 keeps the full double.
  int significant_digits = 6;
  int threads = 0;  // files read and reduced at once (0: all cores)

  StatsNanRule rule() const;
};

// One tensor's statistics, before any identifying cell.
struct TensorStatistics {
  std::optional<double> max, min, mean, l2norm;
  std::optional<int64_t> count, nan_count, neg_inf_count, pos_inf_count;
};

// True for the dtypes statistics are computed for: float32, float16, bfloat16, float64, the int
// and uint types of 8 to 64 bits, bool, uint1 and the fp8 types (e4m3fn, e5m2, hifloat8). Others
// (complex, string, int4, DT_UNDEFINED, ...) get CANN's empty statistics.
bool stats_dtype_supported(DType dtype);

// Statistics of the `bytes` stored bytes of one tensor of `dtype`: every stored element (padding
// of a device layout included), decoded with the project's decoders and accumulated in double, a
// chunk at a time straight from `data`. An empty tensor has a count of 0 and no max/min/mean/
// l2norm; an unsupported dtype has nothing.
TensorStatistics tensor_statistics(const uint8_t* data, uint64_t bytes, DType dtype,
                                   const TensorStatsOptions& options = {});

// The rows of one dump file: its inputs, then its outputs. `basename` is the dump's real file
// name (mapping.csv resolved), which gives op type, op name, task id, stream id and timestamp as
// the stats file of that dump would have them.
std::vector<StatsRow> stats_rows_of_dump(const DumpFile& dump, const std::string& basename,
                                         const TensorStatsOptions& options = {});

// True when `dir` is a directory holding tensor dumps: a file the dump inventory takes (offline
// dumps, .npy/.pb/.quant goldens, hashed names with a mapping.csv), or a per-tensor .npy named
// "<op type>.<op name>.<task id>.<stream id>.<timestamp>.<input|output>.<slot>[.<format>].npy"
// (MindSpore's tensor dump, dumpcmp convert's output). Only names are read.
bool is_tensor_dump_directory(const std::string& dir);

// Statistics of every tensor dump in `dir` (not recursive): per op of the inventory the file it
// chooses (io/inventory.hpp: the latest; for FFTS+ its pick), and every per-tensor .npy. Rows are
// in inventory order (inputs, then outputs), then the .npy files by timestamp, op, IO and slot.
// A dump that cannot be read is left out with a StatsProblem naming it. Throws Error(kInput)
// naming `dir` when it holds no tensor dump or cannot be read.
StatsTable stats_from_tensor_dumps(const std::string& dir, const TensorStatsOptions& options = {});

// The flavor a real statistics table was written in: kCann when its first row spells IO
// "Input"/"Output" or its dtype "DT_...", else kMindSpore. An empty table gives kCann.
StatsFlavor stats_flavor_of(const StatsTable& table);

}  // namespace dumpcmp
