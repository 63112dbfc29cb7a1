#pragma once
// `--hdf5 FILE`: the result table as an HDF5 file (docs/hdf5.md): one compound record per tensor
// pair with every metric as the float64 that was computed (NaN where it was not), chunked and
// deflate-compressed, appended and flushed every 1,024 rows, and the run's facts as attributes.
// Written to FILE.partial and renamed on commit; an interrupted run leaves FILE.partial readable
// with every flushed row.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "report/hdf5_table.hpp"
#include "report/record.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {

class Hdf5Writer final : public RecordSink {
 public:
  // with_verdict adds the verdict column (the records' verdicts).
  Hdf5Writer(std::string path, bool with_verdict);
  ~Hdf5Writer() override;
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  void begin(const ResultTable& table) override;
  void write(const CompareRecord& record) override;
  void commit() override;

  // A string attribute of the root group, written at commit (inputs, options, device, times).
  void set_attribute(const std::string& name, const std::string& value);
  const std::string& path() const { return path_; }

 private:
  struct Field;
  std::string path_;
  bool with_verdict_;
  std::unique_ptr<Hdf5File> file_;
  Hdf5Table* results_ = nullptr;
  std::vector<Field> fields_;
  std::vector<std::pair<std::string, std::string>> attributes_;
};

}  // namespace dumpcmp
