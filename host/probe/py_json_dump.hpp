#pragma once
// A JSON value tree written as Python's json.dump(value, f, indent=N) writes it: ", " never, ",\n"
// and ": " between items, non-ASCII escaped as \uXXXX, floats by repr, NaN and Infinity as bare
// tokens. msprobe's -da files (docs/msprobe-compare.md §7.5) are written this way.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dumpcmp {

struct JsonTree {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;  // kNumber: the literal (5, 5.0, 1e-05, NaN, -Infinity); kString: the value;
                     // kBool: "true" or "false"
  std::vector<JsonTree> items;                            // kArray
  std::vector<std::pair<std::string, JsonTree>> members;  // kObject, in insertion order

  static JsonTree null() { return {}; }
  static JsonTree boolean(bool value) { return {Kind::kBool, value ? "true" : "false", {}, {}}; }
  static JsonTree number(std::string literal) {
    return {Kind::kNumber, std::move(literal), {}, {}};
  }
  static JsonTree string(std::string value) { return {Kind::kString, std::move(value), {}, {}}; }
  static JsonTree array() { return {Kind::kArray, {}, {}, {}}; }
  static JsonTree object() { return {Kind::kObject, {}, {}, {}}; }

  // The member named `key`, or nullptr; for a repeated key, the one set last.
  const JsonTree* find(std::string_view key) const;
  // dict[key] = value: replaces the value of an existing key in place, else appends.
  void set(const std::string& key, JsonTree value);
};

// json.dumps(value, indent=indent), with ensure_ascii; `depth` levels in already (a value written
// inside others).
std::string python_json_dump(const JsonTree& value, int indent, int depth = 0);
// json.dumps(text): the quoted, escaped string.
std::string python_json_string(std::string_view text);

}  // namespace dumpcmp
