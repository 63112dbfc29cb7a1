// docs/msprobe-compare.md §4.8: msprobe's consistent_match and the frames around it, row for row.
#include "probe/probe_verl_match.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "probe/probe_text.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

const std::string kNotAvailable = "N/A";

// ParseData.should_parse_op: a training dump is read from a forward of the embedding on and not
// from the model's own backward on (the backward passes verl's inference has none of). msprobe
// tests the embedding's class with `in` against a string, so any part of that name starts it.
bool parse_flag_after(bool flag, const std::string& key, VerlBackend backend) {
  const std::vector<std::string_view> parts = split(key, '.');
  if (parts.size() < 3) return false;
  const std::string_view module = parts[parts.size() - 3], direction = parts[parts.size() - 2];
  static const std::vector<std::string_view> kFsdpStop = {"Qwen2Model", "Qwen3Model",
                                                          "Qwen3MoeModel"};
  static const std::vector<std::string_view> kMegatronStop = {"GPTModel"};
  const std::vector<std::string_view>& stop =
      backend == VerlBackend::kFsdp ? kFsdpStop : kMegatronStop;
  if (direction == "backward" && std::find(stop.begin(), stop.end(), module) != stop.end())
    return false;
  const std::string_view begin =
      backend == VerlBackend::kFsdp ? "Embedding" : "VocabParallelEmbedding";
  if (direction == "forward" && begin.find(module) != std::string_view::npos) return true;
  return flag;
}

// The text after the last match of `pattern` (Python's re.split(pattern, text)[-1]).
std::string after_last_match(const std::string& text, const std::regex& pattern) {
  size_t end = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
       it != std::sregex_iterator(); ++it) {
    end = static_cast<size_t>(it->position(0) + it->length(0));
  }
  return text.substr(end);
}

// re.sub of a pattern anchored at the start: the text without its first match.
std::string without_prefix(const std::string& text, const std::regex& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, pattern) || m.position(0) != 0) return text;
  return text.substr(static_cast<size_t>(m.length(0)));
}

// ProcessDf.get_op_layer and get_op_module_and_class for one op name without its call number: its
// layer and its module path (the class cut off).
struct ModuleKey {
  int64_t layer = -1;
  std::string module;
};

ModuleKey module_key(const std::string& op_no_number, bool train, VerlBackend backend) {
  static const std::regex kLayer(R"(layers\.(\d+))");
  static const std::regex kLayerPrefix(R"(^.*layers\.\d+\.)");
  static const std::regex kFsdpWrapper("_fsdp_wrapped_module.");
  static const std::regex kMegatronModules(R"(^.*module.module\.)");
  static const std::regex kInferModel(R"(^Module.model\.)");
  ModuleKey key;
  std::smatch m;
  if (std::regex_search(op_no_number, m, kLayer)) key.layer = std::stoll(m[1].str());

  std::string module_class;
  if (train) {
    module_class =
        after_last_match(op_no_number, backend == VerlBackend::kFsdp ? kFsdpWrapper : kLayerPrefix);
    module_class = without_prefix(module_class, kMegatronModules);
  } else {
    module_class = without_prefix(without_prefix(op_no_number, kLayerPrefix), kInferModel);
  }
  const size_t dot = module_class.rfind('.');
  key.module = dot == std::string::npos ? "" : module_class.substr(0, dot);
  return key;
}

// ProcessDf.process_module_mapping: the name a module is matched by. FSDP's inference side keeps
// the last part of its path; otherwise the path after its first part, renamed through the
// backend's table, which msprobe applies to one-part paths too unless no path of the dump has
// two parts (`any_long`).
std::string module_mapping(const std::string& module, bool train, VerlBackend backend,
                           bool any_long) {
  if (!train && backend == VerlBackend::kFsdp) {
    const size_t last = module.rfind('.');
    return last == std::string::npos ? module : module.substr(last + 1);
  }
  if (!any_long) return module;
  static const std::map<std::string, std::string> kFsdpMap = {{"q_proj", "qkv_proj"},
                                                              {"k_proj", "qkv_proj"},
                                                              {"v_proj", "qkv_proj"},
                                                              {"gate_proj", "gate_up_proj"},
                                                              {"up_proj", "gate_up_proj"}};
  static const std::map<std::string, std::string> kMegatronMap = {
      {"word_embeddings", "embed_tokens"}, {"self_attention", "self_attn"},
      {"linear_qkv", "qkv_proj"},          {"q_layernorm", "q_norm"},
      {"k_layernorm", "k_norm"},           {"core_attention", "attn"},
      {"linear_proj", "o_proj"},           {"router", "gate"},
      {"linear_fc1", "gate_up_proj"},      {"linear_fc2", "down_proj"}};
  const std::map<std::string, std::string>& map =
      backend == VerlBackend::kFsdp ? kFsdpMap : kMegatronMap;
  const size_t first = module.find('.');
  const std::string last = first == std::string::npos ? module : module.substr(first + 1);
  const auto mapped = map.find(last);
  return mapped == map.end() ? last : mapped->second;
}

