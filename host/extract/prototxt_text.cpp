#include "extract/prototxt_text.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"

namespace dumpcmp {
namespace {

constexpr int kMaxDepth = 100;  // deeper nesting is not a real model

class TextParser {
 public:
  TextParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  std::vector<PrototxtField> message(char close, int depth) {
    if (depth > kMaxDepth) fail("messages nested too deeply");
    std::vector<PrototxtField> fields;
    for (;;) {
      skip_space();
      if (pos_ >= text_.size()) {
        if (close) fail(std::string("missing '") + close + "'");
        return fields;
      }
      if (close && text_[pos_] == close) {
        ++pos_;
        return fields;
      }
      field(fields, depth);
    }
  }

 private:
  void field(std::vector<PrototxtField>& fields, int depth) {
    PrototxtField f;
    f.begin = pos_;
    f.key = word();
    if (f.key.empty()) fail("expected a field name");
    skip_space();
    bool colon = false;
    if (peek() == ':') {
      ++pos_;
      colon = true;
      skip_space();
    }
    if (peek() == '{' || peek() == '<') {
      const char close = peek() == '{' ? '}' : '>';
      ++pos_;
      f.is_message = true;
      f.children = message(close, depth + 1);
    } else if (colon && peek() == '[') {
      // `key: [a, b]`: one field per value.
      ++pos_;
      for (;;) {
        skip_space();
        if (peek() == ']') {
          ++pos_;
          break;
        }
        PrototxtField item;
        item.key = f.key;
        item.begin = f.begin;
        item.value = scalar();
        item.end = pos_;
        fields.push_back(std::move(item));
        skip_space();
        if (peek() == ',') ++pos_;
      }
      separator();
      return;
    } else {
      if (!colon) fail("expected ':' after \"" + f.key + "\"");
      f.value = scalar();
    }
    f.end = pos_;
    separator();
    fields.push_back(std::move(f));
  }

  void separator() {
    skip_space();
    if (peek() == ',' || peek() == ';') ++pos_;
  }

  std::string scalar() {
    skip_space();
    if (peek() == '"' || peek() == '\'') {
      std::string out;
      size_t end = pos_;
      while (peek() == '"' || peek() == '\'') {  // adjacent strings are joined
        out += quoted();
        end = pos_;
        skip_space();
      }
      pos_ = end;  // the field ends with its last string, not with what follows
      return out;
    }
    std::string w = word();
    if (w.empty()) fail("expected a value");
    return w;
  }

  std::string word() {
    const size_t begin = pos_;
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (!(std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '+')) break;
      ++pos_;
    }
    return std::string(text_.substr(begin, pos_ - begin));
  }

  std::string quoted() {
    const char quote = text_[pos_++];
    std::string out;
    for (;;) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') fail("unterminated string");
      const char c = text_[pos_++];
      if (c == quote) return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        default:
          if (e >= '0' && e <= '7') {  // octal, up to three digits
            int v = e - '0';
            for (int k = 0;
                 k < 2 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7'; ++k) {
              v = v * 8 + (text_[pos_++] - '0');
            }
            out += static_cast<char>(v & 0xff);
          } else {
            out += e;  // \\ \" \' and the rest as themselves
          }
      }
    }
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        return;
      }
    }
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  [[noreturn]] void fail(const std::string& problem) const {
    const size_t line =
        1 + static_cast<size_t>(std::count(
                text_.begin(),
                text_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, text_.size())), '\n'));
    throw format_error(path_, "line " + std::to_string(line) + ": " + problem);
  }

  std::string_view text_;
  const std::string& path_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<PrototxtField> parse_prototxt(std::string_view text, const std::string& path) {
  return TextParser(text, path).message('\0', 0);
}

std::vector<std::string> prototxt_values(const std::vector<PrototxtField>& fields,
                                         std::string_view key) {
  std::vector<std::string> out;
  for (const PrototxtField& f : fields) {
    if (!f.is_message && f.key == key) out.push_back(f.value);
  }
  return out;
}

const PrototxtField* prototxt_message(const std::vector<PrototxtField>& fields,
                                      std::string_view key) {
  for (const PrototxtField& f : fields) {
    if (f.is_message && f.key == key) return &f;
  }
  return nullptr;
}

}  // namespace dumpcmp
