#pragma once
#include <string>

#include "dumpcmp/io/dump_file.hpp"
#include "dumpcmp/metrics/element_source.hpp"

namespace dumpcmp {

// Checks one tensor's dtype, shape and payload size and, when they hold, points src at its elements
// (msaccucmp reads prod(shape) elements and ignores surplus bytes). Returns "" or the problem, naming
// the file and the tensor.
std::string tensor_element_source(const DumpFile& file, const TensorInfo& tensor, ElementSource& src);

// msaccucmp fails the whole op when any input or output has a type it cannot decode; the message
// is its own ("The output data type (28) does not support."). Returns "" when every type decodes.
std::string undecodable_dtype_message(const DumpFile& file);

}  // namespace dumpcmp