// One dump's rows as the merge sees them.
struct KeyedRow {
  const ProbeOp* op;
  const ProbeRow* row;
  bool first_of_op;
  std::tuple<std::string, std::string, int64_t, std::string> key;  // call, suffix, layer, module
  size_t position;  // among the dump's rows read (npu_rank / bench_rank)
};

std::vector<KeyedRow> keyed_rows(const ProbeDump& dump, bool train, VerlBackend backend) {
  std::unordered_set<std::string> read;  // the training dump's op keys msprobe reads
  std::unordered_map<std::string, int> forward_order;
  if (train) {
    bool flag = true;
    std::unordered_map<std::string, int> forward_count;
    for (const std::string& key : dump.op_keys) {
      flag = parse_flag_after(flag, key, backend);
      if (!flag) continue;
      read.insert(key);
      ProbeOp parts;
      if (probe_name_parts(key, dump.debug_file, parts) && parts.direction == "forward")
        forward_order[key] = forward_count[parts.op_no_number]++;
    }
  }
  std::vector<const ProbeOp*> ops;
  std::unordered_map<std::string, ModuleKey> modules;
  bool any_long = false;  // a module path of two parts or more
  for (const ProbeOp& op : dump.ops) {
    if (train && read.count(op.key) == 0) continue;
    ops.push_back(&op);
    auto module = modules.find(op.op_no_number);
    if (module == modules.end())
      module = modules.emplace(op.op_no_number, module_key(op.op_no_number, train, backend)).first;
    any_long = any_long || module->second.module.find('.') != std::string::npos;
  }
  std::vector<KeyedRow> rows;
  for (const ProbeOp* op : ops) {
    const ModuleKey& module = modules[op->op_no_number];
    const std::string mapping = module_mapping(module.module, train, backend, any_long);
    std::string call = op->call_direction;
    // ProcessDf.update_forward_call: a forward call numbered by its count among the rows read
    if (train && op->direction == "forward") call = renumbered_call(call, forward_order[op->key]);
    for (const ProbeRow& row : op->rows) {
      rows.push_back({op,
                      &row,
                      &row == &op->rows.front(),
                      {call, row.suffix, module.layer, mapping},
                      rows.size()});
    }
  }
  return rows;
}

// A statistic as msprobe reads it back from str() of the summary list: numbers as floats, the
// rest as text (a bool's True/False, a string without its quotes). The dump's reader holds a
// float NaN as the text "Nan" (probe_dump), which is a float here.
ProbeStat reread_stat(const ProbeStat& s) {
  ProbeStat out;
  if (s.kind == ProbeStat::Kind::kText && s.text == "Nan") {
    out.kind = ProbeStat::Kind::kFloat;
    out.number = NAN;
    out.text = "Nan";
    return out;
  }
  if (s.kind == ProbeStat::Kind::kFloat || s.kind == ProbeStat::Kind::kInt) {
    out.kind = ProbeStat::Kind::kFloat;
    out.number = s.kind == ProbeStat::Kind::kInt ? *parse_python_float(s.text) : s.number;
    out.text = std::isnan(out.number) ? "Nan" : python_float_repr(out.number);
    return out;
  }
  out.kind = ProbeStat::Kind::kText;
  out.text = s.text;
  if (lower_ascii(out.text) == "nan") out.text = "Nan";  // set_summary
  return out;
}

// str() of a statistic read back, as the joined Mean and Norm hold it.
std::string stat_text(const ProbeStat& s) {
  if (s.kind != ProbeStat::Kind::kFloat) return s.text;
  return std::isnan(s.number) ? "nan" : python_float_repr(s.number);
}

// CreateTable.parse_statistic_str of several rows' summaries: the largest Max and the smallest Min
// among the floats (Python's max and min, NaN kept where it comes first), Mean and Norm joined.
std::array<ProbeStat, 4> gathered_stats(const std::vector<const ProbeRow*>& rows) {
  std::array<ProbeStat, 4> out;
  for (int k = 0; k < 2; ++k) {
    std::optional<double> best;
    for (const ProbeRow* row : rows) {
      const ProbeStat s = reread_stat(row->stats[k]);
      if (s.kind != ProbeStat::Kind::kFloat) continue;
      if (!best || (k == 0 ? s.number > *best : s.number < *best)) best = s.number;
    }
    if (best) {
      out[k].kind = ProbeStat::Kind::kFloat;
      out[k].number = *best;
      out[k].text = std::isnan(*best) ? "Nan" : python_float_repr(*best);
    } else {
      out[k].text = "None";
    }
  }
  for (int k = 2; k < 4; ++k) {
    out[k].kind = ProbeStat::Kind::kText;
    for (size_t i = 0; i < rows.size(); ++i)
      out[k].text += (i ? ";" : "") + stat_text(reread_stat(rows[i]->stats[k]));
  }
  return out;
}

