// docs/msprobe-compare.md §2.2 (flattening), §4.1 (rows, their order and the op's name parts).
#include "probe/probe_dump.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/text.hpp"
#include "probe/probe_text.hpp"
#include "probe/py_value.hpp"

namespace dumpcmp {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

constexpr int kMaxDepth = 400;  // msprobe's Const.MAX_DEPTH
constexpr std::string_view kStatKeys[] = {"Max", "Min", "Mean", "Norm"};

bool is_string(element e) { return e.type() == element_type::STRING; }

// A JSON object as the dict Python's json module makes of it: a key written twice keeps its first
// place and its last value.
std::optional<element> member(object o, std::string_view key) {
  std::optional<element> out;
  for (const simdjson::dom::key_value_pair m : o) {
    if (m.key == key) out = m.value;
  }
  return out;
}

std::vector<std::pair<std::string_view, element>> items(object o) {
  std::vector<std::pair<std::string_view, element>> out;
  std::unordered_map<std::string_view, size_t> at;
  for (const simdjson::dom::key_value_pair m : o) {
    const auto [it, fresh] = at.emplace(m.key, out.size());
    if (fresh) {
      out.emplace_back(m.key, m.value);
    } else {
      out[it->second].second = m.value;
    }
  }
  return out;
}

// Python's truthiness of a JSON value.
bool truthy(element e) {
  switch (e.type()) {
    case element_type::NULL_VALUE:
      return false;
    case element_type::BOOL:
      return bool(e);
    case element_type::INT64:
      return int64_t(e) != 0;
    case element_type::UINT64:
      return uint64_t(e) != 0;
    case element_type::DOUBLE:
      return double(e) != 0;
    case element_type::STRING:
      return !std::string_view(e).empty();
    case element_type::ARRAY:
      return array(e).size() != 0;
    case element_type::OBJECT:
      return object(e).size() != 0;
  }
  return false;
}

// A value as msprobe keeps it in a statistics cell.
ProbeStat stat_of(element e, bool bool_as_text) {
  ProbeStat s;
  switch (e.type()) {
    case element_type::NULL_VALUE:
      s.kind = ProbeStat::Kind::kText;  // msprobe writes str(None) into the summary
      s.text = "None";
      return s;
    case element_type::BOOL:
      s.kind = bool_as_text ? ProbeStat::Kind::kText : ProbeStat::Kind::kBool;
      s.text = bool(e) ? "True" : "False";
      s.number = bool(e) ? 1 : 0;
      return s;
    case element_type::INT64:
    case element_type::UINT64:
      s.kind = ProbeStat::Kind::kInt;
      s.text = py_str(e);
      s.number = e.type() == element_type::INT64 ? double(int64_t(e)) : double(uint64_t(e));
      return s;
    case element_type::DOUBLE:
      s.kind = ProbeStat::Kind::kFloat;
      s.number = double(e);
      s.text = py_str(e);
      return s;
    case element_type::STRING: {
      double special = 0;
      if (py_special_float(std::string_view(e), special)) {
        s.number = special;
        // msprobe turns a NaN into the string "Nan" before the cell is made.
        s.kind = std::isnan(special) ? ProbeStat::Kind::kText : ProbeStat::Kind::kFloat;
        s.text = std::isnan(special) ? "Nan" : py_str(e);
        return s;
      }
      break;
    }
    default:
      break;
  }
  s.kind = ProbeStat::Kind::kText;
  s.text = py_str(e);
  if (lower_ascii(s.text) == "nan") s.text = "Nan";
  return s;
}

ProbeStat text_stat(std::string text) {
  ProbeStat s;
  s.kind = ProbeStat::Kind::kText;
  s.text = lower_ascii(text) == "nan" ? "Nan" : std::move(text);
  return s;
}

// str(np.shape(np.array(value))) of a slice's [start, stop, step].
std::string numpy_shape_text(element value) {
  array a;
  if (value.get(a) != simdjson::SUCCESS) return "()";
  return "(" + std::to_string(a.size()) + ",)";
}

class DumpReader {
 public:
  explicit DumpReader(const std::string& path) : path_(path) {}

