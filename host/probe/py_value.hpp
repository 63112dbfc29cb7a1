#pragma once
// msprobe's dump.json, stack.json and construct.json as Python's json module hands them to msprobe
// (docs/msprobe-compare.md §2.2): one parse with simdjson, after the bare NaN, Infinity and
// -Infinity tokens Python writes are turned into marked strings, and values printed as Python's
// str() prints them.
#include <simdjson.h>

#include <memory>
#include <string>
#include <string_view>

#include "probe/py_json_dump.hpp"

namespace dumpcmp {

// A JSON document kept alive with the parser that owns its elements.
class PyJson {
 public:
  // Parses text; throws Error(kInput) naming name_for_errors.
  static PyJson parse(std::string_view text, const std::string& name_for_errors);

  simdjson::dom::element root() const { return root_; }

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
};

// Python's float value of a marked non-finite token, if `text` is one.
bool py_special_float(std::string_view text, double& out);

// Python's str() of the value: None, True/False, ints, floats by repr, strings as they are, lists
// and dicts by repr ([1, 'a'], {'k': None}).
std::string py_str(simdjson::dom::element value);
// Python's repr(): as py_str, but strings quoted and escaped.
std::string py_repr(simdjson::dom::element value);
// The value as json.load gives it to Python, for json.dump to write again.
JsonTree py_json_tree(simdjson::dom::element value);
// Python's repr() of a str.
std::string py_repr_string(std::string_view text);

}  // namespace dumpcmp
