// docs/msprobe-compare.md §4.2 (exact), §4.4 (-dm).
#include "probe/probe_match.hpp"

#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace dumpcmp {
namespace {

std::string or_na(const std::optional<std::string>& text) { return text ? *text : "N/A"; }

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The key a row is matched by: its name, a backward call renumbered by its order (§4.2 step 2).
std::string compare_key(const ProbeOp& op, const ProbeRow& row) {
  if (op.direction != "backward") return row.name;
  const size_t dot = op.call_direction.rfind('.');
  if (dot == std::string::npos) return row.name;
  std::string head = op.call_direction.substr(0, dot);
  std::string tail = op.call_direction.substr(dot + 1);
  const std::string order = std::to_string(op.backward_call_order);
  if (!is_digits(head) && !is_digits(tail)) return row.name;
  if (is_digits(head)) head = order;
  if (is_digits(tail)) tail = order;
  return op.op_no_number + "." + head + "." + tail + row.suffix;
}

// The NPU row's key: its name through -dm's mapping (not renumbered), else compare_key (§4.4).
std::string npu_key(const ProbeOp& op, const ProbeRow& row, const ProbeDataMapping* mapping) {
  if (mapping == nullptr) return compare_key(op, row);
  const auto hit = mapping->find(row.name);
  return hit == mapping->end() ? row.name : hit->second;
}

bool same_dtype_group(const std::string& a, const std::string& b) {
  static constexpr std::array<std::array<std::string_view, 4>, 2> kGroups = {{
      {"Float16", "Float32", "Float64", "BFloat16"},
      {"torch.float16", "torch.float32", "torch.float64", "torch.bfloat16"},
  }};
  if (a == b) return true;
  for (const auto& group : kGroups) {
    bool has_a = false, has_b = false;
    for (const std::string_view name : group) {
      has_a = has_a || a == name;
      has_b = has_b || b == name;
    }
    if (has_a && has_b) return true;
  }
  return false;
}

// gen_dtype_condition: a pair whose dtypes do not pair is an unmatched row (none under -dm).
ProbeMatch paired(const ProbeOp& op, const ProbeRow& npu, const ProbeRow& bench, bool any_dtype) {
  const bool pairs = any_dtype || same_dtype_group(or_na(npu.dtype), or_na(bench.dtype));
  return {&op, &npu, pairs ? &bench : nullptr};
}

std::vector<ProbeMatch> match_by_key(const ProbeDump& npu, const ProbeDump& bench,
                                     const ProbeDataMapping* mapping) {
  std::unordered_map<std::string, std::vector<const ProbeRow*>> by_key;
  for (const ProbeOp& op : bench.ops) {
    for (const ProbeRow& row : op.rows) by_key[compare_key(op, row)].push_back(&row);
  }
  std::vector<ProbeMatch> out;
  for (const ProbeOp& op : npu.ops) {
    for (const ProbeRow& row : op.rows) {
      const auto hit = by_key.find(npu_key(op, row, mapping));
      if (hit == by_key.end()) {
        out.push_back({&op, &row, nullptr});
        continue;
      }
      for (const ProbeRow* b : hit->second) out.push_back(paired(op, row, *b, mapping != nullptr));
    }
  }
  return out;
}

}  // namespace

std::vector<ProbeMatch> match_probe_rows(const ProbeDump& npu, const ProbeDump& bench,
                                         const ProbeMatching& how) {
  return match_by_key(npu, bench, how.data_mapping);
}

bool has_bench_only_rows(const ProbeDump& npu, const ProbeDump& bench) {
  std::unordered_set<std::string> npu_keys;
  for (const ProbeOp& op : npu.ops)
    for (const ProbeRow& row : op.rows) npu_keys.insert(compare_key(op, row));
  for (const ProbeOp& op : bench.ops)
    for (const ProbeRow& row : op.rows)
      if (npu_keys.count(compare_key(op, row)) == 0) return true;
  return false;
}

}  // namespace dumpcmp
