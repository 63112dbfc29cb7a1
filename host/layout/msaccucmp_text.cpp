#include "layout/msaccucmp_text.hpp"

namespace dumpcmp::layout_text {

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

std::string cannot_reshape(int64_t size, const Shape& s) {
  return "cannot reshape array of size " + std::to_string(size) + " into shape " + numpy_shape(s);
}

std::string convert_failed(Format src, Format dst, const std::string& reason) {
  return "Failed to execute 'convert' in 'convert_" + std::string(ms_format_name(src)) + "_to_" +
         std::string(ms_format_name(dst)) + "'. " + reason;
}

std::string cannot_compare(const Shape& left, const Shape& right) {
  return "Due to the different shapes on the left and right,the left dump data" + shape(left) +
         " can not be compared to the right dump data" + shape(right) +
         ". Please check the batch of the dump data or the shape may be changed due to "
         "optimization.";
}

}  // namespace dumpcmp::layout_text
