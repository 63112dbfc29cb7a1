#include "core/shape.hpp"

namespace dumpcmp {

std::optional<int64_t> shape_element_count(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || __builtin_mul_overflow(count, dim, &count)) return std::nullopt;
  }
  return count;
}

std::string format_dims(const Shape& shape, std::string_view open, std::string_view separator,
                        std::string_view close) {
  std::string out(open);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += separator;
    out += std::to_string(shape[i]);
  }
  out += close;
  return out;
}

std::string shape_to_string(const Shape& shape) { return format_dims(shape, "[", ",", "]"); }

std::string shape_to_tuple_string(const Shape& shape) { return format_dims(shape, "(", ", ", ")"); }

bool shape_is_scalar_type(const Shape& shape) {
  int64_t sum = 0;
  for (int64_t dim : shape) sum += dim;
  return sum == static_cast<int64_t>(shape.size());
}

}  // namespace dumpcmp
