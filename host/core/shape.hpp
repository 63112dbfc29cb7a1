#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

using Shape = std::vector<int64_t>;

// Product of the dims, or nullopt when a dim is negative or the product overflows int64.
std::optional<int64_t> shape_element_count(const Shape& shape);
// The dims joined by `separator` between `open` and `close`: every shape spelling below.
std::string format_dims(const Shape& shape, std::string_view open, std::string_view separator,
                        std::string_view close);
// "[1,3,224,224]" as msaccucmp's Shape column prints it ("[]" for a scalar).
std::string shape_to_string(const Shape& shape);
// "(2, 3)" as msaccucmp prints shapes in its messages (a rank-1 shape is "(6)").
std::string shape_to_tuple_string(const Shape& shape);
// msaccucmp's "Scalar" shape type: sum(dims) == len(dims) (all ones, [] and quirks like [2,0]).
bool shape_is_scalar_type(const Shape& shape);

}  // namespace dumpcmp
