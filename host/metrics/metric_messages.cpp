#include "metrics/metric_messages.hpp"

namespace dumpcmp::msg {

std::string empty_max_reduction() {
  return "zero-size array to reduction operation maximum which has no identity";
}

std::string bool_subtract() {
  return "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
         "operator, or the logical_xor function instead.";
}

std::string compare_failed(std::string_view metric, const std::string& reason) {
  return failed_to_execute("compare", metric, reason);
}

std::string cosine_all_zero(const std::string& path) {
  return "Cannot compare by Cosine Similarity. All the data is zero in " + path + ".";
}

std::string scalar_tensor() { return "This tensor is scalar."; }

std::string kld_contains_zero(const std::string& path) {
  return "Cannot compare by KL Divergence. The data contains 0 in '" + path + "'.";
}

std::string boolean_not_supported(std::string_view metric) {
  return "Algorithm " + std::string(metric) + " does not support Boolean types.";
}

}  // namespace dumpcmp::msg
