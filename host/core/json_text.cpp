#include "core/json_text.hpp"

#include <cstdint>
#include <cstdio>

namespace dumpcmp {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<uint8_t>(s[i]);
  std::size_t n = 0;
  uint32_t cp = 0;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2;
    cp = b0 & 0x1Fu;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3;
    cp = b0 & 0x0Fu;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4;
    cp = b0 & 0x07u;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<uint8_t>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  // Reject overlong forms, surrogates and code points past U+10FFFF.
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const std::size_t n = utf8_length(s, i);
    if (n == 1 && ch == '"') {
      out += "\\\"";
    } else if (n == 1 && ch == '\\') {
      out += "\\\\";
    } else if (n == 1 && ch == '\n') {
      out += "\\n";
    } else if (n == 1 && ch == '\t') {
      out += "\\t";
    } else if (n == 0 || static_cast<uint8_t>(ch) < 0x20 || ch == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<uint8_t>(ch)));
      out += buf;
    } else {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    ++i;
  }
  return out + "\"";
}

}  // namespace dumpcmp
