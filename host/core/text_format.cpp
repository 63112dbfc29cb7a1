// Protobuf text format, as protobuf's TextFormat::Parser accepts it, without extensions and Any
// (`[name]` field names): `name: value`, `name { ... }`, `name: { ... }`, `name < ... >`,
// `name: [v, ...]` (`name [...]` too), `#` comments, optional `,`/`;` after a field
// (docs/formats.md §4.6).
#include "core/text_format.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "core/error.hpp"

namespace dumpcmp {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

std::string printable(char c) {
  if (c >= 0x21 && c < 0x7F) return std::string("'") + c + "'";
  static const char* const kHex = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kHex[b >> 4] + kHex[b & 15];
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool equals_lower(std::string_view token, std::string_view lower) {
  if (token.size() != lower.size()) return false;
  for (size_t i = 0; i < token.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(token[i])) != lower[i]) return false;
  }
  return true;
}

}  // namespace

// The tokenizer and the recursive-descent parser, one pass over the text.
class TextParser {
 public:
  TextParser(std::string_view text, TextTree& tree, const TextLimits& limits)
      : text_(text), tree_(tree), limits_(limits) {}

  void run() {
    const std::size_t limit = std::min<std::size_t>(limits_.max_bytes, UINT32_MAX);
    if (text_.size() > limit) {
      tree_.fail(1, "the text is larger than " + std::to_string(limit) +
                        " bytes, the limit of a protobuf text");
    }
    message_body(0, '\0', 1);
  }

 private:
  enum class Tok { kEnd, kIdentifier, kNumber, kString, kSymbol };
  struct Token {
    Tok kind = Tok::kEnd;
    std::string_view text;
    uint32_t line = 0;
  };

  [[noreturn]] void fail(uint32_t line, const std::string& problem) const {
    tree_.fail(line, problem);
  }

