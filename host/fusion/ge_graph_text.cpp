// GE graph text -> atc JSON (docs/formats.md §4.6): ge_ir.proto's messages as a schema table, and
// a writer that prints a TextTree the way GE's Pb2Json::Message2Json prints the parsed message.
#include "fusion/ge_graph_text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/json_text.hpp"

namespace dumpcmp {
namespace {

// ---- The schema: ge_ir.proto (package ge.proto), the fields GE's writers use ----------------

enum class Msg : uint8_t {
  kNone,  // not a ge_ir.proto message: fields are carried generically
  kModel,
  kGraph,
  kOp,
  kTensorDesc,
  kShape,
  kTensor,
  kAttrEntry,  // an entry of map<string, AttrDef>: key, value
  kAttr,
  kList,
  kListListInt,
  kListInt,
  kListListFloat,
  kListFloat,
  kNamedAttrs,
};

enum class Type : uint8_t {
  kMessage,
  kString,
  kBytes,  // a singular one is C-escaped by Pb2Json, a repeated one printed raw
  kInt,    // int64
  kUInt32,
  kFloat,
  kBool,
  kDataType,       // enum DataType
  kListValueType,  // enum AttrDef.ListValue.ListValueType
};

struct FieldSpec {
  std::string_view name;
  Type type;
  bool repeated = false;
  // Printed whenever set, even to its default: oneof members and map entry fields. Other proto3
  // scalars are printed only when not the default.
  bool presence = false;
  Msg message = Msg::kNone;
};

constexpr FieldSpec scalar(std::string_view name, Type type) { return {name, type, false, false}; }
constexpr FieldSpec repeated(std::string_view name, Type type) { return {name, type, true, false}; }
constexpr FieldSpec oneof(std::string_view name, Type type) { return {name, type, false, true}; }
constexpr FieldSpec message(std::string_view name, Msg m) {
  return {name, Type::kMessage, false, false, m};
}
constexpr FieldSpec messages(std::string_view name, Msg m) {
  return {name, Type::kMessage, true, false, m};
}

constexpr FieldSpec kModelFields[] = {
    scalar("name", Type::kString),           scalar("version", Type::kUInt32),
    scalar("custom_version", Type::kString), messages("graph", Msg::kGraph),
    messages("attr", Msg::kAttrEntry),
};
constexpr FieldSpec kGraphFields[] = {
    scalar("name", Type::kString),     repeated("input", Type::kString),
    repeated("output", Type::kString), messages("op", Msg::kOp),
    messages("attr", Msg::kAttrEntry),
};
constexpr FieldSpec kOpFields[] = {
    scalar("name", Type::kString),
    scalar("type", Type::kString),
    repeated("input", Type::kString),
    messages("attr", Msg::kAttrEntry),
    scalar("has_out_attr", Type::kBool),
    scalar("id", Type::kInt),
    scalar("stream_id", Type::kInt),
    repeated("input_name", Type::kString),
    repeated("src_name", Type::kString),
    repeated("src_index", Type::kInt),
    repeated("dst_name", Type::kString),
    repeated("dst_index", Type::kInt),
    repeated("input_i", Type::kInt),
    repeated("output_i", Type::kInt),
    repeated("workspace", Type::kInt),
    repeated("workspace_bytes", Type::kInt),
    repeated("is_input_const", Type::kBool),
    messages("input_desc", Msg::kTensorDesc),
    messages("output_desc", Msg::kTensorDesc),
    repeated("subgraph_name", Type::kString),
};
constexpr FieldSpec kTensorDescFields[] = {
    scalar("name", Type::kString),        scalar("dtype", Type::kDataType),
    message("shape", Msg::kShape),        scalar("layout", Type::kString),
    messages("attr", Msg::kAttrEntry),    scalar("has_out_attr", Type::kBool),
    scalar("size", Type::kInt),           scalar("weight_size", Type::kInt),
    scalar("reuse_input", Type::kBool),   scalar("output_tensor", Type::kBool),
    scalar("device_type", Type::kString), scalar("input_tensor", Type::kBool),
    scalar("real_dim_cnt", Type::kInt),   scalar("reuse_input_index", Type::kInt),
    scalar("data_offset", Type::kInt),    scalar("cmps_size", Type::kInt),
    scalar("cmps_tab", Type::kString),    scalar("cmps_tab_offset", Type::kInt),
};
constexpr FieldSpec kShapeFields[] = {repeated("dim", Type::kInt)};
constexpr FieldSpec kTensorFields[] = {message("desc", Msg::kTensorDesc),
                                       scalar("data", Type::kBytes)};
constexpr FieldSpec kAttrEntryFields[] = {
    {"key", Type::kString, false, true},  // a map entry's key is printed even when ""
    message("value", Msg::kAttr),
};
constexpr FieldSpec kAttrFields[] = {
    oneof("s", Type::kBytes),
    oneof("i", Type::kInt),
    oneof("f", Type::kFloat),
    oneof("b", Type::kBool),
    oneof("bt", Type::kBytes),
    message("list", Msg::kList),
    message("func", Msg::kNamedAttrs),
    message("td", Msg::kTensorDesc),
    message("t", Msg::kTensor),
    message("g", Msg::kGraph),
    message("list_list_int", Msg::kListListInt),
    oneof("dt", Type::kInt),
    message("list_list_float", Msg::kListListFloat),
};
constexpr FieldSpec kListFields[] = {
    repeated("s", Type::kBytes),
    repeated("i", Type::kInt),
    repeated("f", Type::kFloat),
    repeated("b", Type::kBool),
    repeated("bt", Type::kBytes),
    messages("td", Msg::kTensorDesc),
    messages("t", Msg::kTensor),
    messages("g", Msg::kGraph),
    messages("na", Msg::kNamedAttrs),
    repeated("dt", Type::kInt),
    scalar("val_type", Type::kListValueType),
};
constexpr FieldSpec kListListIntFields[] = {messages("list_list_i", Msg::kListInt)};
constexpr FieldSpec kListIntFields[] = {repeated("list_i", Type::kInt)};
constexpr FieldSpec kListListFloatFields[] = {messages("list_list_f", Msg::kListFloat)};
constexpr FieldSpec kListFloatFields[] = {repeated("list_f", Type::kFloat)};
constexpr FieldSpec kNamedAttrsFields[] = {scalar("name", Type::kString),
                                           messages("attr", Msg::kAttrEntry)};

template <size_t N>
const FieldSpec* find_in(const FieldSpec (&table)[N], std::string_view name) {
  for (const FieldSpec& spec : table) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const FieldSpec* find_field(Msg m, std::string_view name) {
  switch (m) {
    case Msg::kModel:
      return find_in(kModelFields, name);
    case Msg::kGraph:
      return find_in(kGraphFields, name);
    case Msg::kOp:
      return find_in(kOpFields, name);
    case Msg::kTensorDesc:
      return find_in(kTensorDescFields, name);
    case Msg::kShape:
      return find_in(kShapeFields, name);
    case Msg::kTensor:
      return find_in(kTensorFields, name);
    case Msg::kAttrEntry:
      return find_in(kAttrEntryFields, name);
    case Msg::kAttr:
      return find_in(kAttrFields, name);
    case Msg::kList:
      return find_in(kListFields, name);
    case Msg::kListListInt:
      return find_in(kListListIntFields, name);
    case Msg::kListInt:
      return find_in(kListIntFields, name);
    case Msg::kListListFloat:
      return find_in(kListListFloatFields, name);
    case Msg::kListFloat:
      return find_in(kListFloatFields, name);
    case Msg::kNamedAttrs:
      return find_in(kNamedAttrsFields, name);
    case Msg::kNone:
      break;
  }
  return nullptr;
}

// GE's kOmBlackFields: never printed, in any message (weights, kernels, sizes).
bool black_listed(std::string_view name) {
  static constexpr std::array<std::string_view, 10> kBlack = {
      "output",      "data_offset", "data", "workspace", "workspace_bytes",
      "memory_size", "weight_size", "size", "bt",        "quantize_factor"};
  return std::find(kBlack.begin(), kBlack.end(), name) != kBlack.end();
}

constexpr std::array<std::string_view, 11> kListValueTypes = {
    "VT_LIST_NONE",  "VT_LIST_STRING",      "VT_LIST_INT",         "VT_LIST_FLOAT",
    "VT_LIST_BOOL",  "VT_LIST_BYTES",       "VT_LIST_TENSOR_DESC", "VT_LIST_TENSOR",
    "VT_LIST_GRAPH", "VT_LIST_NAMED_ATTRS", "VT_LIST_DATA_TYPE"};

// ---- The writer ------------------------------------------------------------------------------

class JsonWriter {
 public:
  explicit JsonWriter(const TextTree& tree) : tree_(tree) {}

  std::string run() {
    const TextMessage& root = tree_.root();
    if (!write_object(root, Msg::kModel)) out_ = "{}";
    out_ += '\n';
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const TextField& f, const std::string& problem) const {
    tree_.fail(f.line, "field \"" + std::string(f.name) + "\": " + problem);
  }

  // The fields of a message grouped by name, groups in the order of their first field.
  static std::vector<std::vector<const TextField*>> group_fields(const TextMessage& m) {
    std::vector<std::pair<std::string_view, size_t>> keyed;
    keyed.reserve(m.fields.size());
    for (size_t i = 0; i < m.fields.size(); ++i) keyed.emplace_back(m.fields[i].name, i);
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::vector<const TextField*>> groups;
    for (size_t i = 0; i < keyed.size(); ++i) {
      if (i == 0 || keyed[i].first != keyed[i - 1].first) groups.emplace_back();
      groups.back().push_back(&m.fields[keyed[i].second]);
    }
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
      return a.front() < b.front();  // fields sit in one vector: address order is text order
    });
    return groups;
  }