// One side of a result row: the rows gathered into one (absent ones read "N/A"), or the one row.
ProbeRow side_row(const std::vector<const KeyedRow*>& rows, const std::string& name_separator) {
  ProbeRow out;
  const ProbeRow& first = *rows.front()->row;
  out.requires_grad = first.requires_grad;
  out.state = first.state;
  out.suffix = first.suffix;
  out.data_name.clear();
  std::vector<const ProbeRow*> parts;
  std::string dtype, shape;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProbeRow& r = *rows[i]->row;
    parts.push_back(&r);
    out.name += (i ? name_separator : "") + r.name;
    dtype += (i ? ";" : "") + r.dtype.value_or(kNotAvailable);
    shape += (i ? ";" : "") + r.shape.value_or(kNotAvailable);
    out.data_name += (i ? ";" : "") + r.data_name;
  }
  out.dtype = dtype;
  out.shape = shape;
  if (rows.size() == 1) {
    for (size_t k = 0; k < 4; ++k) out.stats[k] = reread_stat(first.stats[k]);
  } else {
    out.stats = gathered_stats(parts);
  }
  return out;
}

// One row of the merged frame: an NPU row, a bench row, or both.
struct Merged {
  const KeyedRow* npu = nullptr;
  const KeyedRow* bench = nullptr;
};

// pd.merge(how='outer') on the four keys: the keys in sorted order, each key's NPU rows in order
// with each of its bench rows in order, or alone.
std::vector<Merged> outer_merge(const std::vector<KeyedRow>& npu,
                                const std::vector<KeyedRow>& bench) {
  using Key = decltype(KeyedRow::key);
  std::map<Key, std::pair<std::vector<const KeyedRow*>, std::vector<const KeyedRow*>>> by_key;
  for (const KeyedRow& r : npu) by_key[r.key].first.push_back(&r);
  for (const KeyedRow& r : bench) by_key[r.key].second.push_back(&r);
  std::vector<Merged> merged;
  for (const auto& [key, sides] : by_key) {
    const auto& [left, right] = sides;
    if (left.empty()) {
      for (const KeyedRow* r : right) merged.push_back({nullptr, r});
    } else if (right.empty()) {
      for (const KeyedRow* l : left) merged.push_back({l, nullptr});
    } else {
      for (const KeyedRow* l : left) {
        for (const KeyedRow* r : right) merged.push_back({l, r});
      }
    }
  }
  return merged;
}

// A result row before it is made: the gathered side's rows and the other side's one row.
struct Group {
  std::vector<const KeyedRow*> gathered;  // the FSDP NPU side / the Megatron bench side
  const KeyedRow* single = nullptr;       // the other side (null: N/A)
  bool gathered_absent = false;           // the gathered side is N/A
  double npu_pos = NAN, bench_pos = NAN;
};

// Match.dual_monotonic_sort: an order in which both sides' positions rise (N/A positions go
// anywhere); where they cannot, msprobe stops. Ties keep the frame's order (numpy's quicksort
// leaves them in an order of its own).
std::vector<size_t> dual_monotonic_order(const std::vector<Group>& groups,
                                         const std::string& npu_path) {
  const size_t n = groups.size();
  auto sorted_by = [&](double Group::*pos) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const double x = groups[a].*pos, y = groups[b].*pos;
      if (std::isnan(x)) return false;
      return std::isnan(y) || x < y;
    });
    return order;
  };
  const std::vector<size_t> order1 = sorted_by(&Group::npu_pos);
  const std::vector<size_t> order2 = sorted_by(&Group::bench_pos);
  std::vector<bool> used(n, false);
  std::vector<size_t> result;
  size_t i = 0, j = 0;
  while (result.size() < n) {
    while (i < n && used[order1[i]]) ++i;
    while (j < n && used[order2[j]]) ++j;
    const std::optional<size_t> min1 = i < n ? std::optional<size_t>(order1[i]) : std::nullopt;
    const std::optional<size_t> min2 = j < n ? std::optional<size_t>(order2[j]) : std::nullopt;
    std::optional<size_t> picked;
    for (const std::optional<size_t>& k : {min1, min2}) {
      if (!k || used[*k]) continue;
      const Group& g = groups[*k];
      if (!std::isnan(g.npu_pos) && k != min1) continue;
      if (!std::isnan(g.bench_pos) && k != min2) continue;
      picked = k;
      break;
    }
    if (!picked) {
      throw format_error(npu_path,
                         "Conflicting comparison data: the two columns cannot be monotonically "
                         "increasing at the same time (--consistent_check: the training and "
                         "inference rows are paired in orders that contradict each other)");
    }
    used[*picked] = true;
    result.push_back(*picked);
  }
  return result;
}

}  // namespace

