#include "probe/probe_text.hpp"

#include <zlib.h>

#include <cstdio>

#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

bool starts_formula(std::string_view s) {
  static constexpr std::string_view kFullWidth[] = {"\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\x9D",
                                                    "\xEF\xBC\x85", "\xEF\xBC\xA0"};
  if (s.empty()) return false;
  if (std::string_view("+-=%@").find(s[0]) != std::string_view::npos) return true;
  for (const std::string_view w : kFullWidth) {
    if (s.substr(0, w.size()) == w) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t at = text.find(sep); at != std::string_view::npos; at = text.find(sep, start)) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

bool has_component(std::string_view name, std::string_view part) {
  for (const std::string_view piece : split(name, '.')) {
    if (piece == part) return true;
  }
  return false;
}

std::string replace_all(const std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  std::string out;
  size_t start = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, start)) {
    out.append(text, start, at - start);
    out += to;
    start = at + from.size();
  }
  out.append(text, start, std::string::npos);
  return out;
}

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool is_formula_like(std::string_view text) {
  if (starts_formula(text)) return true;
  for (size_t at = text.find(';'); at != std::string_view::npos; at = text.find(';', at + 1)) {
    if (starts_formula(text.substr(at + 1))) return true;
  }
  return false;
}

std::string crc32_hex(std::string_view text) {
  const uLong crc =
      crc32(0L, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size()));
  char out[9];
  std::snprintf(out, sizeof out, "%08lx", static_cast<unsigned long>(crc));
  return out;
}

bool is_malicious_cell(std::string_view cell) {
  for (const std::string_view piece : split(cell, ';')) {
    if (!parse_python_float(piece)) return is_formula_like(cell);
  }
  return false;
}

std::string strip_brackets(std::string_view text) {
  const size_t begin = text.find_first_not_of("[]");
  if (begin == std::string_view::npos) return "";
  return std::string(text.substr(begin, text.find_last_not_of("[]") - begin + 1));
}

bool is_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace dumpcmp
