#include "report/space_separated_writer.hpp"

#include "core/atomic_file.hpp"

namespace dumpcmp {

void SpaceSeparatedSink::begin(const ResultTable& table) {
  table_ = &table;
  append(table.header());
}

void SpaceSeparatedSink::append(const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
    if (i) text_ += ' ';
    text_ += cells[i];
  }
  text_ += '\n';
}

void SpaceSeparatedSink::commit() { write_file_atomically(path_, text_); }

}  // namespace dumpcmp
