#include "dumpcmp/report/space_separated_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "dumpcmp/core/error.hpp"

namespace dumpcmp {

void SpaceSeparatedWriter::append(const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
    if (i) text_ += ' ';
    text_ += cells[i];
  }
  text_ += '\n';
}

void SpaceSeparatedWriter::commit() { write_text_file(path_, text_); }

void SpaceSeparatedWriter::write_text_file(const std::string& path, const std::string& text) {
  const std::string partial = path + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f) ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(partial.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(partial.c_str());
    throw Error(ExitCode::kInput, path + ": cannot write the result file: " + std::strerror(err));
  }
}

}  // namespace dumpcmp
