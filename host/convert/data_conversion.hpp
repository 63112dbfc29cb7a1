#pragma once
// The seed's dump_data_conversion tool (msaccucmp's conversion/data_conversion.py, docs/formats.md
// §8.3): -target numpy turns dump files into .npy files named by -type's naming rule; -target
// dump turns framework .npy files into binary dumps named for that kind of dump directory.
#include <cstdint>
#include <string>

#include "core/diagnostics.hpp"

namespace dumpcmp {

struct DataConversionOptions {
  std::string type;    // caffe | tf | quant | offline | sim (offline naming)
  std::string target;  // numpy | dump
  std::string input;   // a file, or a directory whose files are all converted
  std::string output_dir;
  DiagnosticSink report;  // skipped tensors, files that fail (the run goes on)
};

struct DataConversionSummary {
  int64_t files = 0;
  int64_t failed_files = 0;  // listed in convert_failed_file_list.txt
  int64_t written = 0;
};

// Throws Error(kUsage) for an unknown type or target and Error(kInput) when the input or output
// directory cannot be used or the single input file fails; a failing file of a directory is
// reported, listed, and the others are converted.
DataConversionSummary convert_data(const DataConversionOptions& options);

}  // namespace dumpcmp
