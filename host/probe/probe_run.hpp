#pragma once
// One `msprobe compare -tp -gp -o` run (docs/msprobe-compare.md §1.3, §2.3, §7): two dump.json
// files, or two step directories whose rank (or proc) directories are paired as msprobe pairs them,
// each pair written as compare_result[_<rank dir>]_<timestamp>.csv (or .xlsx), or with -da the
// first-diff analysis over the ranks.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "probe/probe_compare.hpp"

namespace dumpcmp {

struct ProbeRunOptions {
  std::string target_path;  // -tp: the NPU side
  std::string golden_path;  // -gp: the bench side
  std::string output_dir = "./output";
  std::string data_mapping;                  // -dm: a YAML of row names, or ""
  std::optional<std::string> cell_mapping;   // -cm: a YAML of cell paths, "" for the bare flag
  std::optional<std::string> api_mapping;    // -am: a YAML of API entries, "" for the bare flag
  std::optional<std::string> layer_mapping;  // -lm: a YAML of class renames, "" for the bare flag
  std::string command;                       // the command line, for the run's log
  bool fuzzy_match = false;                  // -fm: rows paired by the queue walk of §4.3
  bool xlsx = false;                         // --xlsx: compare_result_*.xlsx in place of the CSV
  // -da: on directories, each rank's op checks as compare_result_rank<R>_<ts>.json and the first
  // differing node over the ranks as diff_analyze_<ns>.json, in place of the CSVs (§7.5)
  bool diff_analyze = false;
  int pandas = 3;            // --pandas: the cells msprobe writes under pandas 2.x or 3.x
  int numpy = 2;             // --numpy: those it writes beside numpy 1.x or 2.x
  bool keep_tables = false;  // keep each pair's cells in the result too (Python's DataFrame)
  std::string html;          // --html: also this page of the pairs and their flagged rows, or ""
  std::string hdf5;          // --hdf5: also the result tables in this HDF5 file, or ""
  std::string config;        // --config: tensor mode's post-processing YAML (matmuls), or ""
  // --consistent_check: verl's train-against-infer compare of a PyTorch run under --backend
  // ("fsdp" or "megatron"); ignored in MindSpore's compare, as msprobe's ms_compare ignores it
  bool consistent_check = false;
  std::string verl_backend;  // --backend
  bool quantiles = false;    // --quantiles: tensor mode's error distributions after the columns
  int threads = 0;           // host threads for --quantiles (0 = all)
  // Reduces tensor mode's pairs (--device); null: a cpu backend on every core.
  Backend* backend = nullptr;
  // A bench run compared as it ran (probe_live): its dump.json text, never written (golden_path
  // names it in messages), and its tensors' cells. Null: golden_path is read.
  const std::string* golden_text = nullptr;
  const ProbeLivePairs* live = nullptr;
};

// One pair's result as written: the rank or proc directory ("" for two files), the header and the
// cells.
struct ProbeResultTable {
  std::string pair;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// A written pair's rows by msprobe's Result, for a whole run's summary.
struct ProbePairCounts {
  std::string pair;  // the rank or proc directory ("" for two files)
  int64_t rows = 0, matched = 0, warnings = 0, errors = 0;  // matched: rows with a bench row
  std::string first_error;  // the NPU name of the first row whose Result is error
};

// A pair that wrote no result: the rank or proc directory ("" for two files), why, and whether it
// failed (a file refused or unreadable) rather than found nothing to compare or matched nothing.
struct ProbeUnwritten {
  std::string pair, message;
  bool failed = false;
};

struct ProbeRunResult {
  std::vector<std::string> written;       // the result files, in pair order
  std::vector<std::string> warnings;      // pairs skipped and why, in msprobe's words
  std::string log;                        // OUT/dumpcmp_<ts>.log when there were warnings, else ""
  std::vector<ProbeResultTable> tables;   // with keep_tables, in pair order
  std::vector<ProbePairCounts> counts;    // every pair written (CSV or xlsx), in pair order
  std::vector<ProbeUnwritten> unwritten;  // pairs that wrote no result, in pair order
  bool diff_analyzed = false;             // -da searched the ranks for a first differing node
  std::string diff_analysis;              // and wrote it here ("" when it found none)
};

// Throws Error(kInput) or Error(kUsage) for what stops msprobe's whole run; a pair that fails on
// its own is a warning and the run goes on.
ProbeRunResult run_probe_compare(const ProbeRunOptions& options);

// msprobe's CSV: the header, then rows, '\n' line ends, minimal quoting, split into _part_N files
// above 1,000,000 rows; refused whole when a cell could run as a formula. Returns the files.
std::vector<std::string> write_probe_csv(const std::string& path,
                                         const std::vector<std::string>& header,
                                         const std::vector<std::vector<std::string>>& rows);

}  // namespace dumpcmp