  // gen_op_item: one leaf.
  ProbeRow leaf(object o, const std::string& name, ProbeState state) const {
    ProbeRow row;
    row.state = state;
    std::string data_name = "-1";
    if (auto d = member(o, "data_name"); d && truthy(*d)) data_name = py_str(*d);
    row.data_name = data_name;
    if (data_name != "-1") {
      const size_t dot = data_name.rfind('.');
      row.name = dot == std::string::npos ? data_name : data_name.substr(0, dot);
    } else {
      row.name = name;
    }
    if (auto r = member(o, "requires_grad"); r && r->type() != element_type::NULL_VALUE) {
      row.requires_grad = py_str(*r);
    }
    for (size_t k = 0; k < 4; ++k) {
      const std::optional<element> v = member(o, kStatKeys[k]);
      row.stats[k] = v ? stat_of(*v, true) : text_stat("None");  // msprobe's str(None)
    }
    const std::optional<element> dtype = member(o, "dtype");
    const std::optional<element> value = member(o, "value");
    const std::optional<element> type_element = member(o, "type");
    const std::string type = type_element ? py_str(*type_element) : "";
    if (dtype && truthy(*dtype)) {
      row.dtype = py_str(*dtype);
      if (auto s = member(o, "shape"); s && s->type() != element_type::NULL_VALUE) {
        row.shape = py_str(*s);
      }
    } else {
      special_leaf(o, name, type, value, row);
    }
    // The dump's md5, unless a special leaf set its own; else the CRC-32 of str(value).
    if (auto m = member(o, "md5"); m && truthy(*m) && row.md5.empty()) row.md5 = py_str(*m);
    if (row.md5.empty()) row.md5 = crc32_hex(value ? py_str(*value) : "");
    return row;
  }

  // The leaves without a dtype (§2.2's table of non-tensor leaves).
  void special_leaf(object o, const std::string& name, const std::string& type,
                    const std::optional<element>& value, ProbeRow& row) const {
    const std::string last = name.substr(name.rfind('.') + 1);
    auto all_stats = [&](const ProbeStat& s) { row.stats = {s, s, s, s}; };
    if (type == "torch.Size") {
      row.dtype = type;
      row.shape = value ? py_str(*value) : "None";
    } else if (type == "slice") {
      row.dtype = type;
      row.shape = value ? numpy_shape_text(*value) : "()";
    } else if (type == "ellipsis") {
      row.dtype = type;
      row.shape = "[]";
      all_stats(value ? stat_of(*value, false) : text_stat("None"));
    } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
      row.dtype = type;
      row.shape = "[]";
      const std::string text = value ? py_str(*value) : "None";
      all_stats(text_stat(text));
      row.md5 = text;
    } else if (type == "torch.ProcessGroup") {
      row.dtype = type;
      row.shape = "[]";
      const std::optional<element> ranks = member(o, "group_ranks");
      const std::string text = ranks ? py_str(*ranks) : "None";
      all_stats(text_stat(text));
      row.md5 = text;
    } else {
      row.dtype = "<class '" + python_type_name(value) + "'>";
      row.shape = "[]";
      all_stats(value ? stat_of(*value, false) : text_stat("None"));
    }
  }

  static std::string python_type_name(const std::optional<element>& value) {
    if (!value) return "NoneType";
    switch (value->type()) {
      case element_type::NULL_VALUE:
        return "NoneType";
      case element_type::BOOL:
        return "bool";
      case element_type::INT64:
      case element_type::UINT64:
        return "int";
      case element_type::DOUBLE:
        return "float";
      case element_type::STRING: {
        double special = 0;
        return py_special_float(std::string_view(*value), special) ? "float" : "str";
      }
      case element_type::ARRAY:
        return "list";
      case element_type::OBJECT:
        return "dict";
    }
    return "NoneType";
  }

  // msprobe's default item: a null argument, everything None.
  static ProbeRow none_row(const std::string& name, ProbeState state) {
    ProbeRow row;
    row.name = name;
    row.state = state;
    row.stats = {text_stat("None"), text_stat("None"), text_stat("None"), text_stat("None")};
    return row;
  }

