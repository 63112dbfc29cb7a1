#pragma once
// Small text helpers with Python's meaning, for msprobe's names and cells.
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// str.split(sep): every piece, empty ones included.
std::vector<std::string_view> split(std::string_view text, char sep);
// Whether `part` is one of the '.'-separated components of `name`.
bool has_component(std::string_view name, std::string_view part);
// str.replace(from, to): every occurrence; an empty `from` leaves the text as it is.
std::string replace_all(const std::string& text, const std::string& from, const std::string& to);
// str.isdigit() for ASCII: at least one character, all of them 0-9.
bool is_digits(std::string_view text);
// str.strip("[]"): every '[' and ']' at either end removed.
std::string strip_brackets(std::string_view text);
// str.lower() for ASCII letters.
std::string lower_ascii(std::string_view text);
// msprobe's formula guard (^[＋－＝％＠+\-=%@]|;[＋－＝％＠+\-=%@]): a cell a spreadsheet could
// run.
bool is_formula_like(std::string_view text);
// msprobe's check_value_is_valid refusing a cell: some ';'-piece is not a float and the cell looks
// like a formula.
bool is_malicious_cell(std::string_view cell);
// format(zlib.crc32(text), "08x").
std::string crc32_hex(std::string_view text);

}  // namespace dumpcmp
