#pragma once
// msprobe's Result and Err_message (docs/msprobe-compare.md §6): the rows of each op judged
// together by the checkers of the mode, in msprobe's order.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/probe_dump.hpp"
#include "probe/probe_verl_match.hpp"

namespace dumpcmp {

enum class ProbeMode { kStatistics, kMd5, kTensor };

// What the checkers read of one result row; result and err_message are what they write.
struct ProbeResultRow {
  std::string op_key;  // rows of one op are judged together
  std::string npu_name, bench_name, npu_dtype, bench_dtype, npu_shape, bench_shape;
  std::string npu_requires_grad, bench_requires_grad;
  const ProbeStat* npu_max = nullptr;  // nullptr: "N/A"
  const ProbeStat* npu_min = nullptr;
  const ProbeStat* bench_max = nullptr;
  const ProbeStat* bench_min = nullptr;
  std::string norm_relative_err;         // statistics mode: "0.01%", "0", "inf", "N/A", ...
  std::optional<double> cosine;          // tensor mode, when the cell is a number
  std::optional<double> one_thousandth;  // tensor mode: One Thousandth Err Ratio
  std::string npu_md5, bench_md5;
  bool md5_missing = false;  // -fm in md5 mode: both MD5 cells NaN, which never equal (§4.3)
  std::string result;        // "pass", "warning", "error"
  std::string err_message;   // json.dumps of the messages: "[]", "[\"error: ...\"]"
};

// Sets result and err_message of every row. The rows of each op (op_key) are judged together, the
// ops in the order they first appear; like msprobe, the judged rows are then written back one op
// after another from the top, so an op whose rows are not consecutive (--consistent_check) hands
// its cells to the rows between. `verl` (--consistent_check's backend, or null) picks verl's
// tensor-mode checkers: no requires_grad check, shapes compared squeezed (§6).
void judge_probe_rows(std::vector<ProbeResultRow>& rows, ProbeMode mode,
                      const VerlBackend* verl = nullptr);

// The worst Result among rows counted so (the pages' CSS class): "error", "warning" or "pass".
const char* worst_probe_result(int64_t errors, int64_t warnings);

}  // namespace dumpcmp