  // op_item_parse: a value flattened under `name`.
  void flatten(element e, const std::string& name, ProbeState state, int depth,
               std::vector<ProbeRow>& out) const {
    if (depth > kMaxDepth) fail("parse of api/module of " + name + " exceeds the recursion limit");
    if (e.type() == element_type::NULL_VALUE) {
      out.push_back(none_row(name, state));
      return;
    }
    if (!truthy(e)) return;  // an empty list or dict; a false or zero scalar, as Python's `not`
    if (e.type() == element_type::ARRAY) {
      const bool grad = has_component(name, "parameters_grad");
      size_t i = 0;
      for (const element item : array(e)) {
        flatten(item, grad ? name : name + "." + std::to_string(i), state, depth + 1, out);
        ++i;
      }
      return;
    }
    if (e.type() != element_type::OBJECT) return;
    const object o(e);
    if (auto c = member(o, "class_type");
        c && is_string(*c) && std::string_view(*c) == "torch.distributed.P2POp") {
      std::optional<element> tensor = member(o, "tensor");
      if (tensor && tensor->type() == element_type::OBJECT) {
        out.push_back(leaf(object(*tensor), name, state));
      } else {
        out.push_back(none_row(name, state));
      }
      auto p2p = std::make_shared<ProbeP2P>();
      for (auto [key, value] : {std::pair{"op", &p2p->op}, std::pair{"peer", &p2p->peer}}) {
        if (const std::optional<element> v = member(o, key)) *value = py_json_tree(*v);
      }
      out.back().p2p = std::move(p2p);
      return;
    }
    if (auto t = member(o, "type"); t && is_string(*t)) {
      out.push_back(leaf(o, name, state));
      return;
    }
    for (const auto& [key, value] : items(o)) {
      flatten(value, name + "." + std::string(key), state, depth + 1, out);
    }
  }

  // read_op: every row of one record, then msprobe's reorder_index.
  // read_op: a debug variable whole; a parameter gradient whole; else the op's inputs, parameters
  // and outputs. check_dump_json_str runs on dump.json's records only.
  std::vector<ProbeRow> rows_of(element record, const std::string& key, bool debug_file) const {
    std::vector<ProbeRow> rows;
    const std::vector<std::string_view> parts = split(key, '.');
    if (parts.back() == "debug") {
      flatten(record, key, ProbeState::kDebug, 0, rows);
    } else if (parts.back() == "parameters_grad" ||
               (parts.size() >= 2 && parts[parts.size() - 2] == "parameters_grad")) {
      flatten(record, key, ProbeState::kParametersGrad, 0, rows);
    } else if (record.type() == element_type::OBJECT) {
      if (!debug_file) check_record(object(record), key);
      static constexpr std::pair<std::string_view, std::string_view> kIo[] = {
          {"input_args", ".input"},
          {"input_kwargs", ".input"},
          {"input", ".input"},
          {"output", ".output"},
          {"parameters", ".parameters"}};
      for (const auto& [field, infix] : kIo) {
        const std::optional<element> value = member(object(record), field);
        if (!value) continue;
        const ProbeState state = field == "output"       ? ProbeState::kOutput
                                 : field == "parameters" ? ProbeState::kParameters
                                                         : ProbeState::kInput;
        flatten(*value, key + std::string(infix), state, 0, rows);
      }
    }
    std::vector<ProbeRow> ordered;
    ordered.reserve(rows.size());
    for (const ProbeState state : {ProbeState::kInput, ProbeState::kDebug, ProbeState::kParameters,
                                   ProbeState::kOutput, ProbeState::kParametersGrad}) {
      for (ProbeRow& row : rows) {
        if (row.state == state) ordered.push_back(std::move(row));
      }
    }
    for (ProbeRow& row : ordered) row.suffix = replace_all(row.name, key, "");
    return ordered;
  }

  // check_dump_json_str: the inputs (input_args, else input), kwargs and outputs of a record. A
  // string that starts like a formula, a shape that is not a list or a requires_grad that is not
  // a bool stops msprobe's compare.
  void check_record(object record, const std::string& key) const {
    std::optional<element> inputs = member(record, "input_args");
    if (!inputs || !truthy(*inputs)) inputs = member(record, "input");
    for (const std::optional<element>& arg :
         {inputs, member(record, "input_kwargs"), member(record, "output")}) {
      if (!arg || !truthy(*arg)) continue;
      if (arg->type() == element_type::OBJECT) {
        check_value(*arg, key, 0);
      } else if (arg->type() == element_type::ARRAY) {
        for (const element item : array(*arg)) {
          if (truthy(item)) check_value(item, key, 0);
        }
      }
    }
  }

