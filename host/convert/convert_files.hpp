#pragma once
// What the conversion tools share: which files an input argument names, and the failed-file list.
#include <string>
#include <vector>

namespace dumpcmp {

// The input files: one file, the files of a directory (not recursive, mapping.csv skipped, sorted),
// or a comma-separated list (entries that do not exist are skipped). `several` is false only for
// one file named alone. Throws Error(kInput) naming the argument when it names no file.
std::vector<std::string> input_files(const std::string& text, bool& several);

// Appends a line to a file (convert_failed_file_list.txt, mapping.csv); throws Error(kInput).
void append_line(const std::string& path, const std::string& line);

}  // namespace dumpcmp
