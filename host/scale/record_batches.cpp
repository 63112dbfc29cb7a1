#include "scale/record_batches.hpp"

namespace dumpcmp {

void RecordBatches::add(const CompareRecord& record) {
  if (count_ == 0) out_.bytes() = header_;
  write_record(out_, record);
  if (++count_ >= kMaxRecords || out_.bytes().size() >= kFlushBytes) flush();
}

void RecordBatches::flush() {
  if (count_ == 0) return;
  world_.send(0, out_.take());
  count_ = 0;
}

}  // namespace dumpcmp