  // Whether protobuf would serialise the message to no bytes: Pb2Json then leaves it out.
  bool proto_empty(const TextMessage& m, Msg type) const {
    for (const TextField& f : m.fields) {
      const FieldSpec* spec = find_field(type, f.name);
      if (spec == nullptr || spec->repeated || spec->presence || spec->type == Type::kMessage) {
        return false;
      }
      if (!is_default(f, *spec)) return false;
    }
    return true;
  }

  // Writes the message as an object and returns true, or writes nothing and returns false when
  // no member is printed.
  bool write_object(const TextMessage& m, Msg type) {
    const size_t start = out_.size();
    out_ += '{';
    bool any = false;
    const TextField* oneof_member = nullptr;
    for (const std::vector<const TextField*>& group : group_fields(m)) {
      const TextField& first = *group.front();
      if (type == Msg::kAttr && find_field(type, first.name) != nullptr) {
        // Every AttrDef field is a member of its oneof `value`; protobuf refuses a second one.
        if (oneof_member != nullptr) {
          fail(first, "set along with \"" + std::string(oneof_member->name) +
                          "\", another member of the oneof \"value\"");
        }
        oneof_member = &first;
      }
      if (black_listed(first.name)) continue;
      const size_t before = out_.size();
      if (any) out_ += ',';
      out_ += json_string(first.name);
      out_ += ':';
      const FieldSpec* spec = find_field(type, first.name);
      const bool written = spec != nullptr ? write_known(group, *spec) : write_generic(group);
      if (written) {
        any = true;
      } else {
        out_.resize(before);
      }
    }
    if (!any) {
      out_.resize(start);
      return false;
    }
    out_ += '}';
    return true;
  }

