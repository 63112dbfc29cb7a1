#pragma once
// numpy's types of the arrays msprobe computes on (bfloat16 and float8 read as float32, as msprobe
// converts them before numpy sees them) and numpy.result_type of two of them.
#include "core/dtype.hpp"

namespace dumpcmp {

enum class NumpyKind { kBool, kSigned, kUnsigned, kFloat, kComplex };

struct NumpyType {
  NumpyKind kind;
  int bytes;  // kComplex: bytes per part
  bool operator==(const NumpyType& o) const { return kind == o.kind && bytes == o.bytes; }
};

NumpyType numpy_type(DType t);

// numpy.result_type of two arrays of real (not complex) types.
NumpyType promote(NumpyType a, NumpyType b);

// The dtype holding a numpy type's elements.
DType dtype_of(NumpyType t);

}  // namespace dumpcmp
