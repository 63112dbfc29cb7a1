#include "probe/numpy_type.hpp"

namespace dumpcmp {

NumpyType numpy_type(DType t) {
  switch (t) {
    case DType::kBool:
      return {NumpyKind::kBool, 1};
    case DType::kInt8:
      return {NumpyKind::kSigned, 1};
    case DType::kInt16:
      return {NumpyKind::kSigned, 2};
    case DType::kInt32:
      return {NumpyKind::kSigned, 4};
    case DType::kInt64:
      return {NumpyKind::kSigned, 8};
    case DType::kUInt8:
      return {NumpyKind::kUnsigned, 1};
    case DType::kUInt16:
      return {NumpyKind::kUnsigned, 2};
    case DType::kUInt32:
      return {NumpyKind::kUnsigned, 4};
    case DType::kUInt64:
      return {NumpyKind::kUnsigned, 8};
    case DType::kFloat16:
      return {NumpyKind::kFloat, 2};
    case DType::kDouble:
      return {NumpyKind::kFloat, 8};
    case DType::kComplex64:
      return {NumpyKind::kComplex, 4};
    case DType::kComplex128:
      return {NumpyKind::kComplex, 8};
    default:
      return {NumpyKind::kFloat, 4};  // float32, and bfloat16 / float8 converted to it
  }
}

NumpyType promote(NumpyType a, NumpyType b) {
  if (a == b || b.kind == NumpyKind::kBool) return a;
  if (a.kind == NumpyKind::kBool) return b;
  if (a.kind == NumpyKind::kFloat || b.kind == NumpyKind::kFloat) {
    const NumpyType f = a.kind == NumpyKind::kFloat ? a : b;
    const NumpyType i = a.kind == NumpyKind::kFloat ? b : a;
    if (i.kind == NumpyKind::kFloat) return a.bytes > b.bytes ? a : b;
    const int holds = i.bytes == 1 ? 2 : i.bytes == 2 ? 4 : 8;  // the float an integer fits
    return {NumpyKind::kFloat, f.bytes > holds ? f.bytes : holds};
  }
  if (a.kind == b.kind) return a.bytes > b.bytes ? a : b;
  const NumpyType s = a.kind == NumpyKind::kSigned ? a : b;
  const NumpyType u = a.kind == NumpyKind::kSigned ? b : a;
  if (s.bytes > u.bytes) return s;
  if (u.bytes == 8) return {NumpyKind::kFloat, 8};
  return {NumpyKind::kSigned, u.bytes * 2};
}

DType dtype_of(NumpyType t) {
  switch (t.kind) {
    case NumpyKind::kBool:
      return DType::kBool;
    case NumpyKind::kSigned:
      return t.bytes == 1   ? DType::kInt8
             : t.bytes == 2 ? DType::kInt16
             : t.bytes == 4 ? DType::kInt32
                            : DType::kInt64;
    case NumpyKind::kUnsigned:
      return t.bytes == 1   ? DType::kUInt8
             : t.bytes == 2 ? DType::kUInt16
             : t.bytes == 4 ? DType::kUInt32
                            : DType::kUInt64;
    case NumpyKind::kFloat:
      return t.bytes == 2 ? DType::kFloat16 : t.bytes == 4 ? DType::kFloat : DType::kDouble;
    case NumpyKind::kComplex:
      return t.bytes == 4 ? DType::kComplex64 : DType::kComplex128;
  }
  return DType::kUndefined;
}

}  // namespace dumpcmp
