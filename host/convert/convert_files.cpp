#include "convert/convert_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "convert/convert_messages.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

void append_line(const std::string& path, const std::string& line) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f || std::fwrite(line.data(), 1, line.size(), f) != line.size()) {
    if (f) std::fclose(f);
    throw Error(ExitCode::kInput, path + ": cannot append");
  }
  std::fclose(f);
}

std::vector<std::string> input_files(const std::string& text, bool& several) {
  std::vector<std::string> files;
  several = text.find(',') != std::string::npos;
  if (several) {
    for (const std::string& piece : split_commas(text)) {
      std::string item = trim(piece);
      if (!item.empty() && fs::exists(item)) files.push_back(std::move(item));
    }
    if (files.empty()) {
      throw Error(ExitCode::kInput, msg::no_valid_file(text));
    }
    return files;
  }
  std::error_code ec;
  if (fs::is_directory(text, ec)) {
    several = true;
    for (const auto& entry : fs::directory_iterator(text, ec)) {
      if (entry.is_regular_file() && entry.path().filename() != "mapping.csv") {
        files.push_back(entry.path().string());
      }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Error(ExitCode::kInput, text + ": " + msg::dump_path_empty());
    return files;
  }
  if (!fs::is_regular_file(text, ec))
    throw Error(ExitCode::kInput, text + ": no such file or directory");
  files.push_back(text);
  return files;
}

}  // namespace dumpcmp
