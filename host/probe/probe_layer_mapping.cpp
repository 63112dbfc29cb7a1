// docs/msprobe-compare.md §4.7: msprobe's layer_mapping (DumpDataItem, postprocess_pass, LayerTrie,
// convert_scope, generate_data_mapping), as msprobe 26.2.0 runs it.
#include "probe/probe_layer_mapping.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "probe/probe_text.hpp"
#include "probe/py_value.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

std::vector<std::string> split_dots(const std::string& s) {
  const std::vector<std::string_view> parts = split(s, '.');
  return {parts.begin(), parts.end()};
}

std::string join_dots(std::vector<std::string>::const_iterator begin,
                      std::vector<std::string>::const_iterator end) {
  std::string out;
  for (auto it = begin; it != end; ++it) {
    if (it != begin) out += '.';
    out += *it;
  }
  return out;
}

// One op of a dump with its place in the module tree (DumpDataItem).
struct DataItem {
  std::string data_name, api_type, api_name, type_name, state;
  std::string layer_scope, frame_stack_scope, full_scope;
};

// The stack lines msprobe reads a scope from: the frame function the op was called through.
struct StackSigns {
  std::string_view start;
  std::array<std::string_view, 2> end;  // either ends the region
};

// get_stack_in_lines: the "in <function>" names of the lines that are not msprobe's or a
// construct/__call__, last line first.
std::vector<std::string> stack_functions(const std::vector<std::string>& lines,
                                         const std::string& stack_path) {
  std::vector<std::string> names;
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = split(line, ',');
    if (fields[0].find("msprobe") != std::string_view::npos ||
        fields[0].find("MindSpeed") != std::string_view::npos) {
      continue;
    }
    if (fields.size() < 3) throw format_error(stack_path, "a stack line has no function: " + line);
    const std::string function(fields[2]);
    if (function.find("construct") != std::string::npos ||
        function.find("__call__") != std::string::npos) {
      continue;
    }
    std::vector<std::string> words;
    for (size_t i = 0; i < function.size();) {
      while (i < function.size() && std::isspace(static_cast<unsigned char>(function[i]))) ++i;
      const size_t start = i;
      while (i < function.size() && !std::isspace(static_cast<unsigned char>(function[i]))) ++i;
      if (i > start) words.push_back(function.substr(start, i - start));
    }
    if (words.size() < 2) throw format_error(stack_path, "a stack line has no function: " + line);
    names.push_back(words[1]);
  }
  std::reverse(names.begin(), names.end());
  return names;
}

// set_stack_scope: the frame function below the first user line, within the stack's region.
std::string frame_scope(const std::vector<std::string>& stack, const StackSigns& signs,
                        const std::string& stack_path) {
  long start = -1;
  size_t end = stack.size();
  for (size_t i = 0; i < stack.size(); ++i) {
    if (stack[i].find(signs.start) != std::string::npos) {
      start = static_cast<long>(i);
    } else if (start >= 0 && (stack[i].find(signs.end[0]) != std::string::npos ||
                              stack[i].find(signs.end[1]) != std::string::npos)) {
      end = i;
      break;
    }
  }
  static constexpr std::array<std::string_view, 4> kFrameFiles = {
      "site-packages/torch", "package/torch", "site-packages/mindspore", "package/mindspore"};
  std::optional<std::string> frame_line;
  bool entered = false;
  for (size_t i = static_cast<size_t>(start + 1); i < end; ++i) {
    const std::string file = stack[i].substr(0, stack[i].find(','));
    const bool frame_file = std::any_of(kFrameFiles.begin(), kFrameFiles.end(),
                                        [&](auto f) { return file.find(f) != std::string::npos; });
    if (frame_file && !entered) {
      frame_line = stack[i];
    } else {
      entered = true;
    }
  }
  std::vector<std::string> names;
  if (frame_line) names = stack_functions({*frame_line}, stack_path);
  return join_dots(names.begin(), names.end());
}

