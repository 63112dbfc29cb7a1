// The checkers of msprobe's indicator analysis (docs/msprobe-compare.md §6), for each mode.
#include "probe/probe_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <utility>

#include "core/error.hpp"
#include "core/text.hpp"
#include "probe/probe_text.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

enum class Level { kPass, kWarning, kError };

struct Judged {
  ProbeResultRow* row;
  Level level = Level::kPass;
  std::vector<std::string> messages;

  void mark(Level to, const char* message) {
    level = std::max(level, to);
    messages.emplace_back(message);
  }
};

enum class Ignore { kNone, kInputs, kAll };

// utils.str2float: "23.4%" -> 0.234; what float() refuses -> 0.
double str2float(const std::string& text) {
  std::string s = text;
  while (!s.empty() && s.front() == '%') s.erase(s.begin());
  while (!s.empty() && s.back() == '%') s.pop_back();
  const std::optional<double> value = parse_python_float(s);
  return value ? *value / 100 : 0;
}

// ApiData.get_min_or_max_value(NormRelativeErr, is_min=False): the largest percentage.
double max_norm_relative_err(const std::vector<Judged*>& rows) {
  double out = 0.0;
  for (const Judged* j : rows) {
    const std::string& v = j->row->norm_relative_err;
    if (v == "Nan" || v == "N/A" || v.empty() || v.back() != '%') continue;
    out = std::max(out, str2float(v));
  }
  return out;
}

// ApiData.get_min_or_max_value(header): the smallest number among the rows, at most 1.0.
double min_number(const std::vector<Judged*>& rows, std::optional<double> ProbeResultRow::*cell) {
  double out = 1.0;
  for (const Judged* j : rows) {
    const std::optional<double>& v = j->row->*cell;
    if (v) out = std::min(out, *v);
  }
  return out;
}

bool is_inf_or_nan(const ProbeStat* s) {
  if (s == nullptr) return false;
  if (s->kind == ProbeStat::Kind::kFloat) return !std::isfinite(s->number);
  if (s->kind != ProbeStat::Kind::kText) return false;
  const std::string t = lower_ascii(trim(s->text));  // str.strip().lower()
  return t == "inf" || t == "-inf" || t == "nan";
}

// Python's != between two statistics cells.
bool python_differs(const ProbeStat* a, const ProbeStat* b) {
  if (a == nullptr || b == nullptr) return a != b;
  const bool a_text = a->kind == ProbeStat::Kind::kText;
  const bool b_text = b->kind == ProbeStat::Kind::kText;
  if (a_text || b_text) return !(a_text && b_text && a->text == b->text);
  return !(a->number == b->number);
}

bool matched(const ProbeResultRow& r) { return !r.bench_name.empty() && r.bench_name != "N/A"; }

// Python's int() of a text; nullopt where it raises.
std::optional<int64_t> python_int(std::string_view text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  size_t i = t[0] == '-' || t[0] == '+' ? 1 : 0;
  if (i >= t.size()) return std::nullopt;
  std::string digits;
  for (; i < t.size(); ++i) {
    if (t[i] >= '0' && t[i] <= '9') {
      digits += t[i];
    } else if (t[i] != '_' || digits.empty() || i + 1 == t.size() || t[i + 1] == '_') {
      return std::nullopt;
    }
  }
  const int64_t v = std::strtoll(digits.c_str(), nullptr, 10);
  return t[0] == '-' ? -v : v;
}

// VerlShapeErrChecker.squeeze_shape_str: "[1, 217, 1, 896]" -> "[217,896]".
std::string squeezed_shape(const std::string& shape) {
  std::string out;
  bool any = false;
  const std::string inside = strip_brackets(shape);
  for (const std::string_view part : split(inside, ',')) {
    const std::string p = trim(part);
    if (p == "1") continue;
    out += (any ? "," : "") + p;
    any = true;
  }
  return "[" + out + "]";
}

// VerlShapeErrChecker: the shapes squeezed; the gathered rows of FSDP's merged projections are not
// compared; a Megatron NPU shape of three dimensions against a bench shape of another rank is
// compared with its last two merged.
bool verl_shapes_differ(const ProbeResultRow& r, VerlBackend backend) {
  std::string npu = squeezed_shape(r.npu_shape);
  const std::string bench = squeezed_shape(r.bench_shape);
  if (backend == VerlBackend::kMegatron) {
    const std::string npu_inside = strip_brackets(npu), bench_inside = strip_brackets(bench);
    const std::vector<std::string_view> dims = split(npu_inside, ',');
    if (dims.size() == 3 && dims.size() != split(bench_inside, ',').size()) {
      const std::optional<int64_t> d0 = python_int(dims[0]), d1 = python_int(dims[1]),
                                   d2 = python_int(dims[2]);
      if (!d0 || !d1 || !d2) {
        throw Error(ExitCode::kInput, "row " + r.npu_name + ": its shape " + r.npu_shape +
                                          " stops msprobe's verl shape check (int() of a part)");
      }
      npu = "[" + std::to_string(*d0) + "," + std::to_string(*d1 * *d2) + "]";
    }
  }
  return npu != bench;
}