  // check_json_key_value: lists are walked, a dict's values checked (dicts walked, lists not).
  void check_value(element e, const std::string& key, int depth) const {
    if (depth > kMaxDepth) return;
    if (e.type() == element_type::ARRAY) {
      for (const element item : array(e)) check_value(item, key, depth + 1);
      return;
    }
    if (e.type() != element_type::OBJECT) return;
    for (const auto& [name, value] : items(object(e))) {
      if (value.type() == element_type::OBJECT) {
        check_value(value, key, depth + 1);
      } else if (name == "shape" && value.type() != element_type::ARRAY) {
        fail("shape of input or output of " + key + " is not list or tuple, please check!");
      } else if (name == "requires_grad" && value.type() != element_type::BOOL) {
        fail("requires_grad of input or output of " + key + " is not bool, please check!");
      } else if (is_string(value) && is_formula_like(std::string_view(value))) {
        fail("data info of " + key + " contains special characters, please check!");
      }
    }
  }

  [[noreturn]] void fail(const std::string& problem) const { throw format_error(path_, problem); }

 private:
  const std::string& path_;
};

// md5_find for debug.json: an "md5" key in any dict at any depth.
bool has_md5_key(element e, int depth = 0) {
  if (depth > 400) return false;
  if (e.type() == element_type::OBJECT) {
    for (const simdjson::dom::key_value_pair m : object(e)) {
      if (m.key == "md5" || has_md5_key(m.value, depth + 1)) return true;
    }
  } else if (e.type() == element_type::ARRAY) {
    for (const element item : array(e)) {
      if (has_md5_key(item, depth + 1)) return true;
    }
  }
  return false;
}

}  // namespace

bool probe_name_parts(const std::string& key, bool debug_file, ProbeOp& op) {
  if (debug_file) {  // split_data_name_components: a debug.json key is all three parts
    op.op_no_number = op.call_direction = op.direction = key;
    return !key.empty();
  }
  const std::vector<std::string_view> parts = split(key, '.');
  const std::string_view last = parts.back();
  const std::string_view second = parts.size() >= 2 ? parts[parts.size() - 2] : std::string_view();
  auto join = [&](size_t count) {
    std::string out;
    for (size_t i = 0; i < count; ++i) {
      if (i) out += '.';
      out += parts[i];
    }
    return out;
  };
  if (last == "parameters_grad" || second == "parameters_grad") {
    op.op_no_number = parts.size() > 1 ? join(parts.size() - 1) : "";
    op.call_direction = op.direction = "parameters_grad";
    return !op.op_no_number.empty();
  }
  for (const std::string_view direction : {"forward", "backward"}) {
    if (last == direction || second == direction) {
      op.op_no_number = parts.size() > 2 ? join(parts.size() - 2) : "";
      op.call_direction = std::string(second) + "." + std::string(last);
      op.direction = std::string(direction);
      return !op.op_no_number.empty();
    }
  }
  return false;
}

std::string renumbered_call(const std::string& call_direction, int order) {
  const size_t dot = call_direction.rfind('.');
  if (dot == std::string::npos) return call_direction;
  std::string head = call_direction.substr(0, dot), tail = call_direction.substr(dot + 1);
  const bool head_digits = is_digits(head), tail_digits = is_digits(tail);
  if (!head_digits && !tail_digits) return call_direction;
  if (head_digits) head = std::to_string(order);
  if (tail_digits) tail = std::to_string(order);
  return head + "." + tail;
}

namespace {

std::string top_string(object root, std::string_view key) {
  const std::optional<element> e = member(root, key);
  if (!e || e->type() == element_type::NULL_VALUE) return "";
  return py_str(*e);
}

// detect_framework_by_dump_json's fallback: the first line with a "type" of "mindspore..." (looked
// for first on each line) or "torch...".
std::string framework_by_type(std::string_view text) {
  auto line_has = [](std::string_view line, std::string_view value) {
    for (size_t at = line.find("\"type\":"); at != std::string_view::npos;
         at = line.find("\"type\":", at + 1)) {
      size_t v = at + 7;
      while (v < line.size() && std::isspace(static_cast<unsigned char>(line[v]))) ++v;
      if (line.substr(v, value.size()) == value) return true;
    }
    return false;
  };
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    if (line_has(line, "\"mindspore")) return "mindspore";
    if (line_has(line, "\"torch")) return "pytorch";
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return "";
}

}  // namespace

std::string probe_data_dir(const ProbeDump& dump) {
  const size_t slash = dump.path.rfind('/');
  return (slash == std::string::npos ? std::string(".") : dump.path.substr(0, slash)) +
         "/dump_tensor_data/";
}

