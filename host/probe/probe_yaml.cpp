#include "probe/probe_yaml.hpp"

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

std::string scalar(const std::string& s) {
  if (plain_allowed(s)) return s;
  std::string quoted = "'";
  for (const char c : s) {
    quoted += c;
    if (c == '\'') quoted += '\'';
  }
  return quoted + "'";
}

}  // namespace

std::string pyyaml_flat_dict(const std::vector<std::pair<std::string, std::string>>& entries) {
  if (entries.empty()) return "{}\n";
  std::string out;
  for (const auto& [key, value] : entries) {
    // PyYAML writes a key as a simple key only below 128 characters of its event, which counts
    // the key's text and a few more: 123 characters of text or more make it a "? " key.
    out += key.size() >= 123 ? "? " + scalar(key) + "\n: " : scalar(key) + ": ";
    out += scalar(value) + "\n";
  }
  return out;
}

}  // namespace dumpcmp
