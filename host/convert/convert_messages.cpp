#include "convert/convert_messages.hpp"

namespace dumpcmp::msg {

std::string convert_format_not_supported(const std::string& format) {
  return "The format \"" + format + "\" is not supported. Please check the format.";
}

std::string no_valid_file(const std::string& paths) {
  return "There is no valid file in \"" + paths + "\". Please check the path.";
}

std::string dump_path_empty() { return "The dump path is empty."; }

std::string no_tensors_in(std::string_view type, const std::string& path) {
  return "There is no " + std::string(type) + " in \"" + path + "\".";
}

std::string tensor_parse_failed(const std::string& label, const std::string& path) {
  return "Failed to parse the data of " + label + " in \"" + path + "\".";
}

std::string convert_format_failed(const std::string& label, const std::string& path,
                                  const std::string& reason) {
  return "Failed to convert format for " + label + " of \"" + path + "\". " + reason;
}

std::string shape_dim_not_positive(const std::string& text) {
  return "The shape(" + text + ") is invalid. Each dimension must be greater than 0.";
}

std::string shape_text_invalid(const std::string& text) {
  return "The shape(" + text + ") is invalid. The supported formats are \"1,3,224,224\".";
}

std::string directory_ignores_tensor_arguments() {
  return "The dump path is a directory. If the -o, -i and -s arguments exist, these arguments "
         "will be ignored.";
}

}  // namespace dumpcmp::msg