// DumpDataItem.set: the op's type, name and state from its key, its layer scope from the key (a
// Cell or Module) or from construct.json's parent, and its full scope.
DataItem make_item(const std::string& key, const std::optional<std::string>& construct,
                   const std::optional<std::vector<std::string>>& stack, const StackSigns& signs,
                   const std::string& dump_path, const std::string& stack_path) {
  DataItem item;
  item.data_name = key;
  const std::vector<std::string> parts = split_dots(key);
  if (parts.size() < 4) {
    throw format_error(dump_path,
                       "The dump data does not comply with the format specification and must "
                       "contain no less than four fields. The current data is " +
                           key);
  }
  const size_t n = parts.size();
  const bool layer = parts[0] == "Cell" || parts[0] == "Module";
  if (parts[n - 1] == "parameters_grad" ||
      (parts[n - 2] == "parameters_grad" && is_digits(parts[n - 1]))) {
    const size_t shift = parts[n - 1] == "parameters_grad" ? 0 : 1;
    item.api_type = "parameters_grad";
    item.api_name = parts[n - 3 - shift];
    item.type_name = parts[n - 2 - shift];
    item.state = "parameters_grad";
  } else {
    item.api_type = parts[0];
    item.type_name = parts[n - 3];
    item.api_name = layer ? parts[n - 4] : item.type_name;
    item.state = layer ? parts[n - 2] : parts[n - 1];
  }
  const bool item_is_layer = item.api_type == "Cell" || item.api_type == "Module";
  std::vector<std::string> scope;
  if (item_is_layer) {
    scope.assign(parts.begin(), parts.end() - 4);
    scope.insert(scope.end(), parts.end() - 3, parts.end());
  } else if (item.api_type == "parameters_grad") {
    scope = parts;
  } else if (construct && !construct->empty()) {
    scope = split_dots(*construct);
  }
  item.layer_scope =
      scope.empty() ? "TopLayer"
                    : join_dots(scope.begin(), scope.end() - std::min<size_t>(3, scope.size()));
  if (construct && construct->find('.') != std::string::npos && split_dots(*construct).size() < 4) {
    throw format_error(dump_path,
                       "The construct data does not comply with the format specification and "
                       "must contain no less than four fields. The current data is " +
                           *construct);
  }
  if (!item_is_layer && item.api_type != "Primitive" && item.api_type != "Jit" && stack &&
      !stack->empty()) {
    item.frame_stack_scope = frame_scope(*stack, signs, stack_path);
  }
  item.full_scope = item.layer_scope;
  if (!item.frame_stack_scope.empty()) item.full_scope += "." + item.frame_stack_scope;
  item.full_scope += "." + item.api_name;
  return item;
}

// backward_pass: a backward op takes its forward op's scope (backward ops have no stack).
void backward_pass(std::vector<DataItem>& items) {
  std::unordered_map<std::string, size_t> by_name;
  for (size_t i = 0; i < items.size(); ++i) by_name[items[i].data_name] = i;
  for (DataItem& item : items) {
    std::vector<std::string> parts = split_dots(item.data_name);
    const size_t from = parts.size() - 2;
    bool backward = false;
    for (size_t i = from; i < parts.size(); ++i) backward = backward || parts[i] == "backward";
    if (!backward) continue;
    for (size_t i = from; i < parts.size(); ++i) {
      for (size_t at = parts[i].find("backward"); at != std::string::npos;
           at = parts[i].find("backward", at + 7)) {
        parts[i].replace(at, 8, "forward");
      }
    }
    const auto forward = by_name.find(join_dots(parts.begin(), parts.end()));
    if (forward == by_name.end()) continue;
    item.full_scope = items[forward->second].full_scope;
    item.layer_scope = items[forward->second].layer_scope;
  }
}

