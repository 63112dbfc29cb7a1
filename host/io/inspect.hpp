#pragma once
// Human and machine descriptions of a parsed dump, for `dumpcmp inspect FILE...`.
#include <string>

#include "io/dump_file.hpp"

namespace dumpcmp {

// A header block (path, encoding, version, op, dump_time, attrs) and then an aligned table with one
// line per tensor: group, index, dtype, format, shape, original shape, size, offset, address,
// origin.
std::string describe_dump_table(const DumpFile& file);
// The same facts as one JSON object (valid JSON: strings escaped, invalid UTF-8 bytes as \u00XX).
// Addresses are hex strings; the other integers are numbers.
std::string describe_dump_json(const DumpFile& file);

}  // namespace dumpcmp
