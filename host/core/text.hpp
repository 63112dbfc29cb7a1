#pragma once
// Small text helpers every command-line value and rule file goes through.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// The pieces of a comma-separated list as written: untrimmed, empty pieces kept ("a,,b" -> 3).
std::vector<std::string> split_commas(std::string_view text);

// text without leading and trailing white space (" \t\r\n\f\v").
std::string trim(std::string_view text);

// A natural number written as 1 to max_digits decimal digits and nothing else; nullopt otherwise.
std::optional<int64_t> parse_natural(std::string_view text, std::size_t max_digits = 18);
// A whole number as Python's int() reads it: white space around, an optional sign, digits.
std::optional<int64_t> parse_integer(std::string_view text);
bool ends_with(std::string_view text, std::string_view suffix);
// text with & < > " ' written as HTML character references, for the HTML files dumpcmp writes.
std::string html_escape(std::string_view text);

}  // namespace dumpcmp
