#include "extract/model_dtypes.hpp"

namespace dumpcmp {

int64_t onnx_elem_type(DType t) {
  switch (t) {
    case DType::kFloat:
      return 1;
    case DType::kUInt8:
      return 2;
    case DType::kInt8:
      return 3;
    case DType::kUInt16:
      return 4;
    case DType::kInt16:
      return 5;
    case DType::kInt32:
      return 6;
    case DType::kInt64:
      return 7;
    case DType::kString:
      return 8;
    case DType::kBool:
      return 9;
    case DType::kFloat16:
      return 10;
    case DType::kDouble:
      return 11;
    case DType::kUInt32:
      return 12;
    case DType::kUInt64:
      return 13;
    case DType::kComplex64:
      return 14;
    case DType::kComplex128:
      return 15;
    case DType::kBFloat16:
      return 16;
    default:
      return -1;
  }
}

int64_t tf_data_type(DType t) {
  switch (t) {
    case DType::kFloat:
      return 1;
    case DType::kDouble:
      return 2;
    case DType::kInt32:
      return 3;
    case DType::kUInt8:
      return 4;
    case DType::kInt16:
      return 5;
    case DType::kInt8:
      return 6;
    case DType::kString:
      return 7;
    case DType::kComplex64:
      return 8;
    case DType::kInt64:
      return 9;
    case DType::kBool:
      return 10;
    case DType::kBFloat16:
      return 14;
    case DType::kUInt16:
      return 17;
    case DType::kComplex128:
      return 18;
    case DType::kFloat16:
      return 19;
    case DType::kUInt32:
      return 22;
    case DType::kUInt64:
      return 23;
    default:
      return -1;
  }
}

}  // namespace dumpcmp
