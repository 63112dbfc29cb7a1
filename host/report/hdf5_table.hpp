#pragma once
// An HDF5 file of result tables (docs/hdf5.md): each table a one-dimensional dataset of compound
// records (text as variable-length UTF-8, int64, float64), chunked by 1,024 rows and deflate-
// compressed, flushed to the file every 1,024 rows so that an interruption keeps every finished
// row. The file is written as FILE.partial and renamed on commit.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/atomic_file.hpp"

namespace dumpcmp {

enum class Hdf5Kind { kText, kInt64, kFloat64 };

struct Hdf5Field {
  std::string name;
  Hdf5Kind kind = Hdf5Kind::kText;
};

// One table's records, appended a row at a time: begin_row(), every field set, end_row().
class Hdf5Table {
 public:
  ~Hdf5Table();
  Hdf5Table(const Hdf5Table&) = delete;
  Hdf5Table& operator=(const Hdf5Table&) = delete;

  const std::vector<Hdf5Field>& fields() const { return fields_; }
  void begin_row();  // a record of empty texts, zeros and NaNs until set
  void set_text(std::size_t field, std::string value);
  void set_integer(std::size_t field, int64_t value);
  void set_number(std::size_t field, double value);
  void end_row();  // writes the pending rows to the file when they fill a chunk
  // A string attribute of the dataset, written when the file commits.
  void set_attribute(const std::string& name, const std::string& value);

 private:
  friend class Hdf5File;
  Hdf5Table(int64_t file, const std::string& dataset, std::vector<Hdf5Field> fields,
            const std::string& file_name);
  void flush();
  void finish();  // the last rows and the attributes
  uint8_t* field_at(std::size_t field);

  std::string file_name_;  // for messages
  std::vector<Hdf5Field> fields_;
  std::vector<std::size_t> offsets_;
  std::size_t record_size_ = 0;
  int64_t file_ = -1, dataset_ = -1, type_ = -1, string_type_ = -1;
  std::vector<uint8_t> buffer_;    // rows waiting for the next flush
  std::deque<std::string> texts_;  // the strings those rows point at
  uint64_t rows_ = 0, pending_ = 0;
  std::vector<std::pair<std::string, std::string>> attributes_;
};

class Hdf5File {
 public:
  explicit Hdf5File(std::string path);  // creates path.partial; throws Error(kInput)
  ~Hdf5File();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  // A new table at `dataset`, a path inside the file ("results", "pairs/rank0/results"), its
  // groups created on the way.
  Hdf5Table& add_table(const std::string& dataset, std::vector<Hdf5Field> fields);
  // A string attribute of the root group, written at commit (inputs, options, device, times).
  void set_attribute(const std::string& name, const std::string& value);
  // Writes every table's last rows and the attributes, closes the file and renames it to path.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  PartialOutput output_;
  int64_t file_ = -1;
  std::vector<std::unique_ptr<Hdf5Table>> tables_;
  std::vector<std::pair<std::string, std::string>> attributes_;
};

}  // namespace dumpcmp