ProbeDump read_probe_dump(const std::string& path) {
  const MappedFile file = MappedFile::open(path);
  return parse_probe_dump(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()),
                          path);
}

ProbeDump parse_probe_dump(std::string_view text, const std::string& path) {
  const PyJson json = PyJson::parse(text, path);
  object root;
  if (json.root().get(root) != simdjson::SUCCESS)
    throw format_error(path, "expected a JSON object");
  ProbeDump dump;
  dump.path = path;
  dump.debug_file = path == "debug.json" || ends_with(path, "/debug.json");
  dump.task = top_string(root, "task");
  dump.level = top_string(root, "level");
  dump.framework = top_string(root, "framework");
  dump.detected_framework = dump.framework == "pytorch" || dump.framework == "mindspore"
                                ? dump.framework
                                : framework_by_type(text);
  const std::optional<element> data = member(root, "data");
  if (!data) throw format_error(path, "missing 'data' in dump.json");
  object ops;
  if (data->get(ops) != simdjson::SUCCESS) {
    throw format_error(path, "invalid type for 'data': expected a dict");
  }
  const DumpReader reader(path);
  std::unordered_map<std::string, int> backward_count;
  for (const auto& [op_key, record] : items(ops)) {
    const std::string key(op_key);
    if (is_formula_like(key)) reader.fail("api name contains special characters, please check!");
    if (dump.debug_file) {
      dump.has_md5 = dump.has_md5 || key == "md5" || has_md5_key(record);
    } else if (!dump.has_md5 && record.type() == element_type::OBJECT) {
      for (const simdjson::dom::key_value_pair field : object(record)) {
        if (field.value.type() == element_type::OBJECT && member(object(field.value), "md5")) {
          dump.has_md5 = true;
        } else if (field.value.type() == element_type::ARRAY) {
          for (const element item : array(field.value)) {
            if (item.type() == element_type::OBJECT && member(object(item), "md5"))
              dump.has_md5 = true;
          }
        }
      }
    }
    dump.op_keys.push_back(key);
    ProbeOp op;
    op.key = key;
    op.rows = reader.rows_of(record, key, dump.debug_file);
    if (!probe_name_parts(key, dump.debug_file, op)) continue;
    // msprobe counts an op without tensors too
    if (op.direction == "backward") op.backward_call_order = backward_count[op.op_no_number]++;
    if (!op.rows.empty()) dump.ops.push_back(std::move(op));
  }
  return dump;
}

std::map<std::string, std::vector<std::string>> read_probe_stack(const std::string& path,
                                                                 bool* indexed_form) {
  const MappedFile file = MappedFile::open(path);
  return parse_probe_stack(
      std::string_view(reinterpret_cast<const char*>(file.data()), file.size()), path,
      indexed_form);
}

std::map<std::string, std::vector<std::string>> parse_probe_stack(std::string_view text,
                                                                  const std::string& path,
                                                                  bool* indexed_form) {
  const PyJson json = PyJson::parse(text, path);
  object root;
  if (json.root().get(root) != simdjson::SUCCESS) {
    throw format_error(path,
                       "The format of the stack.json is incorrect, the outermost layer of "
                       "stack.json should be a dict type.");
  }
  auto lines_of = [&](element e, const std::string& key) {
    std::vector<std::string> lines;
    array a;
    if (e.get(a) != simdjson::SUCCESS) {
      throw format_error(path, "Expected stack_info to be a list for '" + key + "'");
    }
    for (const element line : a) lines.push_back(py_str(line));
    return lines;
  };
  std::map<std::string, std::vector<std::string>> stacks;
  const bool indexed = member(root, "0").has_value();
  if (indexed_form != nullptr) *indexed_form = indexed;
  if (indexed) {  // the new form: {"0": [[op keys], [lines]], ...}
    for (const simdjson::dom::key_value_pair m : root) {
      array pair;
      if (m.value.get(pair) != simdjson::SUCCESS || pair.size() != 2) continue;
      array keys;
      if (pair.at(0).get(keys) != simdjson::SUCCESS) continue;
      for (const element k : keys) {
        const std::string key = py_str(k);
        stacks[key] = lines_of(pair.at(1).value_unsafe(), key);
      }
    }
    return stacks;
  }
  for (const simdjson::dom::key_value_pair m : root) {
    stacks[std::string(m.key)] = lines_of(m.value, std::string(m.key));
  }
  return stacks;
}

}  // namespace dumpcmp
