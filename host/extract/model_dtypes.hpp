#pragma once
// A dump's data type as the model formats number theirs, for the inputs a sub-model gets when only
// the offline model or the dump knows their type.
#include <cstdint>

#include "core/dtype.hpp"

namespace dumpcmp {

int64_t onnx_elem_type(DType t);  // TensorProto.DataType; -1 when ONNX has none
int64_t tf_data_type(DType t);    // tensorflow DataType; -1 when TensorFlow has none

}  // namespace dumpcmp