// extract_next_item_last_number: the last number in the scope component after `prefix.`.
std::optional<long long> next_item_number(const std::string& scope, const std::string& prefix) {
  if (scope.size() <= prefix.size() || scope.compare(0, prefix.size(), prefix) != 0 ||
      scope[prefix.size()] != '.') {
    return std::nullopt;
  }
  const size_t start = prefix.size() + 1;
  size_t end = start;
  while (end < scope.size() && scope[end] != '.' &&
         !std::isspace(static_cast<unsigned char>(scope[end]))) {
    ++end;
  }
  if (end == start || (end < scope.size() && scope[end] != '.')) return std::nullopt;
  const std::string next = scope.substr(start, end - start);
  std::optional<long long> last;
  for (size_t i = 0; i < next.size();) {
    if (!std::isdigit(static_cast<unsigned char>(next[i]))) {
      ++i;
      continue;
    }
    const size_t digits = i;
    while (i < next.size() && std::isdigit(static_cast<unsigned char>(next[i]))) ++i;
    if (i - digits > 18) return std::nullopt;  // beyond any layer count: left as it is
    last = std::stoll(next.substr(digits, i - digits));
  }
  return last;
}

// renumber_index_pass(items, "ParallelTransformer", "layers"): layer numbers made relative to
// the smallest under each ParallelTransformer (pipeline stages number them globally).
void renumber_layers(std::vector<DataItem>& items) {
  std::vector<std::pair<std::string, std::optional<long long>>> prefixes;
  for (const DataItem& item : items) {
    if (item.type_name != "ParallelTransformer") continue;
    const std::string prefix = item.full_scope + ".layers";
    if (std::none_of(prefixes.begin(), prefixes.end(), [&](auto& p) { return p.first == prefix; }))
      prefixes.emplace_back(prefix, std::nullopt);
  }
  for (auto& [prefix, least] : prefixes) {
    for (const DataItem& item : items) {
      const std::optional<long long> number = next_item_number(item.full_scope, prefix);
      if (number && (!least || *number < *least)) least = number;
    }
  }
  for (const auto& [prefix, least] : prefixes) {
    for (DataItem& item : items) {
      const std::optional<long long> number = next_item_number(item.full_scope, prefix);
      if (!number) continue;  // no number there, or none anywhere: left as it is
      const size_t start = prefix.size() + 1;
      const size_t end = std::min(item.full_scope.find('.', start), item.full_scope.size());
      item.full_scope.replace(start, end - start, std::to_string(*number - *least));
    }
  }
}

struct LayerNode {
  std::string type_name;
  std::map<std::string, std::vector<const DataItem*>> items;  // by state
  std::unordered_map<std::string, std::unique_ptr<LayerNode>> children;
};

// LayerTrie.insert: the item at its full scope, below the scope's first component.
void insert(LayerNode& root, const DataItem& item) {
  const std::vector<std::string> parts = split_dots(item.full_scope);
  LayerNode* node = &root;
  for (size_t i = 1; i < parts.size(); ++i) {
    std::unique_ptr<LayerNode>& child = node->children[parts[i]];
    if (!child) {
      child = std::make_unique<LayerNode>();
      child->type_name = parts[i];
    }
    node = child.get();
  }
  node->items[item.state].push_back(&item);
  node->type_name = item.type_name;
}

// preprocess_layer_mapping: per class, the entries by their first component, longest first.
using PreparedMapping =
    std::map<std::string,
             std::map<std::string, std::vector<std::tuple<std::string, std::string, size_t>>>>;

PreparedMapping prepare(const ProbeLayerMapping& mapping) {
  PreparedMapping out;
  const bool has_cell = std::any_of(mapping.begin(), mapping.end(),
                                    [](const auto& type) { return type.first == "Cell"; });
  for (size_t i = 0; i < mapping.size(); ++i) {
    // update_keys_in_place: "Cell", the old name of the top layer, replaces "TopLayer".
    if (mapping[i].first == "TopLayer" && has_cell) continue;
    const std::string type = mapping[i].first == "Cell" ? "TopLayer" : mapping[i].first;
    auto& by_prefix = out[type];
    for (const auto& [key, value] : mapping[i].second) {
      const std::vector<std::string> parts = split_dots(key);
      by_prefix[parts[0]].emplace_back(key, value.substr(0, value.find('(')), parts.size());
    }
  }
  for (auto& [type, by_prefix] : out) {
    for (auto& [prefix, entries] : by_prefix) {
      std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return std::get<2>(a) > std::get<2>(b);
      });
    }
  }
  return out;
}

