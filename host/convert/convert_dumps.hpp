#pragma once
// `dumpcmp convert` (msaccucmp's convert, docs/formats.md §8): dump files to .npy or .bin, every
// tensor as msaccucmp's array, optionally converted to another format (-f, with -s for
// FRACTAL_NZ and -i/-o to pick one tensor of one file).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

struct ConvertOptions {
  std::string dump_path;          // -d: a file, a comma-separated list, or a directory
  std::string output_dir;         // -out
  std::string file_type = "npy";  // -t: npy | bin | msnpy | pt
  std::optional<Format> format;   // -f: the target format
  Shape shape;                    // -s: the target shape (FRACTAL_NZ)
  std::string tensor;             // "input" / "output" when -i / -o picked one (single file only)
  int index = 0;
  std::string custom_dir;  // -c: DIR/format_convert/convert_{FROM}_to_{TO}.py replace built-ins
  DiagnosticSink report;   // files and tensors that could not be converted, notes on conversions
};

struct ConvertSummary {
  int64_t files = 0;
  int64_t failed_files = 0;  // listed in convert_failed_file_list.txt (several files given)
  int64_t written = 0;       // output files
};

// Throws Error for problems that stop everything (no input, output dir unusable, a bad index for
// the single file); a file or tensor that cannot be converted is reported and skipped.
ConvertSummary convert_dumps(const ConvertOptions& options);

// msaccucmp's -s syntax "1,3,224,224" (every dim > 0); throws Error(kUsage) otherwise.
Shape parse_convert_shape(const std::string& text);

}  // namespace dumpcmp