  // Pb2Json prints a set message whose members all drop out as null.
  void write_message_value(const TextMessage& m, Msg type) {
    if (!write_object(m, type)) out_ += "null";
  }

  // A map keeps one entry per key, the last one given (protobuf's text parser).
  std::vector<const TextField*> map_entries(const std::vector<const TextField*>& group) const {
    std::unordered_set<std::string> seen;
    std::vector<const TextField*> kept;
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
      std::string key;
      if ((*it)->kind == TextValueKind::kMessage) {
        for (const TextField& f : tree_.message(**it).fields) {
          if (f.name == "key" && f.kind == TextValueKind::kString) {
            key = TextTree::decode_string(f.token);
          }
        }
      }
      if (seen.insert(std::move(key)).second) kept.push_back(*it);
    }
    std::reverse(kept.begin(), kept.end());
    return kept;
  }

  bool write_known(const std::vector<const TextField*>& all, const FieldSpec& spec) {
    const std::vector<const TextField*>& group =
        spec.message == Msg::kAttrEntry ? map_entries(all) : all;
    if (spec.repeated) {
      out_ += '[';
      for (size_t i = 0; i < group.size(); ++i) {
        if (i) out_ += ',';
        const TextField& f = *group[i];
        if (spec.type == Type::kMessage) {
          if (f.kind != TextValueKind::kMessage) fail(f, "expected a message");
          const TextMessage& m = tree_.message(f);
          if (proto_empty(m, spec.message)) {
            out_ += "null";
          } else {
            write_message_value(m, spec.message);
          }
        } else {
          write_scalar(f, spec, true);
        }
      }
      out_ += ']';
      return true;
    }
    if (group.size() > 1) fail(*group[1], "not a repeated field, but given more than once");
    const TextField& f = *group.front();
    if (spec.type == Type::kMessage) {
      if (f.kind != TextValueKind::kMessage) fail(f, "expected a message");
      const TextMessage& m = tree_.message(f);
      if (proto_empty(m, spec.message)) return false;
      write_message_value(m, spec.message);
      return true;
    }
    if (f.kind == TextValueKind::kMessage) fail(f, "expected a value, not a message");
    if (!spec.presence && is_default(f, spec)) return false;
    write_scalar(f, spec, false);
    return true;
  }

