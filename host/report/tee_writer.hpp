#pragma once
#include <vector>

#include "report/record.hpp"

namespace dumpcmp {

// Hands every record to several sinks (the CSV, the HDF5 file, the analysis, the advisor).
class TeeSink final : public RecordSink {
 public:
  explicit TeeSink(std::vector<RecordSink*> sinks) : sinks_(std::move(sinks)) {}
  void begin(const ResultTable& table) override {
    for (RecordSink* s : sinks_) s->begin(table);
  }
  void write(const CompareRecord& record) override {
    for (RecordSink* s : sinks_) s->write(record);
  }
  void commit() override {
    for (RecordSink* s : sinks_) s->commit();
  }

 private:
  std::vector<RecordSink*> sinks_;
};

}  // namespace dumpcmp
