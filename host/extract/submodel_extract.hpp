#pragma once
// `dumpcmp extract`: the data of a sub-model cut out of an offline model between two ops, to rerun
// or debug that part alone. Ops on any data path from the start op to the end op are selected from
// the model JSON (atc --mode=1), their dump files copied, and the start op's inputs exported as
// .npy and float16 .bin (the sub-model's inputs), with a log naming every file.
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/shape.hpp"
#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

// The ops on a data path from `start` to `end` (both included), in the JSON's op order. Throws
// Error(kUsage) naming the op for an unknown name, or when no path leads from start to end.
std::vector<std::string> ops_between(const FusionRule& graph, const std::string& start,
                                     const std::string& end);

struct ExtractOptions {
  std::string graph_json, dump_dir, start, end, output_dir;
};

struct ExtractSummary {
  std::vector<std::string> ops;
  int64_t copied = 0, missing = 0, exported = 0;
  std::string log_path;
};

ExtractSummary extract_submodel(const ExtractOptions& options);

// One input of a dump exported as STEM.npy (msaccucmp's array, in its original format) and
// STEM.float16.bin; stem is "" when the input cannot be decoded (nothing written).
struct ExportedInput {
  int index = 0;
  std::string stem, format;
  DType dtype = DType::kUndefined;
  Shape shape;
};
// Every input of the dump at `dump_path`, as "<stem_prefix>.input.<index>". Throws Error(kInput)
// for an unreadable or damaged dump.
std::vector<ExportedInput> export_dump_inputs(const std::string& dump_path,
                                              const std::string& stem_prefix);

}  // namespace dumpcmp
