#pragma once
// Protobuf text format read as a tree of fields with the byte range each was written in, so that a
// Caffe .prototxt's layers can be looked into and still copied as written (comments, spacing and
// fields the tool does not know included).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

struct TextField {
  std::string key;
  std::string value;  // a scalar's value (strings unquoted and unescaped); "" for a message
  bool is_message = false;
  std::vector<TextField> children;
  std::size_t begin = 0, end = 0;  // [begin, end) of the whole field in the text
};

// The fields of a text-format message. Throws Error(kInput) naming `path` and the line for
// malformed text.
std::vector<TextField> parse_text_message(std::string_view text, const std::string& path);

// The values of the scalar fields `key` among `fields`, in order.
std::vector<std::string> text_values(const std::vector<TextField>& fields, std::string_view key);
// The first message field `key`, or nullptr.
const TextField* text_message(const std::vector<TextField>& fields, std::string_view key);

}  // namespace dumpcmp
