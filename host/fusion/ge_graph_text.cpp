// GE graph text -> atc JSON (docs/formats.md §4.6): a writer that prints a TextTree through
// ge_ir.proto's schema (ge_ir_schema) the way GE's Pb2Json::Message2Json prints the parsed message.
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
#include "fusion/ge_ir_schema.hpp"

namespace dumpcmp {
namespace {

using ge_ir::FieldSpec;
using ge_ir::Msg;
using ge_ir::Type;

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
      const FieldSpec* spec = ge_ir::find_field(type, f.name);
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
      if (type == Msg::kAttr && ge_ir::find_field(type, first.name) != nullptr) {
        // Every AttrDef field is a member of its oneof `value`; protobuf refuses a second one.
        if (oneof_member != nullptr) {
          fail(first, "set along with \"" + std::string(oneof_member->name) +
                          "\", another member of the oneof \"value\"");
        }
        oneof_member = &first;
      }
      if (ge_ir::black_listed(first.name)) continue;
      const size_t before = out_.size();
      if (any) out_ += ',';
      out_ += json_string(first.name);
      out_ += ':';
      const FieldSpec* spec = ge_ir::find_field(type, first.name);
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
        v < static_cast<int64_t>(ge_ir::kListValueTypes.size())) {
      name = ge_ir::kListValueTypes[static_cast<size_t>(v)];
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
