#pragma once
// Single-operator detail mode's numbers: each element as its numpy array holds it, and |x - y| and
// |x - y| / |y| computed in the dtype numpy promotes the pair to (fp16 - fp16 stays fp16).
#include <cstdint>

#include "core/dtype.hpp"
#include "detail/single_op_detail.hpp"

namespace dumpcmp::single_op {

// The dtype numpy computes |x - y| and |x - y| / |y| in, for the array dtypes msaccucmp holds.
enum class Arith { kBool, kHalf, kFloat, kDouble, kInt };

// numpy's promotion for the pairs that occur (bool promotes to the other side).
Arith promote(DType a, DType b);

struct ErrorPair {
  double abs, rel;
};

ErrorPair errors(Arith arith, double x, double y);

// NaN and inf as 0, as msaccucmp sanitises errors before their minimum, maximum and top N.
inline double sanitized(double v) { return std::isfinite(v) ? v : 0.0; }

// Element i of one side, exactly as its numpy array holds it.
double value_at(const DetailSide& side, int64_t i);

}  // namespace dumpcmp::single_op
