// docs/msprobe-compare.md §4.2 (exact), §4.4 (-dm), §4.5 (-cm), §4.6 (-am).
#include "probe/probe_match.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "probe/probe_ms_to_pt.hpp"
#include "probe/probe_text.hpp"

namespace dumpcmp {
namespace {

std::string or_na(const std::optional<std::string>& text) { return text ? *text : "N/A"; }

// Python's str.replace(old, new, 1).
std::string replace_first(std::string s, std::string_view old, std::string_view with) {
  const size_t at = s.find(old);
  if (at != std::string::npos) s.replace(at, old.size(), with);
  return s;
}

// The key a row is matched by: its name, a backward call renumbered by its order (§4.2 step 2;
// not under -fm).
std::string compare_key(const ProbeOp& op, const ProbeRow& row, bool renumber = true) {
  if (!renumber || op.direction != "backward") return row.name;
  const std::string call = renumbered_call(op.call_direction, op.backward_call_order);
  if (call == op.call_direction) return row.name;
  return op.op_no_number + "." + call + row.suffix;
}

// The API of a row name: its first two components ("Functional.conv2d").
std::string api_of(const std::string& name) {
  const size_t first = name.find('.');
  if (first == std::string::npos) return name;
  return name.substr(0, name.find('.', first + 1));
}

// process_internal_api_mapping: Mint and MintFunctional names as torch's, then the built-in table.
std::string internal_api_key(const std::string& name) {
  const std::string api = api_of(name);
  const std::string_view family = std::string_view(api).substr(0, api.find('.'));
  if (family == "Mint") return replace_all(name, "Mint", "Torch");
  if (family == "MintFunctional") return replace_all(name, "MintFunctional", "Functional");
  if (const auto pt = ms_to_pt_api(api)) return replace_all(name, api, std::string(*pt));
  return name;
}

// modify_compare_data_with_user_mapping: the user's entries override the keys of their API's rows,
// for APIs both sides have; a row whose index is not listed gets a key nothing meets.
void apply_user_api_mapping(const ProbeDump& npu, const ProbeDump& bench,
                            const ProbeApiMapping& mapping, std::vector<std::string>& keys) {
  std::unordered_set<std::string> bench_apis;
  for (const ProbeOp& op : bench.ops)
    for (const ProbeRow& row : op.rows) bench_apis.insert(api_of(row.name));
  std::unordered_map<std::string, std::vector<size_t>> npu_rows_by_api;
  std::vector<std::pair<const ProbeOp*, const ProbeRow*>> rows;
  for (const ProbeOp& op : npu.ops) {
    for (const ProbeRow& row : op.rows) {
      npu_rows_by_api[api_of(row.name)].push_back(rows.size());
      rows.emplace_back(&op, &row);
    }
  }
  static constexpr std::array<std::string_view, 4> kPatterns = {".input.", ".parameters.",
                                                                ".output.", ".parameters_grad."};
  for (const ProbeApiMappingEntry& entry : mapping.entries) {
    const auto npu_rows = npu_rows_by_api.find(entry.ms_api);
    if (npu_rows == npu_rows_by_api.end() || bench_apis.count(entry.pt_api) == 0) continue;
    for (const size_t i : npu_rows->second) {
      const auto [op, row] = rows[i];
      const std::string name = replace_first(row->name, entry.ms_api, entry.pt_api);
      if (row->state == ProbeState::kDebug) {  // msprobe stops on a state it does not expect
        throw Error(ExitCode::kInput,
                    "Excepted op_name: " + name + " (a debug.json variable under an -am entry)");
      }
      const size_t term = static_cast<size_t>(row->state);
      const std::string_view pattern = kPatterns[term];
      std::string head = replace_first(op->key, entry.ms_api, entry.pt_api);
      head.append(pattern);
      const std::string_view index = name.compare(0, head.size(), head) == 0
                                         ? std::string_view(name).substr(head.size())
                                         : std::string_view(name);
      keys[i] = name + "abandoned";
      const std::vector<std::string>& ms = entry.ms_indices[term];
      for (size_t k = 0; k < ms.size(); ++k) {
        if (index != ms[k]) continue;
        keys[i] = replace_all(name, std::string(pattern) + ms[k],
                              std::string(pattern) + entry.pt_indices[term][k]);
      }
    }
  }
}

// process_cell_mapping: a forward, backward or parameters_grad row's name with its first Cell as
// Module, and its cell path through the mapping: a whole-path entry, else every entry as a
// substring replacement in file order.
std::string cell_key(const std::string& name, const ProbeCellMapping& mapping) {
  if (!has_component(name, "parameters_grad") && name.find(".forward.") == std::string::npos &&
      name.find(".backward.") == std::string::npos) {
    return "N/A";
  }
  std::string key = replace_first(name, "Cell", "Module");
  if (mapping.empty()) return key;
  const size_t first_dot = key.find('.');
  const std::string rest = first_dot == std::string::npos ? key : key.substr(first_dot + 1);
  size_t end = rest.size();
  for (const std::string_view split : {".forward.", ".backward.", ".parameters_grad."})
    end = std::min(end, rest.find(split));
  const std::string cell = rest.substr(0, end);
  std::string mapped = cell;
  bool whole = false;
  for (const auto& [target, golden] : mapping) {
    if (target == cell) {
      mapped = golden;
      whole = true;
    }
  }
  if (!whole) {
    for (const auto& [target, golden] : mapping) mapped = replace_first(mapped, target, golden);
  }
  return mapped == cell ? key : replace_first(key, cell, mapped);
}

// The NPU rows' keys, in NPU row order (§4.2 step 3): -am's, else -cm's, else -dm's (names not
// renumbered), else the renumbered name.
std::vector<std::string> npu_keys(const ProbeDump& npu, const ProbeDump& bench,
                                  const ProbeMatching& how) {
  std::vector<std::string> keys;
  for (const ProbeOp& op : npu.ops) {
    for (const ProbeRow& row : op.rows) {
      if (how.api_mapping != nullptr) {
        keys.push_back(internal_api_key(row.name));
      } else if (how.cell_mapping != nullptr) {
        keys.push_back(cell_key(row.name, *how.cell_mapping));
      } else if (how.data_mapping != nullptr) {
        const auto hit = how.data_mapping->find(row.name);
        keys.push_back(hit == how.data_mapping->end() ? row.name : hit->second);
      } else {
        keys.push_back(compare_key(op, row, !how.fuzzy));
      }
    }
  }
  if (how.api_mapping != nullptr) apply_user_api_mapping(npu, bench, *how.api_mapping, keys);
  return keys;
}

// cross_dtype_mapping: across frameworks a dtype is compared by its kind.
std::string_view dtype_kind(std::string_view dtype) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 30> kKinds = {{
      {"Int8", "int"},           {"torch.int8", "int"},
      {"UInt8", "int"},          {"torch.uint8", "int"},
      {"Int16", "int"},          {"torch.int16", "int"},
      {"UInt16", "int"},         {"torch.uint16", "int"},
      {"Int32", "int"},          {"torch.int32", "int"},
      {"UInt32", "int"},         {"torch.uint32", "int"},
      {"Int64", "int"},          {"torch.int64", "int"},
      {"UInt64", "int"},         {"torch.uint64", "int"},
      {"Float16", "float"},      {"torch.float16", "float"},
      {"Float32", "float"},      {"torch.float32", "float"},
      {"Float64", "float"},      {"torch.float64", "float"},
      {"BFloat16", "float"},     {"torch.bfloat16", "float"},
      {"Bool", "bool"},          {"torch.bool", "bool"},
      {"Complex64", "complex"},  {"torch.complex64", "complex"},
      {"Complex128", "complex"}, {"torch.complex128", "complex"},
  }};
  for (const auto& [name, kind] : kKinds) {
    if (name == dtype) return kind;
  }
  return dtype;
}

bool same_dtype_group(std::string_view a, std::string_view b) {
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

// rename_api: the name split at its first "forward" (else "backward"), the part before it without
// its last two '.' pieces, then the direction and the part up to a second occurrence.
std::string fuzzy_name(const std::string& name) {
  std::string direction = "forward";
  size_t at = name.find(direction);
  if (at == std::string::npos) {
    direction = "backward";
    at = name.find(direction);
    if (at == std::string::npos) return name;
  }
  const size_t after = at + direction.size();
  const size_t next = name.find(direction, after);
  const std::string in_out = name.substr(after, next == std::string::npos ? next : next - after);
  std::string head = name.substr(0, at);
  for (int cut = 0; cut < 2; ++cut) {
    const size_t dot = head.rfind('.');
    if (dot == std::string::npos) break;
    head.resize(dot);
  }
  return head + "." + direction + in_out;
}

// gen_dtype_condition: a pair whose dtypes do not pair is an unmatched row (none under -dm).
ProbeMatch paired(const ProbeOp& op, const ProbeRow& npu, const ProbeRow& bench,
                  const ProbeMatching& how) {
  bool pairs = how.data_mapping != nullptr;
  if (!pairs) {
    const std::string a = or_na(npu.dtype), b = or_na(bench.dtype);
    pairs = how.cross_framework ? same_dtype_group(dtype_kind(a), dtype_kind(b))
                                : same_dtype_group(a, b);
  }
  return {&op, &npu, pairs ? &bench : nullptr};
}

}  // namespace

std::vector<ProbeMatch> match_probe_rows(const ProbeDump& npu, const ProbeDump& bench,
                                         const ProbeMatching& how) {
  std::unordered_map<std::string, std::vector<const ProbeRow*>> by_key;
  for (const ProbeOp& op : bench.ops) {
    for (const ProbeRow& row : op.rows) by_key[compare_key(op, row, !how.fuzzy)].push_back(&row);
  }
  const std::vector<std::string> keys = npu_keys(npu, bench, how);
  std::vector<ProbeMatch> out;
  size_t i = 0;
  for (const ProbeOp& op : npu.ops) {
    for (const ProbeRow& row : op.rows) {
      const auto hit = by_key.find(keys[i++]);
      if (hit == by_key.end()) {
        out.push_back({&op, &row, nullptr});
        continue;
      }
      for (const ProbeRow* b : hit->second) out.push_back(paired(op, row, *b, how));
    }
  }
  return out;
}

std::vector<ProbeMatch> fuzzy_walk(const ProbeDump& npu, const ProbeDump& bench,
                                   const ProbeMatching& how) {
  struct Item {
    const ProbeOp* op;
    const ProbeRow* row;
    std::string name;  // the key without its call number
  };
  const std::vector<std::string> keys = npu_keys(npu, bench, how);
  std::vector<Item> npu_rows, bench_rows;
  size_t k = 0;
  for (const ProbeOp& op : npu.ops)
    for (const ProbeRow& row : op.rows) npu_rows.push_back({&op, &row, fuzzy_name(keys[k++])});
  for (const ProbeOp& op : bench.ops)
    for (const ProbeRow& row : op.rows) bench_rows.push_back({&op, &row, fuzzy_name(row.name)});

  std::vector<ProbeMatch> out;
  std::vector<const Item*> npu_queue, bench_queue;
  const auto unmatched = [&](const Item* item) { out.push_back({item->op, item->row, nullptr}); };
  for (size_t i = 0; i < std::max(npu_rows.size(), bench_rows.size()); ++i) {
    if (i < npu_rows.size()) npu_queue.push_back(&npu_rows[i]);
    if (i < bench_rows.size()) bench_queue.push_back(&bench_rows[i]);
    if (npu_queue.empty() != bench_queue.empty()) break;
    if (npu_queue.empty()) continue;
    // match_op: the newest NPU row against the older bench rows, then the newest bench row; then
    // the older NPU rows against the newest bench row.
    size_t npu_hit = npu_queue.size(), bench_hit = bench_queue.size();
    const Item* newest_npu = npu_queue.back();
    for (size_t b = 0; b < bench_queue.size() && npu_hit == npu_queue.size(); ++b) {
      if (newest_npu->name == bench_queue[b]->name) npu_hit = npu_queue.size() - 1, bench_hit = b;
    }
    for (size_t n = 0; n + 1 < npu_queue.size() && npu_hit == npu_queue.size(); ++n) {
      if (npu_queue[n]->name == bench_queue.back()->name)
        npu_hit = n, bench_hit = bench_queue.size() - 1;
    }
    if (npu_hit == npu_queue.size()) continue;
    for (size_t n = 0; n < npu_hit; ++n) unmatched(npu_queue[n]);
    out.push_back({npu_queue[npu_hit]->op, npu_queue[npu_hit]->row, bench_queue[bench_hit]->row});
    npu_queue.erase(npu_queue.begin(), npu_queue.begin() + static_cast<long>(npu_hit) + 1);
    bench_queue.erase(bench_queue.begin(), bench_queue.begin() + static_cast<long>(bench_hit) + 1);
  }
  for (const Item* item : npu_queue) unmatched(item);
  return out;
}

ProbeMatch dtype_checked(const ProbeMatch& match, const ProbeMatching& how) {
  if (match.bench == nullptr) return match;
  return paired(*match.op, *match.npu, *match.bench, how);
}

bool has_bench_only_rows(const ProbeDump& npu, const ProbeDump& bench, const ProbeMatching& how) {
  if (how.data_mapping != nullptr) return false;
  if (how.fuzzy) return false;  // the walk keeps NPU rows only
  const std::vector<std::string> keys = npu_keys(npu, bench, how);
  const std::unordered_set<std::string> npu_keys_set(keys.begin(), keys.end());
  for (const ProbeOp& op : bench.ops)
    for (const ProbeRow& row : op.rows)
      if (npu_keys_set.count(compare_key(op, row)) == 0) return true;
  return false;
}

}  // namespace dumpcmp
