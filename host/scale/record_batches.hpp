#pragma once
// Records on their way to rank 0, in messages of about a mebibyte (at most 4,096 records), each
// message starting with the bytes its receiver needs to place them (what kind, which leaf).
#include <string>

#include "report/record.hpp"
#include "scale/wire.hpp"
#include "scale/world.hpp"

namespace dumpcmp {

class RecordBatches {
 public:
  RecordBatches(World& world, std::string header) : world_(world), header_(std::move(header)) {}
  void add(const CompareRecord& record);
  // Sends what is gathered (nothing when no record is waiting).
  void flush();

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;
  static constexpr int kMaxRecords = 4096;
  World& world_;
  std::string header_;
  ByteWriter out_;
  int count_ = 0;
};

}  // namespace dumpcmp
