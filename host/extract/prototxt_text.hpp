#pragma once
// Protobuf text format read as a tree of fields with the byte range each was written in, so that a
// Caffe .prototxt's layers can be looked into and still copied as written (comments, spacing and
// fields the tool does not know included). fusion/ge_text_reader reads the same syntax for GE's
// graphs but keeps tokens, not the span of each field, which copying needs.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

struct PrototxtField {
  std::string key;
  std::string value;  // a scalar's value (strings unquoted and unescaped); "" for a message
  bool is_message = false;
  std::vector<PrototxtField> children;
  std::size_t begin = 0, end = 0;  // [begin, end) of the whole field in the text
};

// The fields of a text-format message. Throws Error(kInput) naming `path` and the line for
// malformed text.
std::vector<PrototxtField> parse_prototxt(std::string_view text, const std::string& path);

// The values of the scalar fields `key` among `fields`, in order.
std::vector<std::string> prototxt_values(const std::vector<PrototxtField>& fields,
                                         std::string_view key);
// The first message field `key`, or nullptr.
const PrototxtField* prototxt_message(const std::vector<PrototxtField>& fields,
                                      std::string_view key);

}  // namespace dumpcmp
