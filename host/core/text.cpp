#include "core/text.hpp"

namespace dumpcmp {

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = text.find(',', begin);
    parts.emplace_back(text.substr(
        begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin));
    if (comma == std::string_view::npos) return parts;
    begin = comma + 1;
  }
}

std::string trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const std::size_t b = text.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return std::string(text.substr(b, text.find_last_not_of(kSpace) - b + 1));
}

std::optional<int64_t> parse_natural(std::string_view text, std::size_t max_digits) {
  if (text.empty() || text.size() > max_digits || max_digits > 18) return std::nullopt;
  int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::optional<int64_t> parse_integer(std::string_view text) {
  const std::string t = trim(text);
  std::string_view body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  const std::optional<int64_t> n = parse_natural(body);
  if (!n) return std::nullopt;
  return negative ? -*n : *n;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace dumpcmp