// convert_scope + query_data: the bench item at the NPU item's scope as renamed, same state and
// position among its node's items.
const DataItem* bench_item(const LayerNode& npu_root, const LayerNode& bench_root,
                           const DataItem& item, const PreparedMapping& mapping) {
  const std::vector<std::string> scope = split_dots(item.full_scope);
  std::vector<std::string> target;
  const LayerNode* node = &npu_root;
  size_t i = 0;
  while (i + 1 < scope.size()) {
    const std::string& child = scope[i + 1];
    size_t step = 1;
    std::string renamed = child;
    const auto type = mapping.find(node->type_name);
    if (type != mapping.end()) {
      const auto entries = type->second.find(child);
      if (entries != type->second.end()) {
        for (const auto& [origin, bench_name, level] : entries->second) {
          if (i + 1 + level > scope.size()) continue;
          if (join_dots(scope.begin() + static_cast<long>(i + 1),
                        scope.begin() + static_cast<long>(i + 1 + level)) == origin) {
            renamed = bench_name;
            step = level;
            break;
          }
        }
      }
    }
    target.push_back(renamed);
    for (size_t s = 0; s < step; ++s) {
      node = node->children.at(scope[i + 1]).get();
      ++i;
    }
  }
  size_t index = 0;
  const auto own = node->items.find(item.state);
  if (own != node->items.end()) {
    for (size_t k = 0; k < own->second.size(); ++k) {
      if (own->second[k]->data_name == item.data_name) index = k;
    }
  }
  const LayerNode* at = &bench_root;
  if (!target.empty()) {  // a target may hold several components ("a.b")
    for (const std::string& name : split_dots(join_dots(target.begin(), target.end()))) {
      const auto child = at->children.find(name);
      if (child == at->children.end()) return nullptr;
      at = child->second.get();
    }
  }
  const auto there = at->items.find(item.state);
  if (there == at->items.end() || index >= there->second.size()) return nullptr;
  return there->second[index];
}

// get_stack_construct_by_dump_json_path: both files beside the dump, or neither.
struct ScopeFiles {
  std::map<std::string, std::vector<std::string>> stack;
  std::map<std::string, std::optional<std::string>> construct;
  std::string stack_path;
  bool present = false;
};

ScopeFiles scope_files(const ProbeDump& dump) {
  const fs::path dir = fs::path(dump.path).parent_path();
  ScopeFiles files;
  files.stack_path = (dir / "stack.json").string();
  const std::string construct_path = (dir / "construct.json").string();
  const bool has_stack = fs::exists(files.stack_path), has_construct = fs::exists(construct_path);
  if (!has_stack && !has_construct) return files;
  if (!has_stack || !has_construct) {
    throw format_error(has_stack ? construct_path : files.stack_path,
                       "stack.json or construct.json not found, please check.");
  }
  files.present = true;
  bool indexed = false;
  files.stack = read_probe_stack(files.stack_path, &indexed);
  if (indexed) files.stack.clear();  // msprobe looks ops up by key: the new form has none
  const MappedFile file = MappedFile::open(construct_path);
  const PyJson json = PyJson::parse(
      std::string_view(reinterpret_cast<const char*>(file.data()), file.size()), construct_path);
  object root;
  if (json.root().get(root) != simdjson::SUCCESS)
    throw format_error(construct_path, "construct.json is not a dict");
  // load_construct_json: Megatron's files hold [parent, micro step] pairs.
  const bool micro_steps = root["megatron_micro_step_number"].error() == simdjson::SUCCESS;
  for (const simdjson::dom::key_value_pair m : root) {
    const std::string key(m.key);
    if (micro_steps && key == "megatron_micro_step_number") continue;
    element value = m.value;
    if (micro_steps && value.is_array()) {
      simdjson::dom::array pair = value.get_array().value_unsafe();
      if (pair.size() != 2)
        throw format_error(construct_path, "Parse construct json file failed: " + key);
      value = pair.at(0).value_unsafe();
    }
    if (value.is_null()) {
      files.construct[key] = std::nullopt;
    } else if (value.is_string()) {
      files.construct[key] = std::string(value.get_string().value_unsafe());
    } else {
      throw format_error(construct_path, "the parent of " + key + " is not a name");
    }
  }
  return files;
}