  // Whether a scalar holds its type's default value (a value of the wrong type is not).
  bool is_default(const TextField& f, const FieldSpec& spec) const {
    switch (spec.type) {
      case Type::kString:
      case Type::kBytes:
        return f.kind == TextValueKind::kString && TextTree::decode_string(f.token).empty();
      case Type::kInt:
      case Type::kUInt32: {
        uint64_t v = 0;
        return f.kind == TextValueKind::kNumber && text_to_uint64(f.token, false, v) && v == 0;
      }
      case Type::kFloat: {
        double v = 1;
        return f.kind != TextValueKind::kString && f.kind != TextValueKind::kMessage &&
               text_to_double(f.token, f.negative, v) && v == 0;
      }
      case Type::kBool: {
        bool v = true;
        return parse_bool(f, v) && !v;
      }
      case Type::kDataType:
      case Type::kListValueType: {
        uint64_t v = 0;
        if (f.kind == TextValueKind::kNumber) return text_to_uint64(f.token, f.negative, v) && !v;
        return f.kind == TextValueKind::kIdentifier &&
               f.token == (spec.type == Type::kDataType ? "DT_UNDEFINED" : "VT_LIST_NONE");
      }
      case Type::kMessage:
        break;
    }
    return false;
  }

  static bool parse_bool(const TextField& f, bool& out) {
    if (f.kind == TextValueKind::kIdentifier) {
      if (f.token == "true" || f.token == "True" || f.token == "t") {
        out = true;
        return true;
      }
      if (f.token == "false" || f.token == "False" || f.token == "f") {
        out = false;
        return true;
      }
      return false;
    }
    uint64_t v = 0;
    if (f.kind != TextValueKind::kNumber || !text_to_uint64(f.token, f.negative, v) || v > 1) {
      return false;
    }
    out = v == 1;
    return true;
  }

  void write_scalar(const TextField& f, const FieldSpec& spec, bool in_list) {
    switch (spec.type) {
      case Type::kString:
      case Type::kBytes: {
        if (f.kind != TextValueKind::kString) fail(f, "expected a string");
        const std::string bytes = TextTree::decode_string(f.token);
        out_ += json_string(spec.type == Type::kBytes && !in_list ? c_escape(bytes) : bytes);
        return;
      }
      case Type::kInt: {
        int64_t v = 0;
        if (f.kind != TextValueKind::kNumber || !text_to_int64(f.token, f.negative, v)) {
          fail(f, "expected a 64-bit integer");
        }
        out_ += std::to_string(v);
        return;
      }
      case Type::kUInt32: {
        uint64_t v = 0;
        if (f.kind != TextValueKind::kNumber || !text_to_uint64(f.token, f.negative, v) ||
            v > UINT32_MAX) {
          fail(f, "expected an unsigned 32-bit integer");
        }
        out_ += std::to_string(v);
        return;
      }
      case Type::kFloat:
        write_float(f, in_list);
        return;
      case Type::kBool: {
        bool v = false;
        if (!parse_bool(f, v)) fail(f, "expected true or false");
        out_ += v ? "true" : "false";
        return;
      }
      case Type::kDataType:
      case Type::kListValueType:
        write_enum(f, spec.type);
        return;
      case Type::kMessage:
        break;
    }
  }

