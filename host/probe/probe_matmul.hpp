#pragma once
// numpy.matmul of two arrays, as msprobe's --config post-processing multiplies a data file with a
// named matrix (tensor_postprocess/processor.py): 1-D operands promoted and their dimension
// removed again, the leading dimensions broadcast, the result in numpy's result type. Floats are
// summed in float64 and rounded once to the result type, where numpy's BLAS sums float32 and
// float64 in its own blocked order: the result can differ in its last bits (docs/compatibility.md).
// Integers wrap as numpy's do; bools are or-ed products.
#include <optional>
#include <string>

#include "probe/probe_array.hpp"

namespace dumpcmp {

// a @ b; nullopt, with `why`, where numpy raises (a 0-d operand, core dimensions that differ,
// leading dimensions that do not broadcast) or where dumpcmp does not reproduce numpy (complex).
std::optional<ProbeArray> numpy_matmul(const ProbeArray& a, const ProbeArray& b, std::string& why);

}  // namespace dumpcmp
