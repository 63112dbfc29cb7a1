#pragma once
#include <string>

#include "io/dump_file.hpp"
#include "math/element_source.hpp"

namespace dumpcmp {

struct ElementCheck {
  std::string error;  // the tensor cannot be compared: names the file, the tensor and the problem
  std::string note;   // compared, but msaccucmp's reading is misleading (a short payload)
};

// Checks one tensor's dtype, shape and payload and points src at its elements. Like msaccucmp it
// reads the first prod(shape) elements, ignores surplus bytes, and reads only the whole elements a
// short payload holds (a quirk, reported in `note`).
ElementCheck tensor_element_source(const DumpFile& file, const TensorInfo& tensor,
                                   ElementSource& src);

// msaccucmp fails the whole op when any input or output has a type it cannot decode; the message
// is its own ("The output data type (28) does not support."). Returns "" when every type decodes.
std::string undecodable_dtype_message(const DumpFile& file);

// msaccucmp's OverFlow cell (OverflowDetection): fp16 tensors only, on the raw dumped data
// (padding included); "YES" when max|x| >= 65504 (inf counts; a NaN makes numpy's max NaN, so
// "NO"), "NaN" for other dtypes and empty tensors.
std::string fp16_overflow_cell(const DumpFile& file, const TensorInfo& tensor);

}  // namespace dumpcmp
