#include "core/format.hpp"

#include <array>
#include <utility>

namespace dumpcmp {
namespace {

constexpr std::array<std::pair<Format, std::string_view>, 51> kFormats{{
    {Format::kNCHW, "NCHW"},
    {Format::kNHWC, "NHWC"},
    {Format::kND, "ND"},
    {Format::kNC1HWC0, "NC1HWC0"},
    {Format::kFractalZ, "FRACTAL_Z"},
    {Format::kNC1C0HWPad, "NC1C0HWPAD"},
    {Format::kNHWC1C0, "NHWC1C0"},
    {Format::kFsrNCHW, "FSR_NCHW"},
    {Format::kFractalDeconv, "FRACTAL_DECONV"},
    {Format::kC1HWNC0, "C1HWNC0"},
    {Format::kFractalDeconvTranspose, "FRACTAL_DECONV_TRANSPOSE"},
    {Format::kFractalDeconvSpStrideTrans, "FRACTAL_DECONV_SP_STRIDE_TRANS"},
    {Format::kNC1HWC0_C04, "NC1HWC0_C04"},
    {Format::kFractalZ_C04, "FRACTAL_Z_C04"},
    {Format::kCHWN, "CHWN"},
    {Format::kFractalDeconvSpStride8Trans, "FRACTAL_DECONV_SP_STRIDE8_TRANS"},
    {Format::kHWCN, "HWCN"},
    {Format::kNC1KHKWHWC0, "NC1KHKWHWC0"},
    {Format::kBnWeight, "BN_WEIGHT"},
    {Format::kFilterHWCK, "FILTER_HWCK"},
    {Format::kHashtableLookupLookups, "HASHTABLE_LOOKUP_LOOKUPS"},
    {Format::kHashtableLookupKeys, "HASHTABLE_LOOKUP_KEYS"},
    {Format::kHashtableLookupValue, "HASHTABLE_LOOKUP_VALUE"},
    {Format::kHashtableLookupOutput, "HASHTABLE_LOOKUP_OUTPUT"},
    {Format::kHashtableLookupHits, "HASHTABLE_LOOKUP_HITS"},
    {Format::kC1HWNCoC0, "C1HWNCoC0"},
    {Format::kMD, "MD"},
    {Format::kNDHWC, "NDHWC"},
    {Format::kFractalZZ, "FRACTAL_ZZ"},
    {Format::kFractalNZ, "FRACTAL_NZ"},
    {Format::kNCDHW, "NCDHW"},
    {Format::kDHWCN, "DHWCN"},
    {Format::kNDC1HWC0, "NDC1HWC0"},
    {Format::kFractalZ3D, "FRACTAL_Z_3D"},
    {Format::kCN, "CN"},
    {Format::kNC, "NC"},
    {Format::kDHWNC, "DHWNC"},
    {Format::kFractalZ3DTranspose, "FRACTAL_Z_3D_TRANSPOSE"},
    {Format::kFractalZnLstm, "FRACTAL_ZN_LSTM"},
    {Format::kFractalZG, "FRACTAL_Z_G"},
    {Format::kReserved, "RESERVED"},
    {Format::kAll, "ALL"},
    {Format::kNull, "NULL"},
    {Format::kNdRnnBias, "ND_RNN_BIAS"},
    {Format::kFractalZnRnn, "FRACTAL_ZN_RNN"},
    {Format::kYUV, "YUV"},
    {Format::kYUV_A, "YUV_A"},
    {Format::kNCL, "NCL"},
    {Format::kFractalZWino, "FRACTAL_Z_WINO"},
    {Format::kC1HWC0, "C1HWC0"},
    {Format::kMax, "MAX"},
}};

}  // namespace

std::string_view format_name(Format f) {
  for (const auto& [format, name] : kFormats) {
    if (format == f) return name;
  }
  return {};
}

bool parse_format(std::string_view text, Format& out) {
  for (const auto& [format, name] : kFormats) {
    if (name == text) {
      out = format;
      return true;
    }
  }
  return false;
}

}  // namespace dumpcmp
