#pragma once
// msprobe's --xlsx result (docs/msprobe-compare.md §7.3): the CSV's table as pandas.to_excel writes
// it through openpyxl: one sheet, inline strings, numbers as "%.16g", booleans, infinities as the
// text "inf"; above 1,048,499 rows the rows are split evenly over sheets part_0, part_1, ...
#include <string>
#include <vector>

#include "probe/probe_compare.hpp"

namespace dumpcmp {

// Writes `path` (atomically). Throws Error(kInput) naming the file when a cell could run as a
// formula (msprobe's check_df_malicious) or the workbook would pass 4 GiB.
void write_probe_xlsx(const std::string& path, const ProbeTable& table);

}  // namespace dumpcmp