  // Skips white space and comments, counting lines.
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  // One quoted literal starting at pos_; checks its escapes.
  void scan_literal() {
    const uint32_t start_line = line_;
    const char quote = text_[pos_++];
    while (true) {
      if (pos_ >= text_.size()) fail(start_line, "unterminated string");
      const char c = text_[pos_];
      if (c == '\n') fail(start_line, "unterminated string (a string cannot span lines)");
      ++pos_;
      if (c == quote) return;
      if (c != '\\') continue;
      if (pos_ >= text_.size()) fail(start_line, "unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case 'a':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
        case 'v':
        case '\\':
        case '\'':
        case '"':
        case '?':
          break;
        case 'x':
        case 'X':
          if (pos_ >= text_.size() || !is_hex(text_[pos_])) {
            fail(line_, "invalid escape in string: \\x without hex digits");
          }
          for (int k = 0; k < 2 && pos_ < text_.size() && is_hex(text_[pos_]); ++k) ++pos_;
          break;
        case 'u':
        case 'U': {
          const int digits = e == 'u' ? 4 : 8;
          uint32_t cp = 0;
          for (int k = 0; k < digits; ++k) {
            if (pos_ >= text_.size() || !is_hex(text_[pos_])) {
              fail(line_, std::string("invalid escape in string: \\") + e + " needs " +
                              std::to_string(digits) + " hex digits");
            }
            cp = cp * 16 + static_cast<uint32_t>(hex_value(text_[pos_++]));
          }
          if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            fail(line_, "invalid escape in string: not a Unicode code point");
          }
          break;
        }
        default:
          if (is_octal(e)) {
            for (int k = 0; k < 2 && pos_ < text_.size() && is_octal(text_[pos_]); ++k) ++pos_;
            break;
          }
          fail(line_, "invalid escape in string: \\" + std::string(1, e));
      }
    }
  }

  Token next() {
    skip_space();
    Token t;
    t.line = line_;
    if (pos_ >= text_.size()) return t;
    const size_t start = pos_;
    const char c = text_[pos_];
    if (is_ident_start(c)) {
      while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
      t.kind = Tok::kIdentifier;
    } else if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      // Digits, letters (hex digits, exponent, suffix) and dots; a sign only after an exponent.
      const bool hex =
          c == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X');
      ++pos_;
      while (pos_ < text_.size()) {
        const char d = text_[pos_];
        if (is_ident_char(d) || d == '.') {
          ++pos_;
        } else if ((d == '+' || d == '-') && !hex &&
                   (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')) {
          ++pos_;
        } else {
          break;
        }
      }
      t.kind = Tok::kNumber;
    } else if (c == '"' || c == '\'') {
      scan_literal();
      // Adjacent literals form one string: "ab" 'c' == "abc".
      size_t end = pos_;
      while (true) {
        skip_space();
        if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) break;
        scan_literal();
        end = pos_;
      }
      t.kind = Tok::kString;
      t.text = text_.substr(start, end - start);
      return t;
    } else if (c == '{' || c == '}' || c == '<' || c == '>' || c == '[' || c == ']' || c == ':' ||
               c == ',' || c == ';' || c == '-') {
      ++pos_;
      t.kind = Tok::kSymbol;
    } else {
      fail(line_, "unexpected " + printable(c));
    }
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

  static bool is_symbol(const Token& t, char c) {
    return t.kind == Tok::kSymbol && t.text.size() == 1 && t.text[0] == c;
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd:
        return "the end of the text";
      case Tok::kString:
        return "a string";
      default:
        return "'" + std::string(t.text) + "'";
    }
  }

  // Fields until `close` ('}' or '>'), or until the end of the text for the top level ('\0').
  // Returns the message's index.
  uint32_t message_body(int depth, char close, uint32_t open_line) {
    std::vector<TextField> fields;
    while (true) {
      Token t = next();
      if (t.kind == Tok::kEnd) {
        if (close != '\0') {
          fail(open_line,
               std::string("unbalanced braces: the message opened here has no '") + close + "'");
        }
        break;
      }
      if (close != '\0' && is_symbol(t, close)) break;
      if (t.kind != Tok::kIdentifier) {
        if (is_symbol(t, '[')) fail(t.line, "extension and Any fields ([name]) are not supported");
        if ((is_symbol(t, '}') || is_symbol(t, '>')) && close == '\0') {
          fail(t.line, "unbalanced braces: " + describe(t) + " closes no message");
        }
        if (is_symbol(t, '}') || is_symbol(t, '>')) {
          fail(t.line, "unbalanced braces: " + describe(t) + " where the message opened at line " +
                           std::to_string(open_line) + " needs '" + close + "'");
        }
        fail(t.line, "expected a field name, found " + describe(t));
      }
      field(fields, t, depth);
      skip_space();
      if (pos_ < text_.size() && (text_[pos_] == ',' || text_[pos_] == ';')) ++pos_;
    }
    tree_.messages_.push_back(TextMessage{std::move(fields)});
    return static_cast<uint32_t>(tree_.messages_.size() - 1);
  }

  void field(std::vector<TextField>& fields, const Token& name, int depth) {
    Token t = next();
    bool colon = false;
    if (is_symbol(t, ':')) {
      colon = true;
      t = next();
    }
    if (is_symbol(t, '{') || is_symbol(t, '<')) {
      fields.push_back(message_value(name, t, depth));
      return;
    }
    if (!colon && !is_symbol(t, '[')) {  // protobuf: `name [...]` for a list of messages
      fail(t.line, "expected ':' or '{' after field \"" + std::string(name.text) + "\", found " +
                       describe(t));
    }
    if (is_symbol(t, '[')) {
      list(fields, name, depth);
      return;
    }
    fields.push_back(scalar_value(name, t));
  }

  // `name: [a, b]`, `name: [{...}, {...}]`, `name: []`: one field per item, each spanning the
  // whole list.
  void list(std::vector<TextField>& fields, const Token& name, int depth) {
    const size_t first = fields.size();
    Token item = next();
    while (!is_symbol(item, ']')) {
      if (is_symbol(item, '{') || is_symbol(item, '<')) {
        fields.push_back(message_value(name, item, depth));
      } else {
        fields.push_back(scalar_value(name, item));
      }
      const Token after = next();
      if (is_symbol(after, ']')) break;
      if (!is_symbol(after, ',')) {
        fail(after.line, "expected ',' or ']' in the list of \"" + std::string(name.text) +
                             "\", found " + describe(after));
      }
      item = next();
    }
    for (size_t i = first; i < fields.size(); ++i) fields[i].end = offset(text_.data() + pos_);
  }

  TextField message_value(const Token& name, const Token& open, int depth) {
    if (depth + 1 > limits_.max_depth) {
      fail(open.line,
           "messages nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    }
    TextField f;
    f.name = name.text;
    f.line = open.line;
    f.kind = TextValueKind::kMessage;
    f.message = message_body(depth + 1, open.text[0] == '{' ? '}' : '>', open.line);
    f.begin = offset(name.text.data());
    f.end = offset(text_.data() + pos_);
    return f;
  }

  TextField scalar_value(const Token& name, Token t) {
    TextField f = scalar_token(name, t);
    f.begin = offset(name.text.data());
    f.end = offset(f.token.data() + f.token.size());
    return f;
  }

  TextField scalar_token(const Token& name, Token t) {
    TextField f;
    f.name = name.text;
    f.line = t.line;
    if (is_symbol(t, '-')) {
      f.negative = true;
      t = next();
      const bool special = t.kind == Tok::kIdentifier &&
                           (equals_lower(t.text, "inf") || equals_lower(t.text, "infinity") ||
                            equals_lower(t.text, "nan"));
      if (t.kind != Tok::kNumber && !special) {
        fail(t.line, "expected a number after '-', found " + describe(t));
      }
      f.kind = TextValueKind::kNumber;
      f.token = t.text;
      return f;
    }
    switch (t.kind) {
      case Tok::kIdentifier:
        f.kind = TextValueKind::kIdentifier;
        break;
      case Tok::kNumber:
        f.kind = TextValueKind::kNumber;
        break;
      case Tok::kString:
        f.kind = TextValueKind::kString;
        break;
      default:
        fail(t.line,
             "expected a value for field \"" + std::string(name.text) + "\", found " + describe(t));
    }
    f.token = t.text;
    return f;
  }

  uint32_t offset(const char* at) const { return static_cast<uint32_t>(at - text_.data()); }

  std::string_view text_;
  TextTree& tree_;
  const TextLimits& limits_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
};

TextTree TextTree::parse(std::string_view text, const std::string& name_for_errors,
                         const TextLimits& limits) {
  TextTree tree;
  tree.name_ = name_for_errors;
  TextParser(text, tree, limits).run();
  return tree;
}

void TextTree::fail(uint32_t line, const std::string& problem) const {
  throw format_error(name_ + ":" + std::to_string(line), problem);
}

std::string TextTree::decode_string(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  size_t i = 0;
  while (i < token.size()) {
    // Between literals: white space and comments.
    const char quote = token[i];
    if (quote != '"' && quote != '\'') {
      if (quote == '#') {
        while (i < token.size() && token[i] != '\n') ++i;
      } else {
        ++i;
      }
      continue;
    }
    ++i;
    while (i < token.size() && token[i] != quote) {
      const char c = token[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = token[i++];
      switch (e) {
        case 'a':
          out += '\a';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'v':
          out += '\v';
          break;
        case 'x':
        case 'X': {
          int value = 0;
          for (int k = 0; k < 2 && i < token.size() && is_hex(token[i]); ++k) {
            value = value * 16 + hex_value(token[i++]);
          }
          out += static_cast<char>(value);
          break;
        }
        case 'u':
        case 'U': {
          uint32_t cp = 0;
          for (int k = 0; k < (e == 'u' ? 4 : 8); ++k) {
            cp = cp * 16 + static_cast<uint32_t>(hex_value(token[i++]));
          }
          append_utf8(out, cp);
          break;
        }
        default:
          if (is_octal(e)) {
            int value = e - '0';
            for (int k = 0; k < 2 && i < token.size() && is_octal(token[i]); ++k) {
              value = value * 8 + (token[i++] - '0');
            }
            out += static_cast<char>(value & 0xFF);
          } else {
            out += e;  // \\ \' \" \?
          }
      }
    }
    ++i;  // the closing quote
  }
  return out;
}

std::vector<std::string> TextTree::values(const TextMessage& m, std::string_view name) {
  std::vector<std::string> out;
  for (const TextField& f : m.fields) {
    if (f.name != name || f.kind == TextValueKind::kMessage) continue;
    if (f.kind == TextValueKind::kString) {
      out.push_back(decode_string(f.token));
    } else {
      out.push_back((f.negative ? "-" : "") + std::string(f.token));
    }
  }
  return out;
}

const TextField* TextTree::first_message(const TextMessage& m, std::string_view name) {
  for (const TextField& f : m.fields) {
    if (f.name == name && f.kind == TextValueKind::kMessage) return &f;
  }
  return nullptr;
}

bool text_to_uint64(std::string_view token, bool negative, uint64_t& out) {
  if (negative || token.empty()) return false;
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    base = 16;
    token.remove_prefix(2);
  } else if (token.size() > 1 && token[0] == '0') {
    base = 8;
    token.remove_prefix(1);
  }
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out, base);
  return ec == std::errc() && end == token.data() + token.size();
}

