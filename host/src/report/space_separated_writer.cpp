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

void SpaceSeparatedWriter::commit() {
  const std::string partial = path_ + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  const bool ok = f && std::fwrite(text_.data(), 1, text_.size(), f) == text_.size();
  if (f && std::fclose(f) != 0) f = nullptr;
  if (!ok || !f || std::rename(partial.c_str(), path_.c_str()) != 0) {
    std::remove(partial.c_str());
    throw Error(ExitCode::kInput, path_ + ": cannot write the result file: " + std::strerror(errno));
  }
}

}  // namespace dumpcmp
