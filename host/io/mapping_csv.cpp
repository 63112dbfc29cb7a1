#include "io/mapping_csv.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace dumpcmp {
namespace {

// One row of Python's csv.reader (default dialect): ',' separated, '"' quotes a field, "" inside
// quotes is a quote. Rows never span lines here: mapping rows are "hash,basename".
std::vector<std::string> split_csv_row(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  bool field_start = true;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      field_start = true;
      continue;
    } else if (c == '"' && field_start) {
      quoted = true;
    } else {
      field += c;
    }
    field_start = false;
  }
  fields.push_back(std::move(field));
  return fields;
}

}  // namespace

HashMapping parse_mapping_csv(std::string_view text, std::vector<std::string>& skipped) {
  HashMapping mapping;
  mapping.present = true;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::vector<std::string> row = split_csv_row(line);
    if (row.size() != 2) {
      skipped.push_back(std::string(kMappingFileName) + ":" + std::to_string(line_number) +
                        ": expected 2 columns (hash,name), found " + std::to_string(row.size()));
      continue;
    }
    mapping.names[row[0]] = row[1];
  }
  return mapping;
}

}  // namespace dumpcmp
