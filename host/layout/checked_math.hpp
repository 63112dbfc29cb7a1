#pragma once
// Overflow-checked products for planning: shapes come from dump files, and a product that does not
// fit in int64 must fail a plan, not wrap.
#include <cstdint>

#include "core/shape.hpp"

namespace dumpcmp::layout_math {

// a * b for a, b >= 0, or -1 when either is negative or the product overflows (then it matches
// no real size and stays -1 through further products).
inline int64_t mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) return -1;
  return r;
}

// Product of the dims, or -1 (negative dim or overflow).
inline int64_t product(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = mul(n, d);
  return n;
}

// True when no dim is negative and the product of the non-zero dims fits: then every sub-product
// of the shape (strides, merged axes) fits as well, even for an empty tensor.
inline bool dims_fit(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = mul(n, d == 0 ? 1 : d);
  return n >= 0;
}

inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace dumpcmp::layout_math
