#include "probe/probe_yaml.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <string_view>

namespace dumpcmp {
namespace {

// PyYAML's implicit resolvers (YAML 1.1): a plain scalar matching one reads back as a bool, an
// int, a float, null, a timestamp, a merge key or a value key, so a string like it is quoted.
bool resolves_to_non_string(const std::string& s) {
  static const std::regex kImplicit(
      "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
      "|[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
      "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)"
      "|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
      "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+|<<|~|null|Null|NULL|="
      "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
      "(?:(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?"
      "(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)?");
  return std::regex_match(s, kImplicit);
}

// PyYAML's analyze_scalar, for block context: whether the string can be written plain.
bool plain_allowed(const std::string& s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ') return false;
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e) return false;  // breaks and specials: PyYAML quotes them
  }
  static constexpr std::string_view kLeading = "#,[]{}&*!|>'\"%@`";
  if (kLeading.find(s.front()) != std::string_view::npos) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool followed_by_space = i + 1 == s.size() || s[i + 1] == ' ';
    const char c = s[i];
    if ((c == '-' || c == '?') && i == 0 && followed_by_space) return false;
    if (c == ':' && followed_by_space) return false;
    if (c == '#' && s[i - 1] == ' ') return false;
  }
  return !resolves_to_non_string(s);
}

constexpr size_t kBestWidth = 80;  // PyYAML's default width
constexpr size_t kIndent = 2;      // a scalar's continuation lines

// The code points of UTF-8 text (a byte that starts no valid sequence stands for itself).
std::u32string code_points(std::string_view text) {
  std::u32string out;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    char32_t c = length == 1 ? b : b & (0x7F >> length);
    bool valid = length == 1 || i + length <= text.size();
    for (int k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xC0) == 0x80;
      c = (c << 6) | (next & 0x3F);
    }
    if (!valid)
      c = b, i += 1;
    else
      i += static_cast<size_t>(length);
    out.push_back(c);
  }
  return out;
}

// analyze_scalar without allow_unicode: a character that only a double-quoted scalar can hold.
bool special(char32_t c) { return !(c == U'\n' || (c >= 0x20 && c <= 0x7E)); }
bool line_break(char32_t c) { return c == U'\n' || c == 0x85 || c == 0x2028 || c == 0x2029; }

std::string escape(char32_t c) {
  static const std::pair<char32_t, const char*> kShort[] = {
      {0, "0"},      {0x07, "a"}, {0x08, "b"}, {0x09, "t"},   {0x0A, "n"},
      {0x0B, "v"},   {0x0C, "f"}, {0x0D, "r"}, {0x1B, "e"},   {U'"', "\""},
      {U'\\', "\\"}, {0x85, "N"}, {0xA0, "_"}, {0x2028, "L"}, {0x2029, "P"}};
  for (const auto& [code, text] : kShort) {
    if (c == code) return std::string("\\") + text;
  }
  char hex[16];
  if (c <= 0xFF) {
    std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(c));
  } else if (c <= 0xFFFF) {
    std::snprintf(hex, sizeof hex, "\\u%04X", static_cast<unsigned>(c));
  } else {
    std::snprintf(hex, sizeof hex, "\\U%08X", static_cast<unsigned>(c));
  }
  return hex;
}

// write_double_quoted: the scalar from `column` on, escapes in uppercase hex, and (with split) a
// line longer than the width broken after an escape or at a space with a trailing backslash.
void double_quoted(std::string& out, const std::u32string& text, size_t& column, bool split) {
  const auto ascii = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) out += static_cast<char>(text[k]);
  };
  out += '"';
  ++column;
  const auto n = static_cast<long long>(text.size());
  long long start = 0;
  for (long long end = 0; end <= n; ++end) {
    const bool has = end < n;
    const char32_t ch = has ? text[static_cast<size_t>(end)] : 0;
    if (!has || ch == U'"' || ch == U'\\' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 ||
        ch == 0xFEFF || !(ch >= 0x20 && ch <= 0x7E)) {
      if (start < end) {
        ascii(static_cast<size_t>(start), static_cast<size_t>(end));
        column += static_cast<size_t>(end - start);
        start = end;
      }
      if (has) {
        const std::string data = escape(ch);
        out += data;
        column += data.size();
        start = end + 1;
      }
    }
    if (split && 0 < end && end < n - 1 && (ch == U' ' || start >= end) &&
        static_cast<long long>(column) + (end - start) > static_cast<long long>(kBestWidth)) {
      if (start < end) {
        ascii(static_cast<size_t>(start), static_cast<size_t>(end));
        column += static_cast<size_t>(end - start);
        start = end;
      }
      out += "\\\n" + std::string(kIndent, ' ');
      column = kIndent;
      if (text[static_cast<size_t>(start)] == U' ') {
        out += "\\";
        ++column;
      }
    }
  }
  out += '"';
  ++column;
}

// One scalar as PyYAML writes it from `column`: plain, single-quoted or double-quoted.
void scalar(std::string& out, const std::string& s, size_t& column, bool split) {
  const std::u32string text = code_points(s);
  bool has_special = false;
  for (const char32_t c : text) has_special = has_special || special(c);
  if (has_special) return double_quoted(out, text, column, split);
  if (plain_allowed(s)) {
    out += s;
    column += s.size();
    return;
  }
  out += '\'';
  for (const char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  out += '\'';
  column += s.size() + 2 + static_cast<size_t>(std::count(s.begin(), s.end(), '\''));
}

// check_simple_key: a key of fewer than 128 characters with its "!!str" tag, on one line.
bool simple_key(const std::string& key) {
  const std::u32string text = code_points(key);
  if (text.size() + 5 >= 128) return false;
  for (const char32_t c : text) {
    if (line_break(c)) return false;
  }
  return true;
}

}  // namespace

std::string pyyaml_flat_dict(const std::vector<std::pair<std::string, std::string>>& entries) {
  if (entries.empty()) return "{}\n";
  std::string out;
  for (const auto& [key, value] : entries) {
    size_t column = 0;
    if (simple_key(key)) {
      scalar(out, key, column, false);
      out += ": ";
      column += 2;
    } else {  // "? KEY" then ": VALUE" on the next line
      out += "? ";
      column = 2;
      scalar(out, key, column, true);
      out += "\n: ";
      column = 2;
    }
    scalar(out, value, column, true);
    out += "\n";
  }
  return out;
}

}  // namespace dumpcmp
