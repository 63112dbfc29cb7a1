#include "probe/probe_pandas2.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dumpcmp {
namespace {

// The doubles nearest 10^0 ... 10^308 (the C literals 1e0 ... 1e308 of pandas' table).
const std::array<double, 309>& powers_of_ten() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    for (int k = 0; k <= 308; ++k) {
      char text[8];
      std::snprintf(text, sizeof text, "1e%d", k);
      t[static_cast<size_t>(k)] = std::strtod(text, nullptr);
    }
    return t;
  }();
  return table;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

double pandas2_to_numeric(std::string_view text) {
  constexpr long kMaxDigits = 17;
  size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  long exponent = 0, digits = 0, decimals = 0;
  double number = 0;
  for (; i < text.size() && is_digit(text[i]); ++i) {
    if (digits < kMaxDigits) {
      number = number * 10.0 + (text[i] - '0');
      ++digits;
    } else {
      ++exponent;
    }
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; digits < kMaxDigits && i < text.size() && is_digit(text[i]); ++i) {
      number = number * 10.0 + (text[i] - '0');
      ++digits;
      ++decimals;
    }
    while (i < text.size() && is_digit(text[i])) ++i;
    exponent -= decimals;
  }
  if (negative) number = -number;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    exponent += std::strtol(std::string(text.substr(i + 1)).c_str(), nullptr, 10);
  }
  const std::array<double, 309>& e = powers_of_ten();
  if (exponent > 308) return number == 0 ? 0 : (number < 0 ? -HUGE_VAL : HUGE_VAL);
  if (exponent > 0) return number * e[static_cast<size_t>(exponent)];
  if (exponent < -616) return 0.0;  // pandas sets +0 whatever the sign
  if (exponent < -308) return number / e[static_cast<size_t>(-308 - exponent)] / e[308];
  return number / e[static_cast<size_t>(-exponent)];
}

}  // namespace dumpcmp
