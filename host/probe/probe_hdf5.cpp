#include "probe/probe_hdf5.hpp"

#include <charconv>
#include <cmath>

#include "probe/probe_compare.hpp"
#include "report/hdf5_table.hpp"

namespace dumpcmp {

double probe_cell_number(const std::string& cell) {
  if (cell == "True") return 1.0;
  if (cell == "False") return 0.0;
  const char* begin = cell.data();
  const char* end = begin + cell.size();
  while (begin != end && *begin == ' ') ++begin;  // the CSV writes infinities as " inf", " -inf"
  if (begin != end && end[-1] == '%') --end;
  double value = NAN;
  const auto [stop, error] = std::from_chars(begin, end, value);
  return error == std::errc() && stop == end ? value : NAN;  // reads Python's inf, -inf, nan
}

void write_probe_hdf5(const std::string& path, const ProbeRunOptions& options,
                      const ProbeRunResult& result) {
  Hdf5File file(path);
  for (const ProbeResultTable& table : result.tables) {
    std::vector<Hdf5Field> fields;
    for (const std::string& column : table.header) {
      fields.push_back(
          {column, probe_number_column(column) ? Hdf5Kind::kFloat64 : Hdf5Kind::kText});
    }
    Hdf5Table& out =
        file.add_table(table.pair.empty() ? "results" : "pairs/" + table.pair + "/results", fields);
    for (const std::vector<std::string>& row : table.rows) {
      out.begin_row();
      for (std::size_t c = 0; c < row.size() && c < fields.size(); ++c) {
        if (fields[c].kind == Hdf5Kind::kText) {
          out.set_text(c, row[c]);
        } else {
          out.set_number(c, probe_cell_number(row[c]));
        }
      }
      out.end_row();
    }
    if (!table.pair.empty()) out.set_attribute("pair", table.pair);
  }
  file.set_attribute("tool", "dumpcmp");
  file.set_attribute("target_path", options.target_path);
  file.set_attribute("golden_path", options.golden_path);
  file.set_attribute("command", options.command);
  file.commit();
}

}  // namespace dumpcmp
