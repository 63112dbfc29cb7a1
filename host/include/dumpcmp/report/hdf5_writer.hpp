#pragma once
// `--hdf5 FILE`: the result table as an HDF5 file (docs/hdf5.md): one compound record per tensor
// pair with every metric as a float64 (NaN where the cell is not a number), chunked and
// deflate-compressed, appended and flushed every 1,024 rows, and the run's facts as attributes.
// Written to FILE.partial and renamed on commit; an interrupted run leaves FILE.partial readable
// with every flushed row.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dumpcmp/report/result_row.hpp"
#include "dumpcmp/report/verdict.hpp"

namespace dumpcmp {

class Hdf5Writer final : public ReportWriter {
 public:
  // `rules` (optional) adds the verdict column.
  Hdf5Writer(std::string path, const VerdictRules* rules);
  ~Hdf5Writer() override;
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  void begin(const std::vector<std::string>& header) override;
  void write(const ResultRow& row) override;
  void commit() override;

  // A string attribute of the root group, written at commit (inputs, options, device, times).
  void set_attribute(const std::string& name, const std::string& value);
  const std::string& path() const { return path_; }

 private:
  struct State;
  void flush();
  std::string path_, partial_;
  const VerdictRules* rules_;
  std::unique_ptr<State> state_;
  std::vector<std::pair<std::string, std::string>> attributes_;
};

}  // namespace dumpcmp