  // A singular float: Pb2Json's "%g" text in a 10-byte buffer, or the number when that does not
  // fit. A repeated one: the number (null when not finite, as nlohmann::json prints it).
  void write_float(const TextField& f, bool in_list) {
    double d = 0;
    if (f.kind == TextValueKind::kString || f.kind == TextValueKind::kMessage ||
        !text_to_double(f.token, f.negative, d)) {
      fail(f, "expected a number");
    }
    const auto value = static_cast<float>(d);
    char buf[32];
    if (!in_list) {
      const int n = std::snprintf(buf, sizeof buf, "%g", static_cast<double>(value));
      if (n > 0 && n < 10) {
        out_ += json_string(buf);
        return;
      }
    }
    if (!std::isfinite(value)) {
      out_ += "null";
      return;
    }
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(value));
    out_ += buf;
  }

  void write_enum(const TextField& f, Type type) {
    if (f.kind == TextValueKind::kIdentifier) {
      out_ += json_string(f.token);
      return;
    }
    int64_t v = 0;
    if (f.kind != TextValueKind::kNumber || !text_to_int64(f.token, f.negative, v)) {
      fail(f, "expected an enum name or number");
    }
    std::string_view name;
    if (type == Type::kListValueType && v >= 0 &&
        v < static_cast<int64_t>(kListValueTypes.size())) {
      name = kListValueTypes[static_cast<size_t>(v)];
    } else if (type == Type::kDataType && v >= 0 && v <= INT32_MAX) {
      name = dtype_wire_name(static_cast<DType>(v));
    }
    out_ += name.empty() ? std::to_string(v) : json_string(name);
  }

  // A field ge_ir.proto does not have: one value, or an array when the name repeats.
  bool write_generic(const std::vector<const TextField*>& group) {
    if (group.size() == 1) {
      write_generic_value(*group.front());
      return true;
    }
    out_ += '[';
    for (size_t i = 0; i < group.size(); ++i) {
      if (i) out_ += ',';
      write_generic_value(*group[i]);
    }
    out_ += ']';
    return true;
  }

  void write_generic_value(const TextField& f) {
    switch (f.kind) {
      case TextValueKind::kString:
        out_ += json_string(TextTree::decode_string(f.token));
        return;
      case TextValueKind::kIdentifier:
        if (f.token == "true" || f.token == "false") {
          out_ += f.token;
        } else {
          out_ += json_string(f.token);
        }
        return;
      case TextValueKind::kNumber:
        write_generic_number(f);
        return;
      case TextValueKind::kMessage:
        if (!write_object(tree_.message(f), Msg::kNone)) out_ += "{}";
        return;
    }
  }

  void write_generic_number(const TextField& f) {
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    if (text_to_int64(f.token, f.negative, i)) {
      out_ += std::to_string(i);
    } else if (text_to_uint64(f.token, f.negative, u)) {
      out_ += std::to_string(u);
    } else if (text_to_double(f.token, f.negative, d)) {
      if (std::isfinite(d)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        out_ += buf;
      } else {
        out_ += json_string(std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
      }
    } else {
      fail(f, "invalid number " + std::string(f.negative ? "-" : "") + std::string(f.token));
    }
  }

  const TextTree& tree_;
  std::string out_;
};

std::string_view extension(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot);
}

}  // namespace

bool is_ge_graph_text(std::string_view path, std::string_view text) {
  const std::string_view ext = extension(path);
  if (ext == ".json") return false;
  if (ext == ".txt" || ext == ".pbtxt" || ext == ".prototxt") return true;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c != '{' && c != '[';
  }
  return false;  // empty: the JSON reader reports it
}

std::string ge_text_to_atc_json(std::string_view text, const std::string& name_for_errors,
                                const TextLimits& limits) {
  const TextTree tree = TextTree::parse(text, name_for_errors, limits);
  return JsonWriter(tree).run();
}

std::string c_escape(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default: {
        const auto b = static_cast<unsigned char>(c);
        if (b < 0x20 || b >= 0x7F) {
          out += '\\';
          out += static_cast<char>('0' + (b >> 6));
          out += static_cast<char>('0' + ((b >> 3) & 7));
          out += static_cast<char>('0' + (b & 7));
        } else {
          out += c;
        }
      }
    }
  }
  return out;
}

}  // namespace dumpcmp
