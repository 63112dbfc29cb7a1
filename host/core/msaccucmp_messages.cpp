#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

std::string python_tuple(const Shape& s) {
  return s.size() == 1 ? "(" + std::to_string(s[0]) + ",)" : format_dims(s, "(", ", ", ")");
}

std::string failed_to_execute(std::string_view function, std::string_view module,
                              const std::string& reason) {
  return "Failed to execute '" + std::string(function) + "' in '" + std::string(module) + "'. " +
         reason;
}

std::string_view ms_format_name(Format f) {
  // msaccucmp's table lacks NC, NCL, FRACTAL_Z_WINO and C1HWC0 and spells a few names its own way.
  switch (f) {
    case Format::kFractalDeconvSpStride8Trans:
      return "DECONV_SP_STRIDE8_TRANS";
    case Format::kHashtableLookupLookups:
      return "LOOKUP_LOOKUPS";
    case Format::kHashtableLookupKeys:
      return "LOOKUP_KEYS";
    case Format::kHashtableLookupValue:
      return "LOOKUP_VALUE";
    case Format::kHashtableLookupOutput:
      return "LOOKUP_OUTPUT";
    case Format::kHashtableLookupHits:
      return "LOOKUP_HITS";
    case Format::kNC:
    case Format::kNCL:
    case Format::kFractalZWino:
    case Format::kC1HWC0:
      return {};
    default:
      return dumpcmp::format_name(f);
  }
}

std::string shape(const Shape& s) { return shape_to_tuple_string(s); }

std::string numpy_shape(const Shape& s) {
  return s.size() == 1 ? format_dims(s, "(", ",", ",)") : format_dims(s, "(", ",", ")");
}

std::string op_prefixed(const std::string& op, const std::string& message) {
  return "[" + op + "] " + message;
}

}  // namespace dumpcmp::msg