void judge_op(std::vector<Judged>& group, ProbeMode mode, const VerlBackend* verl) {
  const bool verl_tensor = verl != nullptr && mode == ProbeMode::kTensor;
  std::vector<Judged*> inputs, outputs;
  for (Judged& j : group) {
    (j.row->npu_name.find(".output.") != std::string::npos ? outputs : inputs).push_back(&j);
  }
  Ignore ignore = Ignore::kNone;
  if (!inputs.empty()) {
    const std::vector<std::string_view> parts = split(inputs.front()->row->npu_name, '.');
    if (parts.size() >= 2) {
      static constexpr std::string_view kAll[] = {"empty",
                                                  "empty_like",
                                                  "numpy",
                                                  "to",
                                                  "__setitem__",
                                                  "empty_with_format",
                                                  "new_empty_strided",
                                                  "new_empty",
                                                  "empty_strided"};
      static constexpr std::string_view kInputs[] = {"_reduce_scatter_base", "_all_gather_base",
                                                     "all_to_all_single", "batch_isend_irecv"};
      if (std::find(std::begin(kAll), std::end(kAll), parts[1]) != std::end(kAll)) {
        ignore = Ignore::kAll;
      } else if (std::find(std::begin(kInputs), std::end(kInputs), parts[1]) != std::end(kInputs)) {
        ignore = Ignore::kInputs;
      }
    }
  }
  std::vector<Judged*> checked;
  if (ignore == Ignore::kNone) checked = inputs;
  if (ignore != Ignore::kAll) checked.insert(checked.end(), outputs.begin(), outputs.end());

  if (mode == ProbeMode::kMd5) {
    for (Judged* j : checked) {
      const ProbeResultRow& r = *j->row;
      if (r.npu_md5 == r.bench_md5 && !r.md5_missing) continue;
      auto null = [](const std::string& v) { return v == "N/A" || v == "Nan" || v.empty(); };
      if (!r.md5_missing && (null(r.npu_md5) || null(r.bench_md5))) {
        j->mark(Level::kWarning, "warning: The parameter of NPU does not match the bench.");
      } else {
        j->mark(Level::kError, "error: The CRC-32 value of NPU differs from that of the bench.");
      }
    }
    return;
  }
  // InfNanErrChecker
  for (Judged* j : checked) {
    const ProbeResultRow& r = *j->row;
    if (is_inf_or_nan(r.bench_max) || is_inf_or_nan(r.bench_min)) continue;
    if (is_inf_or_nan(r.npu_max) || is_inf_or_nan(r.npu_min)) {
      j->mark(Level::kError,
              "error: There is nan/inf/-inf in the maximum or minimum value of NPU.");
    }
  }
  // OneThousandthErrChecker
  if (mode == ProbeMode::kTensor && ignore == Ignore::kNone && !outputs.empty() &&
      min_number(inputs, &ProbeResultRow::one_thousandth) > 0.9 &&
      min_number(outputs, &ProbeResultRow::one_thousandth) < 0.1) {
    outputs.front()->mark(Level::kError,
                          "error: The input/parameters of One Thousandth Err Ratio > 0.9 while the "
                          "output < 0.6.");
  }
  // RelativeErrChecker
  if (mode == ProbeMode::kStatistics && ignore == Ignore::kNone &&
      std::fabs(max_norm_relative_err(inputs)) < 0.1) {
    for (Judged* j : outputs) {
      if (std::fabs(str2float(j->row->norm_relative_err)) > 0.5) {
        j->mark(Level::kError, "error: The NormRelativeErr of output is greater than 0.5.");
      }
    }
  }
  // RequiresGradErrChecker (not among verl's tensor checkers)
  for (Judged* j : checked) {
    const ProbeResultRow& r = *j->row;
    if (verl_tensor || !matched(r)) continue;
    if (r.npu_requires_grad.empty() || r.bench_requires_grad.empty()) continue;
    if (r.npu_requires_grad != r.bench_requires_grad) {
      j->mark(Level::kError, "error: The Required_Grad of NPU and Bench are inconsistent");
    }
  }
  // ParametersErrChecker
  if (ignore == Ignore::kNone) {
    for (Judged* j : inputs) {
      const ProbeResultRow& r = *j->row;
      if (!matched(r) || r.npu_dtype.empty() || r.bench_dtype.empty()) continue;
      if (r.npu_dtype.find("class") == std::string::npos ||
          r.bench_dtype.find("class") == std::string::npos || r.npu_shape != "[]") {
        continue;
      }
      if (python_differs(r.npu_max, r.bench_max)) {
        j->mark(Level::kError, "error: The scalar parameters of NPU and Bench are inconsistent.");
      }
    }
  }
  // DTypeErrChecker
  for (Judged* j : checked) {
    const ProbeResultRow& r = *j->row;
    if (!matched(r) || r.npu_name == "N/A") continue;
    if (r.bench_name.find("qkv") != std::string::npos ||
        r.bench_name.find("gate_up") != std::string::npos) {
      continue;
    }
    if (r.npu_dtype.empty() || r.bench_dtype.empty()) continue;
    if (r.npu_dtype != r.bench_dtype) {
      j->mark(Level::kError, "error: The dtype of NPU and Bench are inconsistent.");
    }
  }
  // ShapeErrChecker, or VerlShapeErrChecker
  for (Judged* j : checked) {
    const ProbeResultRow& r = *j->row;
    if (!matched(r)) continue;
    if (verl_tensor) {
      if (r.npu_name == "N/A") continue;
      if (*verl == VerlBackend::kFsdp && (r.bench_name.find("qkv") != std::string::npos ||
                                          r.bench_name.find("gate_up") != std::string::npos)) {
        continue;
      }
      if (verl_shapes_differ(r, *verl))
        j->mark(Level::kError, "error: The shape of NPU and Bench are inconsistent.");
      continue;
    }
    if (r.npu_shape != r.bench_shape) {
      j->mark(Level::kError, "error: The shape of NPU and Bench are inconsistent.");
    }
  }
  // CosineWarnChecker
  if (mode == ProbeMode::kTensor && ignore == Ignore::kNone && !outputs.empty()) {
    const double in = min_number(inputs, &ProbeResultRow::cosine);
    if (in > 0.9 && in - min_number(outputs, &ProbeResultRow::cosine) > 0.1) {
      outputs.front()->mark(Level::kWarning,
                            "warning: The input/parameters of Cosine > 0.9, and input/parameters "
                            "- output > 0.1");
    }
  }
  // RelativeWarnChecker
  if (mode == ProbeMode::kStatistics && ignore == Ignore::kNone && !outputs.empty()) {
    const double in = std::fabs(max_norm_relative_err(inputs));
    const double out = std::fabs(max_norm_relative_err(outputs));
    if (in == 0 ? out > 0.1 : out / in > 10) {
      outputs.front()->mark(
          Level::kWarning, "warning: The norm relative error of output is 10 times that of input.");
    }
  }
}

}  // namespace

