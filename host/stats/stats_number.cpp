#include "stats/stats_number.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/text.hpp"

namespace dumpcmp {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// Decimal text only: digits with at most one '.', at least one digit, then an optional exponent.
bool is_decimal(std::string_view s) {
  std::size_t i = 0, digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// Shortest round-trip digits of a finite, non-zero value: "d[ddd]" and the decimal exponent of
// the first digit.
template <typename T>
void shortest_digits(T value, std::string& digits, int& exponent) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  const std::string_view text(buf, static_cast<std::size_t>(result.ptr - buf));
  const std::size_t e = text.find('e');
  digits.clear();
  for (char c : text.substr(0, e)) {
    if (c >= '0' && c <= '9') digits += c;
  }
  exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
}

// The layout Python's repr and numpy's scalar str share: positional "ddd.ddd" (".0" when
// integral) or scientific "d.ddde+XX" (at least two exponent digits).
std::string lay_out(bool negative, const std::string& digits, int exponent, bool scientific) {
  std::string out = negative ? "-" : "";
  if (scientific) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return out;
  }
  if (exponent < 0) {
    out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    return out;
  }
  const auto integral = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= integral) {
    out += digits + std::string(integral - digits.size(), '0') + ".0";
  } else {
    out += digits.substr(0, integral) + "." + digits.substr(integral);
  }
  return out;
}

template <typename T>
std::string special_text(T value) {
  if (std::isnan(value)) return "nan";
  return value < 0 ? "-inf" : "inf";
}

}  // namespace

std::optional<double> parse_stat_number(std::string_view text) {
  const std::string t = trim(text);
  if (t == "null" || t == "False") return 0.0;
  if (t == "True") return 1.0;
  return parse_python_float(t);
}

std::optional<double> parse_python_float(std::string_view text) {
  const std::string t = trim(text);
  std::string_view body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (iequals(body, "nan")) return negative ? -std::nan("") : std::nan("");
  if (iequals(body, "inf") || iequals(body, "infinity")) {
    return negative ? -HUGE_VAL : HUGE_VAL;
  }
  if (!is_decimal(body)) return std::nullopt;
  // strtod rounds correctly, as Python's float() does; out-of-range text becomes +-inf or 0.
  return std::strtod(t.c_str(), nullptr);
}

std::string python_float_repr(double value) {
  if (!std::isfinite(value)) return special_text(value);
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  std::string digits;
  int exponent = 0;
  shortest_digits(std::fabs(value), digits, exponent);
  return lay_out(value < 0, digits, exponent, exponent < -4 || exponent >= 16);
}

std::string numpy_float32_str(float value, NumpyGeneration generation) {
  if (!std::isfinite(value)) return special_text(value);
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  const double magnitude = std::fabs(static_cast<double>(value));
  const double upper = generation == NumpyGeneration::kNumpy1 ? 1e16 : 1e6;
  std::string digits;
  int exponent = 0;
  shortest_digits(std::fabs(value), digits, exponent);
  return lay_out(value < 0, digits, exponent, magnitude < 1e-4 || magnitude >= upper);
}

}  // namespace dumpcmp
