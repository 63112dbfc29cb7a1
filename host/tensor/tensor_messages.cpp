#include "tensor/tensor_messages.hpp"

namespace dumpcmp::msg {

std::string output_dtype_not_supported(int code) {
  return "The output data type (" + std::to_string(code) + ") does not support.";
}

}  // namespace dumpcmp::msg
