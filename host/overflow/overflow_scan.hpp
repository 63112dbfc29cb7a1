#pragma once
// `dumpcmp overflow` (msaccucmp's overflow, docs/formats.md §8, docs/algorithms.md §7): the ops the
// device flagged in Opdebug overflow files, with their tensors, and beyond msaccucmp a scan of
// every dump for NaN, +-inf and fp16 overflow (|x| >= 65504), in data order.
#include <cstdint>
#include <string>
#include <vector>

#include "io/dump_file.hpp"

namespace dumpcmp {

struct TensorSpecials {
  int64_t elements = 0;
  int64_t nan = 0, pos_inf = 0, neg_inf = 0;
  int64_t fp16_overflow = 0;  // fp16 only: |x| >= 65504, infinities included
  bool any() const { return nan + pos_inf + neg_inf + fp16_overflow > 0; }
};

// Counts over the tensor's elements (exact integers: the same for any thread count). Types other
// than floating point give zeros.
TensorSpecials count_specials(const DumpFile& file, const TensorInfo& tensor);

// One device overflow record of an Opdebug file (both layouts).
struct OverflowRecord {
  std::string type;  // "AI Core", "DHA Atomic Add", "L2 Atomic Add" (old layout), "AIC", "AIV", ...
  uint64_t task_id = 0, stream_id = 0;
  std::string status;                       // as msaccucmp prints it: a number, or "[a, b, c, d]"
  int64_t context_id = -1, thread_id = -1;  // -1: not given (65535 in the file)
};

// Parses the payload of an Opdebug.Node_OpDebug output: the 0x5A5A5A5A-magic layout or the
// 2048-byte one. Throws Error naming `where` when it is neither, or no status is set. For the
// magic layout `json` (if given) receives msaccucmp's {file}.output.{i}.json text.
std::vector<OverflowRecord> parse_opdebug(const uint8_t* data, uint64_t size,
                                          const std::string& where, std::string* json = nullptr);

struct OverflowOptions {
  std::string dump_dir;    // -d
  std::string output_dir;  // -out
  int top_n = 1;           // -n, 1..5: Opdebug records shown (msaccucmp's)
  int scan_first = 20;     // --first: dumps with NaN / Inf / fp16 overflow listed by the scan
};

// Writes <out>/overflow_summary_<ts>.txt (and the flagged ops' tensors as .npy, as msaccucmp
// does) and returns its text.
std::string analyse_overflow(const OverflowOptions& options, std::string& summary_path);

}  // namespace dumpcmp
