#include "report/csv_writer.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/timestamp.hpp"

namespace dumpcmp {

std::string result_csv_name(const std::string& prefix) {
  return prefix + "result_" + local_timestamp() + ".csv";
}
namespace {

// float(value) in Python accepts these too.
bool is_python_float(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0' && !std::isspace(static_cast<unsigned char>(s[0]));
}

bool starts_with_injection_char(std::string_view s) {
  static constexpr std::string_view kFullWidth[] = {"\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D"};
  if (s.empty()) return false;
  if (std::string_view("=+-%@").find(s[0]) != std::string_view::npos) return true;
  for (std::string_view w : kFullWidth) {
    if (s.substr(0, w.size()) == w) return true;
  }
  return false;
}

}  // namespace

std::string csv_quote(const std::string& cell) {
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csv_defuse(const std::string& cell) {
  if (is_python_float(cell)) return cell;
  bool risky = starts_with_injection_char(cell);
  for (std::size_t p = cell.find(';'); !risky && p != std::string::npos;
       p = cell.find(';', p + 1)) {
    risky = starts_with_injection_char(std::string_view(cell).substr(p + 1));
  }
  return risky ? " " + cell : cell;
}

std::string csv_row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) line += ',';
    line += csv_quote(cells[i]);
  }
  return line + '\n';
}

std::string csv_defused_row(std::vector<std::string> cells) {
  for (std::string& cell : cells) cell = csv_defuse(cell);
  return csv_row(cells);
}

void CsvWriter::write_row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) line += ',';
    line += csv_quote(csv_defuse(cells[i]));
  }
  line += "\r\n";
  file_.write(line);
}

void CsvSink::begin(const ResultTable& table) {
  table_ = &table;
  csv_.write_row(table.header());
}

}  // namespace dumpcmp
