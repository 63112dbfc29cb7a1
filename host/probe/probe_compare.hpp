#pragma once
// msprobe's compare of two dump.json files in statistics, md5 or tensor mode
// (docs/msprobe-compare.md §3-§6): rows matched by name (backward calls renumbered), the
// statistics' differences or the tensors' metrics, and each op's Result and Err_message, as the
// cells msprobe writes.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_match.hpp"
#include "probe/probe_metrics.hpp"
#include "probe/probe_postprocess.hpp"
#include "probe/probe_result.hpp"

namespace dumpcmp {

// What pandas holds in a result cell, which the CSV does not show but an xlsx keeps.
enum class ProbeCellKind : uint8_t { kText, kNumber, kBool };

// The versions of the Python libraries beside msprobe whose output differs (§9.5): pandas 2 or 3,
// numpy 1 or 2.
struct ProbeFlavor {
  int pandas = 3;
  int numpy = 2;
};

// The warning of a row whose tensors could not be compared, and why.
inline std::string unsupported_row_warning(const std::string& why, const std::string& row) {
  return why + " (row " + row + ": unsupported)";
}

// A bench tensor compared while its run ran (probe_live): the NPU row it was compared with (by its
// data file), and the cells, or why its row is "unsupported" (a warning; empty when compared).
struct ProbeLivePair {
  std::string npu_data_name;
  ProbeMetrics metrics;
  std::string warning;
};
// By the bench row's data file name, which its run never wrote.
using ProbeLivePairs = std::map<std::string, ProbeLivePair>;

// Tensor mode's options: msprobe's --config post-processing of each pair (none: null), and
// dumpcmp's --quantiles columns after msprobe's (probe_quantiles), computed on `threads` host
// threads (0 = all). `live`: the bench side's tensors were compared as its run produced them, and
// their cells are taken from there, no data file read (the others unset).
struct ProbeTensorOptions {
  const ProbePostprocess* postprocess = nullptr;
  bool quantiles = false;
  int threads = 0;
  const ProbeLivePairs* live = nullptr;
};

struct ProbeTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;     // the CSV's cells
  std::vector<std::vector<ProbeCellKind>> kinds;  // each cell's kind, row by row
  std::vector<std::string> warnings;              // tensor mode: data files not read, and why
  std::vector<ProbeMatch> matches;                // the NPU and bench rows of each row
  std::shared_ptr<const void> owner;  // keeps the rows `matches` points to (--consistent_check)
};

// Whether a result column holds numbers (the metrics, the statistics and their differences),
// though a cell of it may be text ("N/A", "unsupported", a percentage).
bool probe_number_column(const std::string& column);

// The mode msprobe picks for the pair (§3); throws Error(kInput) with msprobe's reason.
ProbeMode probe_mode(const ProbeDump& npu, const ProbeDump& bench);

// The result table; empty rows when nothing matched ("Can`t match any op"). `stacks` (the NPU
// side's stack.json) adds NPU_Stack_Info when given. `matching` picks how rows pair (-dm, -fm).
// Tensor mode reads each side's data files from dump_tensor_data beside its dump.json; a file it
// cannot read fails its row (a warning). `flavor` picks the cells msprobe writes beside pandas
// 2.x or 3.x and numpy 1.x or 2.x (docs/msprobe-compare.md §9.5). `backend` reduces the tensor
// pairs, a batch of rows at a time.
ProbeTable compare_probe_dumps(const ProbeDump& npu, const ProbeDump& bench, ProbeMode mode,
                               const std::map<std::string, std::vector<std::string>>* stacks,
                               const ProbeMatching& matching, ProbeFlavor flavor, Backend& backend,
                               const ProbeTensorOptions& tensor = {});

}  // namespace dumpcmp
