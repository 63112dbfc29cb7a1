#pragma once
// mapping.csv, which the dumper writes beside hashed dump file names: "hash,real basename" rows
// (docs/formats.md §3.2; msaccucmp's mapping.py).
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dumpcmp {

inline constexpr std::string_view kMappingFileName = "mapping.csv";

struct HashMapping {
  bool present = false;  // a mapping.csv was there
  std::unordered_map<std::string, std::string> names;
};

// Parses the file's text. Rows without exactly 2 columns are reported in `skipped` as
// "mapping.csv:LINE: ..." and ignored, as mapping.py does; a later row for the same hash wins.
HashMapping parse_mapping_csv(std::string_view text, std::vector<std::string>& skipped);

}  // namespace dumpcmp
