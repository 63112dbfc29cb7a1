// Reading the atc `--mode=1` JSON into a FusionRule (docs/formats.md §4.2 rules 1-4), with
// simdjson's DOM; a GE graph text file is read as the JSON it converts to (§4.6). Typed access is
// strict: a wrong type on a field msaccucmp reads rejects the file with the JSON path of the field.
#include <simdjson.h>

#include <array>
#include <climits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "fusion/attr_enum.hpp"
#include "fusion/fusion_rule.hpp"
#include "fusion/fusion_rule_builder.hpp"
#include "fusion/ge_graph_text.hpp"

namespace dumpcmp {

std::string strip_lxslice(std::string_view name) {
  static constexpr std::string_view kMark = "_lxslice";
  if (name.find(kMark) == std::string_view::npos) return std::string(name);
  std::string out;
  out.reserve(name.size());
  size_t i = 0;
  while (i < name.size()) {
    if (name.compare(i, kMark.size(), kMark) == 0) {
      size_t end = i + kMark.size();
      while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
      if (end > i + kMark.size()) {  // "_lxslice" without digits is kept, as the regex needs one
        i = end;
        continue;
      }
    }
    out.push_back(name[i]);
    ++i;
  }
  return out;
}

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

// A JSON path kept on the stack and rendered only for an error message.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;
  int64_t index = -1;

  // A child points at its parent: deriving one from a temporary would dangle.
  Path child(std::string_view name) const& { return Path{this, name, -1}; }
  Path at(size_t i) const& { return Path{this, {}, static_cast<int64_t>(i)}; }
  Path child(std::string_view name) const&& = delete;
  Path at(size_t i) const&& = delete;

  std::string str() const {
    std::vector<const Path*> chain;
    for (const Path* p = this; p != nullptr && (p->index >= 0 || !p->key.empty()); p = p->parent) {
      chain.push_back(p);
    }
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if ((*it)->index >= 0) {
        out += "[" + std::to_string((*it)->index) + "]";
      } else {
        if (!out.empty()) out += '.';
        out += (*it)->key;
      }
    }
    return out;
  }
};

// One wanted attr key: the first entry with that key (msaccucmp stops at the first match).
struct AttrHit {
  bool found = false;
  bool value_is_enum = false;  // the enum tables say "i"/"list.i" index attr_value_enum
  size_t index = 0;
  element value;
};

class RuleReader {
 public:
  explicit RuleReader(const std::string& file) : file_(file), builder_(file) {}

  FusionRule read(element root) {
    const Path top;
    const object model = need_object(root, top);
    element attrs;
    if (field(model, "attr", attrs)) read_enum_tables(attrs, top.child("attr"));
    element graphs_element;
    if (!field(model, "graph", graphs_element)) fail(top, "missing \"graph\"");
    const Path graphs_path = top.child("graph");
    const array graphs = need_array(graphs_element, graphs_path);
    builder_.reserve(count_ops(graphs));
    size_t g = 0;
    for (const element graph_element : graphs) {
      const Path graph_path = graphs_path.at(g++);
      const object graph = need_object(graph_element, graph_path);
      element ops_element;
      if (!field(graph, "op", ops_element)) fail(graph_path, "missing \"op\"");
      const Path ops_path = graph_path.child("op");
      size_t i = 0;
      for (const element op : need_array(ops_element, ops_path)) read_op(op, ops_path.at(i++));
      builder_.end_graph();
    }
    return builder_.finish();
  }

 private:
  // Upper bound of the op count, for reserving; malformed graphs are reported later.
  static size_t count_ops(array graphs) {
    size_t count = 0;
    for (const element graph_element : graphs) {
      object graph;
      element ops;
      array op_array;
      if (graph_element.get(graph) == simdjson::SUCCESS && field(graph, "op", ops) &&
          ops.get(op_array) == simdjson::SUCCESS) {
        count += op_array.size();
      }
    }
    return count;
  }

  [[noreturn]] void fail(const Path& path, const std::string& problem) const {
    const std::string where = path.str();
    throw format_error(file_, where.empty() ? problem : where + ": " + problem);
  }

