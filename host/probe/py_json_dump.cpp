#include "probe/py_json_dump.hpp"

namespace dumpcmp {
namespace {

void append_escaped(std::string& out, uint32_t code) {
  static const char* const kHex = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
}

// The code point of the UTF-8 sequence at text[i], advancing i; a byte that does not start a
// valid sequence stands for itself (U+0080..U+00FF), as a Latin-1 reading would take it.
uint32_t next_code_point(std::string_view text, size_t& i) {
  const auto b = static_cast<unsigned char>(text[i]);
  const int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  if (length == 1 || i + length > text.size()) return text[i++] & 0xFF;
  uint32_t code = b & (0x7F >> length);
  for (int k = 1; k < length; ++k) {
    const auto c = static_cast<unsigned char>(text[i + k]);
    if ((c & 0xC0) != 0x80) return text[i++] & 0xFF;
    code = (code << 6) | (c & 0x3F);
  }
  i += length;
  return code;
}

void append_string(std::string& out, std::string_view text) {
  out += '"';
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const uint32_t code = next_code_point(text, i);
      if (code >= 0x10000) {  // a UTF-16 surrogate pair, as ensure_ascii writes it
        append_escaped(out, 0xD800 + ((code - 0x10000) >> 10));
        append_escaped(out, 0xDC00 + ((code - 0x10000) & 0x3FF));
      } else {
        append_escaped(out, code);
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {  // outside ' '..'~
          append_escaped(out, static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_value(std::string& out, const JsonTree& value, int indent, int depth) {
  const auto newline = [&](int level) {
    out += '\n';
    out.append(static_cast<size_t>(indent) * level, ' ');
  };
  switch (value.kind) {
    case JsonTree::Kind::kNull:
      out += "null";
      return;
    case JsonTree::Kind::kBool:
    case JsonTree::Kind::kNumber:
      out += value.text;
      return;
    case JsonTree::Kind::kString:
      append_string(out, value.text);
      return;
    case JsonTree::Kind::kArray:
      if (value.items.empty()) {
        out += "[]";
        return;
      }
      out += '[';
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        append_value(out, value.items[i], indent, depth + 1);
      }
      newline(depth);
      out += ']';
      return;
    case JsonTree::Kind::kObject:
      if (value.members.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (size_t i = 0; i < value.members.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        append_string(out, value.members[i].first);
        out += ": ";
        append_value(out, value.members[i].second, indent, depth + 1);
      }
      newline(depth);
      out += '}';
      return;
  }
}

}  // namespace

const JsonTree* JsonTree::find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

void JsonTree::set(const std::string& key, JsonTree value) {
  for (auto& [name, old] : members) {
    if (name == key) {
      old = std::move(value);
      return;
    }
  }
  members.emplace_back(key, std::move(value));
}

std::string python_json_dump(const JsonTree& value, int indent, int depth) {
  std::string out;
  append_value(out, value, indent, depth);
  return out;
}

std::string python_json_string(std::string_view text) {
  std::string out;
  append_string(out, text);
  return out;
}

}  // namespace dumpcmp
