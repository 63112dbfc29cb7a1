#pragma once
// Statistics dumps read into one typed table (docs/statistics.md §2): msprobe's / MindSpore's
// merged statistic.csv, and CANN's per-op "<dump file name>.csv" files (acl.json dump_data "stats";
// both the legacy header and the adump header with selected items, docs/formats.md §6).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// One tensor's statistics. Every statistic is optional: nullopt when the file has no such column,
// the cell is empty (CANN's ",,,,,," for an unsupported dtype or a null address) or unreadable.
struct StatsRow {
  std::string op_type;
  std::string op_name;
  std::string task_id;    // as written: part of msprobe's pairing key
  std::string stream_id;  // empty when the name has none (4-field CANN names)
  int64_t timestamp = 0;
  std::string io;    // as written: "input"/"output" (MindSpore), "Input"/"Output" (CANN)
  std::string slot;  // as written: part of the pairing key
  std::optional<uint64_t> data_size;
  std::string dtype;   // "float32", "DT_FLOAT", ... as written
  std::string format;  // empty when the file has no Format column
  std::string shape;   // as written: "(128,1,28,28)", "4x50x50x16", "-", ""
  std::optional<double> max, min, mean, l2norm;
  std::optional<int64_t> count, nan_count, neg_inf_count, pos_inf_count;
  std::string file;      // the file the row came from
  std::size_t line = 0;  // its 1-based line in that file

  // msprobe's pairing key (ms_graph_compare statistic_data_read): "OpName.TaskId.IO.Slot".
  std::string key() const;
  // True when the row has none of max/min/mean/l2norm (CANN's empty stats).
  bool stats_empty() const { return !max && !min && !mean && !l2norm; }
};

// A problem with one row or cell that did not stop the read: "FILE:LINE: what".
struct StatsProblem {
  std::string file;
  std::size_t line = 0;
  std::string message;
  std::string text() const { return file + ":" + std::to_string(line) + ": " + message; }
};

enum class StatsFileKind {
  kMerged,  // "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO|Input/Output,Slot,..."
  kCannOp   // "Input/Output,Index,Data Size,Data Type,Format,Shape,..." (one op per file)
};

struct StatsTable {
  std::vector<StatsRow> rows;      // in file order, files in the order read
  std::vector<std::string> files;  // every file read
  std::vector<StatsProblem> problems;
  // Statistics columns no file had: "Max Value", "Min Value", "Avg Value", "L2Norm Value" (msprobe
  // warns "has no key ..." for each and compares NaN).
  std::vector<std::string> missing_columns;

  void append(StatsTable&& other);
};

// Reads one file's text. `path` names the file in messages and rows; a kCannOp file takes op
// type, op name, task id, stream id and timestamp from its base name, which must follow the dump
// file-name grammar plus ".csv" (io/dump_file_name.hpp). Throws Error(kInput) naming FILE:LINE
// for an empty file, a header of neither kind, a header without a required column, a row with
// fewer fields than the header, or a timestamp / task id that is not a whole number. A cell that
// is not a number becomes nullopt with a StatsProblem.
StatsTable parse_stats_csv(std::string_view text, const std::string& path);

// Reads one file (either kind, told by its header). Throws Error(kInput) naming it when it cannot
// be read.
StatsTable read_stats_file(const std::string& path);

// True when `path` names a directory that holds statistics directly: a statistic.csv, or CANN
// per-op files ("<dump file name>.csv").
bool is_stats_directory(const std::string& path);

// A file, or a directory: its statistic.csv when it has one, else every CANN per-op .csv file in
// it (sorted by name; other .csv names are skipped). Throws Error(kInput) naming the path when it
// holds neither.
StatsTable read_stats_path(const std::string& path);

// The base name's op fields when it is a CANN per-op stats file name: nullopt otherwise.
struct CannStatsName {
  std::string op_type, op_name, task_id, stream_id;
  int64_t timestamp = 0;
};
std::optional<CannStatsName> parse_cann_stats_file_name(std::string_view basename);

}  // namespace dumpcmp
