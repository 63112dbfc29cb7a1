#include "detail/element_errors.hpp"

#include <cmath>

#include "math/element_decode.hpp"

namespace dumpcmp::single_op {
namespace {

enum class Kind { kBool, kHalf, kFloat, kDouble, kSmallInt /* 8 bit */, kMidInt /* 16 */, kBigInt };

Kind kind_of(DType t) {
  switch (t) {
    case DType::kBool:
      return Kind::kBool;
    case DType::kFloat16:
      return Kind::kHalf;
    case DType::kFloat:
    case DType::kBFloat16:  // widened to float32 when parsed
      return Kind::kFloat;
    case DType::kDouble:
    case DType::kFloat8E4M3FN:  // decoded to Python floats
    case DType::kFloat8E5M2:
    case DType::kHiFloat8:
    case DType::kComplex64:
    case DType::kComplex128:
      return Kind::kDouble;
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kUInt1:
    case DType::kUndefined:
      return Kind::kSmallInt;
    case DType::kInt16:
    case DType::kUInt16:
      return Kind::kMidInt;
    default:
      return Kind::kBigInt;
  }
}

}  // namespace

Arith promote(DType a, DType b) {
  Kind x = kind_of(a), y = kind_of(b);
  if (x == Kind::kBool && y == Kind::kBool) return Arith::kBool;
  if (x == Kind::kBool) x = y;
  if (y == Kind::kBool) y = x;
  auto is_int = [](Kind k) {
    return k == Kind::kSmallInt || k == Kind::kMidInt || k == Kind::kBigInt;
  };
  if (is_int(x) && is_int(y)) return Arith::kInt;
  if (x == Kind::kDouble || y == Kind::kDouble) return Arith::kDouble;
  if (!is_int(x) && !is_int(y)) {  // two floats: the wider
    return x == Kind::kFloat || y == Kind::kFloat ? Arith::kFloat : Arith::kHalf;
  }
  const Kind f = is_int(x) ? y : x, i = is_int(x) ? x : y;  // a float and an int
  if (f == Kind::kHalf && i == Kind::kSmallInt) return Arith::kHalf;
  if (i == Kind::kBigInt) return Arith::kDouble;
  return Arith::kFloat;
}

namespace {

float round_half(float f) { return decode_fp16(encode_fp16(f)); }

}  // namespace

ErrorPair errors(Arith arith, double x, double y) {
  switch (arith) {
    case Arith::kHalf: {
      const float a = std::fabs(round_half(static_cast<float>(x) - static_cast<float>(y)));
      return {a, round_half(a / std::fabs(static_cast<float>(y)))};
    }
    case Arith::kFloat: {
      const float a = std::fabs(static_cast<float>(x) - static_cast<float>(y));
      return {a, a / std::fabs(static_cast<float>(y))};
    }
    case Arith::kInt: {
      const double a = std::fabs(x - y);  // int arithmetic, exact below 2^53
      return {a, a / std::fabs(y)};       // true_divide: float64
    }
    case Arith::kDouble: {
      const double a = std::fabs(x - y);
      return {a, a / std::fabs(y)};
    }
    case Arith::kBool:
      break;
  }
  return {NAN, NAN};
}

double value_at(const DetailSide& side, int64_t i) {
  const int64_t s = side.map.identity ? i : side.map.source_index(i);
  if (s < 0) return 0.0;
  const uint8_t* d = side.data;
  switch (side.dtype) {
    case DType::kDouble:
      return load_unaligned<double>(d + 8 * s);
    case DType::kComplex128:
      return load_unaligned<double>(d + 16 * s);
    case DType::kInt64:
      return static_cast<double>(load_unaligned<int64_t>(d + 8 * s));
    case DType::kUInt64:
      return static_cast<double>(load_unaligned<uint64_t>(d + 8 * s));
    case DType::kInt32:
      return load_unaligned<int32_t>(d + 4 * s);
    case DType::kUInt32:
      return load_unaligned<uint32_t>(d + 4 * s);
    default:
      return decode_element(d, side.dtype, s);
  }
}

}  // namespace dumpcmp::single_op