struct Tree {
  std::vector<DataItem> items;  // every op of the dump, in dump order
  LayerNode root;
};

// get_data_items_and_tree: no items without stack.json and construct.json.
std::unique_ptr<Tree> build_tree(const ProbeDump& dump) {
  auto tree = std::make_unique<Tree>();
  tree->root.type_name = "TopLayer";
  if (dump.detected_framework.empty())
    throw format_error(dump.path, "must be based on the MindSpore or PyTorch framework.");
  const ScopeFiles files = scope_files(dump);
  if (!files.present) return tree;
  const StackSigns signs = dump.detected_framework == "mindspore"
                               ? StackSigns{"Template", {"construct", "construct"}}
                               : StackSigns{"Template", {"in forward,", "in backward,"}};
  for (const std::string& key : dump.op_keys) {
    const auto construct = files.construct.find(key);
    const auto stack = files.stack.find(key);
    tree->items.push_back(make_item(
        key, construct == files.construct.end() ? std::nullopt : construct->second,
        stack == files.stack.end() ? std::nullopt
                                   : std::optional<std::vector<std::string>>(stack->second),
        signs, dump.path, files.stack_path));
  }
  backward_pass(tree->items);
  renumber_layers(tree->items);
  for (const DataItem& item : tree->items) insert(tree->root, item);
  return tree;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> probe_layer_data_mapping(
    const ProbeDump& npu, const ProbeDump& bench, const ProbeLayerMapping& mapping) {
  const std::unique_ptr<Tree> npu_tree = build_tree(npu);
  const std::unique_ptr<Tree> bench_tree = build_tree(bench);
  const PreparedMapping prepared = prepare(mapping);
  std::unordered_map<std::string, const ProbeOp*> npu_ops, bench_ops;
  for (const ProbeOp& op : npu.ops) npu_ops.emplace(op.key, &op);
  for (const ProbeOp& op : bench.ops) bench_ops.emplace(op.key, &op);
  std::vector<std::pair<std::string, std::string>> rows;
  std::unordered_map<std::string, size_t> row_at;  // dict.update: a repeated name keeps its place
  for (const DataItem& item : npu_tree->items) {
    const DataItem* match = bench_item(npu_tree->root, bench_tree->root, item, prepared);
    const auto npu_op = npu_ops.find(item.data_name);
    if (npu_op == npu_ops.end()) continue;
    std::unordered_map<std::string, std::string> bench_by_suffix;
    if (match != nullptr) {
      const auto bench_op = bench_ops.find(match->data_name);
      if (bench_op != bench_ops.end()) {
        for (const ProbeRow& row : bench_op->second->rows) bench_by_suffix[row.suffix] = row.name;
      }
    }
    for (const ProbeRow& row : npu_op->second->rows) {
      const auto hit = bench_by_suffix.find(row.suffix);
      std::string value = hit == bench_by_suffix.end() ? "N/A" : hit->second;
      const auto [at, fresh] = row_at.emplace(row.name, rows.size());
      if (fresh) {
        rows.emplace_back(row.name, std::move(value));
      } else {
        rows[at->second].second = std::move(value);
      }
    }
  }
  return rows;
}

}  // namespace dumpcmp
