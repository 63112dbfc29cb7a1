#include "probe/py_value.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "core/error.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

// A NUL can only reach a parsed string through a \u0000 escape, so a mark that starts with one
// cannot be confused with a string Python wrote.
constexpr std::string_view kMark = "\\u0000";

// The text with Python's bare NaN, Infinity and -Infinity (outside strings) written as marked
// strings: "\u0000NaN", "\u0000Infinity", "\u0000-Infinity".
std::string mark_special_floats(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 64);
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    for (const std::string_view token : {"NaN", "Infinity", "-Infinity"}) {
      if (text.compare(i, token.size(), token) == 0) {
        out += '"';
        out += kMark;
        out += token;
        out += '"';
        i += token.size() - 1;
        goto next;
      }
    }
    out += c;
  next:;
  }
  return out;
}

void append_repr(std::string& out, simdjson::dom::element value);

// str() differs from repr() only for a string, which it writes as it is.
void append_str(std::string& out, simdjson::dom::element value) {
  std::string_view text;
  double special = 0;
  if (value.get(text) == simdjson::SUCCESS && !py_special_float(text, special)) {
    out += text;
    return;
  }
  append_repr(out, value);
}

void append_repr(std::string& out, simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      out += "None";
      return;
    case simdjson::dom::element_type::BOOL:
      out += bool(value) ? "True" : "False";
      return;
    case simdjson::dom::element_type::INT64:
      out += std::to_string(int64_t(value));
      return;
    case simdjson::dom::element_type::UINT64:
      out += std::to_string(uint64_t(value));
      return;
    case simdjson::dom::element_type::DOUBLE:
      out += python_float_repr(double(value));
      return;
    case simdjson::dom::element_type::STRING: {
      const std::string_view text(value);
      double special = 0;
      if (py_special_float(text, special)) {
        out += python_float_repr(special);
      } else {
        out += py_repr_string(text);
      }
      return;
    }
    case simdjson::dom::element_type::ARRAY: {
      out += '[';
      bool first = true;
      for (const simdjson::dom::element item : simdjson::dom::array(value)) {
        if (!first) out += ", ";
        first = false;
        append_repr(out, item);
      }
      out += ']';
      return;
    }
    case simdjson::dom::element_type::OBJECT: {
      out += '{';
      bool first = true;
      for (const simdjson::dom::key_value_pair member : simdjson::dom::object(value)) {
        if (!first) out += ", ";
        first = false;
        out += py_repr_string(member.key);
        out += ": ";
        append_repr(out, member.value);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

PyJson PyJson::parse(std::string_view text, const std::string& name_for_errors) {
  PyJson json;
  json.parser_ = std::make_unique<simdjson::dom::parser>();
  const std::string marked = mark_special_floats(text);
  const simdjson::error_code error = json.parser_->parse(marked).get(json.root_);
  if (error != simdjson::SUCCESS) {
    throw format_error(name_for_errors,
                       std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  return json;
}

bool py_special_float(std::string_view text, double& out) {
  if (text.size() < 4 || text[0] != '\0') return false;
  const std::string_view token = text.substr(1);
  if (token == "NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
  } else if (token == "Infinity") {
    out = std::numeric_limits<double>::infinity();
  } else if (token == "-Infinity") {
    out = -std::numeric_limits<double>::infinity();
  } else {
    return false;
  }
  return true;
}

std::string py_str(simdjson::dom::element value) {
  std::string out;
  append_str(out, value);
  return out;
}

std::string py_repr(simdjson::dom::element value) {
  std::string out;
  append_repr(out, value);
  return out;
}

JsonTree py_json_tree(simdjson::dom::element value) {
  switch (value.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      return JsonTree::null();
    case simdjson::dom::element_type::BOOL:
      return JsonTree::boolean(bool(value));
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      return JsonTree::number(py_str(value));
    case simdjson::dom::element_type::STRING: {
      const std::string_view text(value);
      double special = 0;
      if (!py_special_float(text, special)) return JsonTree::string(std::string(text));
      return JsonTree::number(std::string(text.substr(1)));  // NaN, Infinity, -Infinity
    }
    case simdjson::dom::element_type::ARRAY: {
      JsonTree out = JsonTree::array();
      for (const simdjson::dom::element item : simdjson::dom::array(value))
        out.items.push_back(py_json_tree(item));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      JsonTree out = JsonTree::object();
      for (const simdjson::dom::key_value_pair member : simdjson::dom::object(value))
        out.set(std::string(member.key), py_json_tree(member.value));
      return out;
    }
  }
  return JsonTree::null();
}

std::string py_repr_string(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  static const char* const kHex = "0123456789abcdef";
  std::string out(1, quote);
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (b < 0x20 || b == 0x7F) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    } else {
      out += c;  // printable ASCII and UTF-8 sequences, which Python 3 keeps
    }
  }
  out += quote;
  return out;
}

}  // namespace dumpcmp
