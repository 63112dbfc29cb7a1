#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dumpcmp {

using Shape = std::vector<int64_t>;

// Product of the dims, or nullopt when a dim is negative or the product overflows int64.
std::optional<int64_t> shape_element_count(const Shape& shape);
// "[1,3,224,224]" as msaccucmp's Shape column prints it ("[]" for a scalar).
std::string shape_to_string(const Shape& shape);
// msaccucmp's "Scalar" shape type: sum(dims) == len(dims) (all ones, [] and quirks like [2,0]).
bool shape_is_scalar_type(const Shape& shape);

}  // namespace dumpcmp