  object need_object(element e, const Path& path) const {
    object o;
    if (e.get(o) != simdjson::SUCCESS) fail(path, "expected an object");
    return o;
  }
  array need_array(element e, const Path& path) const {
    array a;
    if (e.get(a) != simdjson::SUCCESS) fail(path, "expected an array");
    return a;
  }
  std::string_view need_string(element e, const Path& path) const {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) fail(path, "expected a string");
    return s;
  }
  int64_t need_int(element e, const Path& path) const {
    if (e.type() == element_type::UINT64) fail(path, "integer out of range");
    int64_t v = 0;
    if (e.get(v) != simdjson::SUCCESS) fail(path, "expected an integer");
    return v;
  }
  bool need_bool(element e, const Path& path) const {
    bool v = false;
    if (e.get(v) != simdjson::SUCCESS) fail(path, "expected a bool");
    return v;
  }

  // The last value of `key` (Python's json keeps the last of duplicate keys).
  static bool field(object o, std::string_view key, element& out) {
    bool found = false;
    for (const simdjson::dom::key_value_pair member : o) {
      if (member.key == key) {
        out = member.value;
        found = true;
      }
    }
    return found;
  }
  element need_field(object o, std::string_view key, const Path& path) const {
    element e;
    if (!field(o, key, e)) fail(path, "missing \"" + std::string(key) + "\"");
    return e;
  }

  // GE's DictInit: the tables sit in the model-level attrs. msaccucmp reads nothing else there,
  // so other entries are not validated.
  void read_enum_tables(element attrs_element, const Path& path) {
    array attrs;
    if (attrs_element.get(attrs) != simdjson::SUCCESS) return;
    size_t i = 0;
    for (const element entry_element : attrs) {
      const Path entry_path = path.at(i++);
      object entry;
      element key_element;
      std::string_view key;
      if (entry_element.get(entry) != simdjson::SUCCESS || !field(entry, "key", key_element) ||
          key_element.get(key) != simdjson::SUCCESS) {
        continue;
      }
      const bool wanted = key == "om_compress_version" || key == "attr_name_enum" ||
                          key == "attr_value_enum" || key == "attrs_use_string_value";
      if (!wanted) continue;
      const Path value_path = entry_path.child("value");
      const object value = need_object(need_field(entry, "value", entry_path), value_path);
      if (key == "om_compress_version") {
        enum_.active = need_int(need_field(value, "i", value_path), value_path.child("i")) == 1;
        continue;
      }
      const Path list_path = value_path.child("list");
      const object list = need_object(need_field(value, "list", value_path), list_path);
      if (key == "attrs_use_string_value") {
        const Path b_path = list_path.child("b");
        size_t k = 0;
        enum_.use_string_value.clear();
        for (const element b : need_array(need_field(list, "b", list_path), b_path)) {
          enum_.use_string_value.push_back(need_bool(b, b_path.at(k++)));
        }
        continue;
      }
      std::vector<std::string>& table = key == "attr_name_enum" ? enum_.names : enum_.values;
      table = read_string_list(need_field(list, "s", list_path), list_path.child("s"));
    }
  }

  std::vector<std::string> read_string_list(element e, const Path& path) const {
    std::vector<std::string> out;
    size_t k = 0;
    for (const element s : need_array(e, path)) out.emplace_back(need_string(s, path.at(k++)));
    return out;
  }

  // Scans one attr array once. Every entry must be an object with a string "key"; a matched
  // entry must have a "value" (msaccucmp's _check_key_exist).
  template <size_t N>
  void scan_attrs(element attrs_element, const Path& path,
                  const std::array<std::string_view, N>& keys, std::array<AttrHit, N>& hits) {
    size_t i = 0;
    for (const element entry_element : need_array(attrs_element, path)) {
      const size_t entry_index = i++;
      const Path entry_path = path.at(entry_index);
      const object entry = need_object(entry_element, entry_path);
      std::string_view key =
          need_string(need_field(entry, "key", entry_path), entry_path.child("key"));
      bool value_is_enum = false;
      if (AttrEnum::is_encoded(key)) {
        std::string error;
        if (!enum_.resolve_key(key, key, value_is_enum, error)) {
          fail(entry_path.child("key"), error);
        }
      }
      for (size_t k = 0; k < N; ++k) {
        if (hits[k].found || key != keys[k]) continue;
        hits[k].found = true;
        hits[k].value_is_enum = value_is_enum;
        hits[k].index = entry_index;
        hits[k].value = need_field(entry, "value", entry_path);
      }
    }
  }

  // value.s; for an enum-valued attr GE first turns value.i into value.s.
  std::string read_s(const AttrHit& hit, const Path& attrs_path) const {
    const Path entry_path = attrs_path.at(hit.index);
    const Path value_path = entry_path.child("value");
    const object value = need_object(hit.value, value_path);
    element e;
    if (hit.value_is_enum && field(value, "i", e)) return enum_value(e, value_path.child("i"));
    return std::string(need_string(need_field(value, "s", value_path), value_path.child("s")));
  }

  int64_t read_i(const AttrHit& hit, const Path& attrs_path) const {
    const Path entry_path = attrs_path.at(hit.index);
    const Path value_path = entry_path.child("value");
    const object value = need_object(hit.value, value_path);
    if (hit.value_is_enum) fail(value_path, "enum-encoded string value, expected an integer \"i\"");
    return need_int(need_field(value, "i", value_path), value_path.child("i"));
  }

  bool read_b(const AttrHit& hit, const Path& attrs_path) const {
    const Path entry_path = attrs_path.at(hit.index);
    const Path value_path = entry_path.child("value");
    const object value = need_object(hit.value, value_path);
    return need_bool(need_field(value, "b", value_path), value_path.child("b"));
  }

  // _datadump_original_op_names: list.s, or [""] when the list has no "s".
  std::vector<std::string> read_names(const AttrHit& hit, const Path& attrs_path) const {
    const Path entry_path = attrs_path.at(hit.index);
    const Path value_path = entry_path.child("value");
    const object value = need_object(hit.value, value_path);
    const Path list_path = value_path.child("list");
    const object list = need_object(need_field(value, "list", value_path), list_path);
    element e;
    if (hit.value_is_enum && field(list, "i", e)) {
      const Path i_path = list_path.child("i");
      std::vector<std::string> out;
      size_t k = 0;
      for (const element index : need_array(e, i_path))
        out.push_back(enum_value(index, i_path.at(k++)));
      return out;
    }
    if (!field(list, "s", e)) return {std::string()};
    return read_string_list(e, list_path.child("s"));
  }

  // origin_shape: list.i, or [] when absent (GE turned an enum-valued list.i into list.s).
  Shape read_shape(const AttrHit& hit, const Path& attrs_path) const {
    const Path entry_path = attrs_path.at(hit.index);
    const Path value_path = entry_path.child("value");
    const object value = need_object(hit.value, value_path);
    const Path list_path = value_path.child("list");
    const object list = need_object(need_field(value, "list", value_path), list_path);
    element e;
    if (hit.value_is_enum || !field(list, "i", e)) return {};
    const Path i_path = list_path.child("i");
    Shape shape;
    size_t k = 0;
    for (const element dim : need_array(e, i_path)) shape.push_back(need_int(dim, i_path.at(k++)));
    return shape;
  }

  std::string enum_value(element e, const Path& path) const {
    std::string_view value;
    std::string error;
    if (!enum_.resolve_value(need_int(e, path), value, error)) fail(path, error);
    return std::string(value);
  }

  OutputDesc read_desc_attrs(element attrs, const Path& attrs_path, int default_index) {
    static constexpr std::array<std::string_view, 5> kKeys = {
        "_datadump_origin_name", "_datadump_origin_output_index", "_datadump_origin_format",
        "origin_format", "origin_shape"};
    std::array<AttrHit, 5> hits;
    scan_attrs(attrs, attrs_path, kKeys, hits);
    OutputDesc desc;
    if (hits[0].found) desc.origin_name = read_s(hits[0], attrs_path);
    desc.origin_output_index = default_index;
    if (hits[1].found) {
      const int64_t index = read_i(hits[1], attrs_path);
      if (index < INT_MIN || index > INT_MAX) {
        const Path entry_path = attrs_path.at(hits[1].index);
        const Path value_path = entry_path.child("value");
        fail(value_path.child("i"), "integer out of range");
      }
      desc.origin_output_index = static_cast<int>(index);
    }
    if (hits[2].found) desc.origin_format = read_s(hits[2], attrs_path);
    // GE's origin_format is read only when the datadump one is empty, as msaccucmp does.
    if (desc.origin_format.empty() && hits[3].found)
      desc.origin_format = read_s(hits[3], attrs_path);
    if (hits[4].found) desc.origin_shape = read_shape(hits[4], attrs_path);
    return desc;
  }

  // The entries of output_desc that have attrs; an entry's default origin index is its place.
  void read_output_descs(element descs, const Path& descs_path, FusionOp& op) {
    size_t k = 0;
    int default_index = 0;
    for (const element entry_element : need_array(descs, descs_path)) {
      const Path entry_path = descs_path.at(k++);
      const object entry = need_object(entry_element, entry_path);
      element e;
      std::string data_type;
      if (field(entry, "dtype", e))
        data_type = std::string(need_string(e, entry_path.child("dtype")));
      if (field(entry, "attr", e)) {
        op.output_desc.push_back(read_desc_attrs(e, entry_path.child("attr"), default_index));
        op.output_desc.back().data_type = std::move(data_type);
      }
      ++default_index;  // advances for entries without attrs too
    }
  }

  void read_op_attrs(element attrs, const Path& attrs_path, FusionOp& op) {
    static constexpr std::array<std::string_view, 3> kKeys = {
        "_datadump_is_multiop", "_L1_fusion_sub_graph_no", "_datadump_original_op_names"};
    std::array<AttrHit, 3> hits;
    scan_attrs(attrs, attrs_path, kKeys, hits);
    if (hits[0].found) op.is_multiop = read_b(hits[0], attrs_path);
    if (hits[1].found) op.l1_fusion_no = read_s(hits[1], attrs_path);
    if (hits[2].found) {
      op.original_op_names = read_names(hits[2], attrs_path);
      op.have_origin = true;
    }
  }

  void read_op(element op_element, const Path& path) {
    const object o = need_object(op_element, path);
    element name_e, type_e, input_e, desc_e, attr_e, id_e;
    bool has_name = false, has_type = false, has_input = false, has_desc = false;
    bool has_attr = false, has_id = false;
    for (const simdjson::dom::key_value_pair member : o) {  // one pass; the last duplicate wins
      const std::string_view key = member.key;
      if (key == "name") {
        name_e = member.value;
        has_name = true;
      } else if (key == "type") {
        type_e = member.value;
        has_type = true;
      } else if (key == "input") {
        input_e = member.value;
        has_input = true;
      } else if (key == "output_desc") {
        desc_e = member.value;
        has_desc = true;
      } else if (key == "attr") {
        attr_e = member.value;
        has_attr = true;
      } else if (key == "id") {
        id_e = member.value;
        has_id = true;
      }
    }
    // Checked in msaccucmp's order: name, type, input, output_desc, attr, id.
    if (!has_name) fail(path, "missing \"name\"");
    const std::string_view raw_name = need_string(name_e, path.child("name"));
    if (!has_type) fail(path, "missing \"type\"");
    FusionOp op;
    op.type = std::string(need_string(type_e, path.child("type")));
    op.name = strip_lxslice(raw_name);

    if (has_input) {
      const Path input_path = path.child("input");
      size_t k = 0;
      for (const element item_element : need_array(input_e, input_path)) {
        const std::string_view item = need_string(item_element, input_path.at(k++));
        // "" is an absent optional input, ":-1" a control edge; indexes count what is left.
        const bool control = item.size() >= 3 && item.substr(item.size() - 3) == ":-1";
        if (item.empty() || control) continue;
        op.inputs.push_back(strip_lxslice(item));
      }
    }

    if (has_desc) read_output_descs(desc_e, path.child("output_desc"), op);
    if (has_attr) read_op_attrs(attr_e, path.child("attr"), op);
    if (!op.have_origin) op.original_op_names.push_back(op.name);

    if (has_id) op.op_sequence = need_int(id_e, path.child("id"));
    builder_.add_op(std::move(op), raw_name);
  }

  const std::string& file_;
  FusionRuleBuilder builder_;
  AttrEnum enum_;
};

FusionRule read_rule(const simdjson::padded_string& text, const std::string& file) {
  simdjson::dom::parser parser;
  element root;
  const simdjson::error_code error = parser.parse(text).get(root);
  if (error != simdjson::SUCCESS) {
    throw format_error(file, std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  return RuleReader(file).read(root);
}

}  // namespace

FusionRule FusionRule::parse_file(const std::string& path) {
  simdjson::padded_string text;
  const simdjson::error_code error = simdjson::padded_string::load(path).get(text);
  if (error != simdjson::SUCCESS) throw format_error(path, "cannot read the fusion rule file");
  const std::string_view view(text.data(), text.size());
  if (is_ge_graph_text(path, view)) {
    return read_rule(simdjson::padded_string(ge_text_to_atc_json(view, path)), path);
  }
  return read_rule(text, path);
}

FusionRule FusionRule::parse(std::string_view json, const std::string& name_for_errors) {
  const simdjson::padded_string text(json.data(), json.size());
  return read_rule(text, name_for_errors);
}

}  // namespace dumpcmp
