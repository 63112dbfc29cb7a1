#pragma once
// `dumpcmp convert -t dump`: framework .npy files named op_name.output_index.timestamp.npy become
// Ascend binary dumps ("Npy.<op>.0.0.<timestamp>", the outputs in index order), which dumpcmp and
// msaccucmp both read: to compare two frameworks' dumps, or to feed tools that only take dumps.
#include <cstdint>
#include <string>

namespace dumpcmp {

struct NpyToDumpSummary {
  int64_t npy_files = 0;
  int64_t dumps = 0;
};

// path: one .npy file, a comma-separated list, or a directory of them. Throws Error naming the
// file for a name outside the pattern, an unreadable file, or output indexes with gaps.
NpyToDumpSummary convert_npy_to_dumps(const std::string& path, const std::string& output_dir);

}  // namespace dumpcmp