void judge_probe_rows(std::vector<ProbeResultRow>& rows, ProbeMode mode, const VerlBackend* verl) {
  // divide_result_df: each op's rows, the ops in the order they first appear
  std::vector<std::vector<size_t>> ops;
  std::unordered_map<std::string, size_t> op_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto found = op_of.emplace(rows[i].op_key, ops.size());
    if (found.second) ops.emplace_back();
    ops[found.first->second].push_back(i);
  }
  std::vector<std::pair<std::string, std::string>> cells;  // in the order the ops were judged
  cells.reserve(rows.size());
  for (const std::vector<size_t>& op : ops) {
    std::vector<Judged> group;
    for (size_t i : op) group.push_back({&rows[i], Level::kPass, {}});
    judge_op(group, mode, verl);
    for (Judged& j : group) {
      static constexpr const char* kLevels[] = {"pass", "warning", "error"};
      std::string text = "[";
      for (size_t k = 0; k < j.messages.size(); ++k) {
        if (k) text += ", ";
        text += "\"" + j.messages[k] + "\"";
      }
      cells.emplace_back(kLevels[static_cast<int>(j.level)], text + "]");
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].result = std::move(cells[i].first);
    rows[i].err_message = std::move(cells[i].second);
  }
}

const char* worst_probe_result(int64_t errors, int64_t warnings) {
  if (errors > 0) return "error";
  if (warnings > 0) return "warning";
  return "pass";
}

}  // namespace dumpcmp
