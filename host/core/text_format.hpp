#pragma once
// A bounded reader of protobuf's text format, the syntax of GE's graph dumps
// (ge_proto_*_Build.txt, docs/formats.md §4.6) and of Caffe's .prototxt (§10.3). It knows no
// schema: it checks the syntax and keeps each message as its list of fields, each value as its
// token, decoded when it is used, and each field's byte span, so that a block can be copied as
// written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

struct TextLimits {
  std::size_t max_bytes = (std::size_t{1} << 32) - 1;  // the largest text read (spans are 32-bit)
  int max_depth = 64;                                  // messages nested inside the top level
};

enum class TextValueKind : uint8_t {
  kIdentifier,  // true, DT_FLOAT, inf, ...
  kNumber,      // 12, -3, 0x1f, 017, 1.5e3, 2.5f, -inf (sign in `negative`)
  kString,      // one or more adjacent quoted literals, escapes not yet decoded
  kMessage,     // `{ ... }` or `< ... >`
};

struct TextField {
  std::string_view name;
  // kIdentifier, kNumber: the token (without the sign); kString: from the first opening quote to
  // the last closing quote.
  std::string_view token;
  uint32_t line = 0;
  // [begin, end): the field in the text, from its name to its value's last byte (a message's
  // closing brace). The fields of one `name: [a, b]` list share the list's span.
  uint32_t begin = 0, end = 0;
  TextValueKind kind = TextValueKind::kIdentifier;
  bool negative = false;  // kNumber: written with a leading '-'
  uint32_t message = 0;   // kMessage: index for TextTree::message()
};

struct TextMessage {
  std::vector<TextField> fields;  // in text order; a `name: [a, b]` list gives one field each
};

// The parsed text. Tokens are views into the text given to parse(), which must outlive the tree.
class TextTree {
 public:
  // Throws Error(kInput) "NAME:LINE: problem" for a syntax error, a bad escape, nesting deeper than
  // limits.max_depth, or a text over limits.max_bytes.
  static TextTree parse(std::string_view text, const std::string& name_for_errors,
                        const TextLimits& limits = {});

  const TextMessage& root() const { return messages_.back(); }
  const TextMessage& message(const TextField& field) const { return messages_[field.message]; }
  const std::string& name() const { return name_; }

  // The bytes of a kString value: escapes decoded (C's, octal, \x hex, \u and \U as UTF-8) and
  // adjacent literals joined. The escapes were checked by parse().
  static std::string decode_string(std::string_view token);

  // The scalar fields `name` of `m` in text order, as text: strings decoded, numbers with their
  // sign, identifiers as written.
  static std::vector<std::string> values(const TextMessage& m, std::string_view name);
  // The first message field `name` of `m`, or nullptr.
  static const TextField* first_message(const TextMessage& m, std::string_view name);

  // Error(kInput) "NAME:LINE: problem".
  [[noreturn]] void fail(uint32_t line, const std::string& problem) const;

 private:
  friend class TextParser;
  std::string name_;
  std::vector<TextMessage> messages_;  // children before their parents; the root last
};

// Protobuf's integer syntax (decimal, 0x hex, 0 octal) of a kNumber token, sign applied. False if
// the token is not an integer or out of range.
bool text_to_int64(std::string_view token, bool negative, int64_t& out);
bool text_to_uint64(std::string_view token, bool negative, uint64_t& out);
// A float token (1.5, 1e-3, .5, 2f, inf, nan, or an integer), sign applied. False otherwise.
bool text_to_double(std::string_view token, bool negative, double& out);

}  // namespace dumpcmp