bool text_to_int64(std::string_view token, bool negative, int64_t& out) {
  uint64_t magnitude = 0;
  if (!text_to_uint64(token, false, magnitude)) return false;
  if (negative) {
    if (magnitude > uint64_t{1} << 63) return false;
    out = magnitude == uint64_t{1} << 63 ? std::numeric_limits<int64_t>::min()
                                         : -static_cast<int64_t>(magnitude);
    return true;
  }
  if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
  out = static_cast<int64_t>(magnitude);
  return true;
}

bool text_to_double(std::string_view token, bool negative, double& out) {
  uint64_t integer = 0;
  if (text_to_uint64(token, false, integer)) {
    out = static_cast<double>(integer);
  } else if (equals_lower(token, "inf") || equals_lower(token, "infinity")) {
    out = std::numeric_limits<double>::infinity();
  } else if (equals_lower(token, "nan")) {
    out = std::numeric_limits<double>::quiet_NaN();
  } else {
    if (token.empty() || !(is_digit(token[0]) || token[0] == '.')) return false;
    if (token.back() == 'f' || token.back() == 'F') token.remove_suffix(1);
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    if (end != token.data() + token.size()) return false;
    if (ec == std::errc::result_out_of_range) {
      // Overflow to infinity, underflow to zero, as strtod (and protobuf) round them.
      out = std::strtod(std::string(token).c_str(), nullptr);
    } else if (ec != std::errc()) {
      return false;
    }
  }
  if (negative) out = -out;
  return true;
}

}  // namespace dumpcmp