ProbeConsistentRows consistent_rows(const ProbeDump& npu, const ProbeDump& bench,
                                    const ProbeConsistentCheck& how) {
  const bool fsdp = how.backend == VerlBackend::kFsdp;
  const std::vector<KeyedRow> npu_rows = keyed_rows(npu, true, how.backend);
  const std::vector<KeyedRow> bench_rows = keyed_rows(bench, false, how.backend);
  const std::vector<Merged> merged = outer_merge(npu_rows, bench_rows);

  // FSDP gathers the NPU rows that meet one bench row (q, k and v meet qkv), Megatron the bench
  // rows that meet one NPU row; the rows the other side lacks stay alone, after the groups.
  std::vector<Group> groups, alone;
  std::unordered_map<const KeyedRow*, size_t> group_of;
  for (const Merged& m : merged) {
    const KeyedRow* gathered = fsdp ? m.npu : m.bench;
    const KeyedRow* single = fsdp ? m.bench : m.npu;
    if (single == nullptr) {
      Group g;
      g.gathered.push_back(gathered);
      alone.push_back(g);
      continue;
    }
    const auto found = group_of.emplace(single, groups.size());
    if (found.second) {
      groups.emplace_back();
      groups.back().single = single;
    }
    Group& g = groups[found.first->second];
    if (gathered == nullptr) {
      g.gathered_absent = true;
    } else {
      g.gathered.push_back(gathered);
    }
  }
  groups.insert(groups.end(), alone.begin(), alone.end());
  for (Group& g : groups) {
    const double gathered_pos =
        g.gathered_absent ? NAN : static_cast<double>(g.gathered.front()->position);
    const double single_pos = g.single ? static_cast<double>(g.single->position) : NAN;
    g.npu_pos = fsdp ? gathered_pos : single_pos;
    g.bench_pos = fsdp ? single_pos : gathered_pos;
  }
  const std::vector<size_t> order = dual_monotonic_order(groups, npu.path);

  // fill_state_api_origin_name: a row without an NPU side takes the NPU op that its bench op
  // meets elsewhere (the last such pair), else the bench op's own name.
  std::unordered_map<std::string, std::string> npu_op_of_bench_op;
  for (size_t k : order) {
    const Group& g = groups[k];
    const KeyedRow* n = fsdp ? (g.gathered_absent ? nullptr : g.gathered.front()) : g.single;
    const KeyedRow* b = fsdp ? g.single : (g.gathered_absent ? nullptr : g.gathered.front());
    if (n != nullptr && b != nullptr) npu_op_of_bench_op[b->op->key] = n->op->key;
  }

  ProbeConsistentRows out;
  const std::string separator = how.xlsx ? ";\n" : ";  ";
  for (size_t k : order) {
    const Group& g = groups[k];
    const std::vector<const KeyedRow*> single =
        g.single ? std::vector<const KeyedRow*>{g.single} : std::vector<const KeyedRow*>{};
    const std::vector<const KeyedRow*>& npu_side = fsdp ? g.gathered : single;
    const std::vector<const KeyedRow*>& bench_side = fsdp ? single : g.gathered;
    const ProbeRow* npu_row = nullptr;
    const ProbeRow* bench_row = nullptr;
    if (!npu_side.empty() && !(fsdp && g.gathered_absent)) {
      out.rows.push_back(side_row(npu_side, separator));
      npu_row = &out.rows.back();
    }
    if (!bench_side.empty() && !(!fsdp && g.gathered_absent)) {
      out.rows.push_back(side_row(bench_side, separator));
      bench_row = &out.rows.back();
    }
    ProbeOp op;
    if (npu_row != nullptr) {
      op.key = npu_side.front()->op->key;
    } else {
      const std::string& bench_op = bench_side.front()->op->key;
      const auto mapped = npu_op_of_bench_op.find(bench_op);
      op.key = mapped == npu_op_of_bench_op.end() ? bench_op : mapped->second;
    }
    out.ops.push_back(std::move(op));
    out.matches.push_back({&out.ops.back(), npu_row, bench_row});
    out.stack_row.push_back(npu_row != nullptr && npu_side.front()->first_of_op);
  }
  return out;
}

}  // namespace dumpcmp
