#pragma once
#include <cstdint>
#include <string_view>

namespace dumpcmp {

// Ascend OutputFormat wire codes (docs/formats.md §1.4). Unknown codes stay representable.
enum class Format : int32_t {
  kNCHW = 0,
  kNHWC = 1,
  kND = 2,
  kNC1HWC0 = 3,
  kFractalZ = 4,
  kNC1C0HWPad = 5,
  kNHWC1C0 = 6,
  kFsrNCHW = 7,
  kFractalDeconv = 8,
  kC1HWNC0 = 9,
  kFractalDeconvTranspose = 10,
  kFractalDeconvSpStrideTrans = 11,
  kNC1HWC0_C04 = 12,
  kFractalZ_C04 = 13,
  kCHWN = 14,
  kFractalDeconvSpStride8Trans = 15,
  kHWCN = 16,
  kNC1KHKWHWC0 = 17,
  kBnWeight = 18,
  kFilterHWCK = 19,
  kHashtableLookupLookups = 20,
  kHashtableLookupKeys = 21,
  kHashtableLookupValue = 22,
  kHashtableLookupOutput = 23,
  kHashtableLookupHits = 24,
  kC1HWNCoC0 = 25,
  kMD = 26,
  kNDHWC = 27,
  kFractalZZ = 28,
  kFractalNZ = 29,
  kNCDHW = 30,
  kDHWCN = 31,
  kNDC1HWC0 = 32,
  kFractalZ3D = 33,
  kCN = 34,
  kNC = 35,
  kDHWNC = 36,
  kFractalZ3DTranspose = 37,
  kFractalZnLstm = 38,
  kFractalZG = 39,
  kReserved = 40,
  kAll = 41,
  kNull = 42,
  kNdRnnBias = 43,
  kFractalZnRnn = 44,
  kYUV = 45,
  kYUV_A = 46,
  kNCL = 47,
  kFractalZWino = 48,
  kC1HWC0 = 49,
  kMax = 255,
};

// "NC1HWC0", "FRACTAL_NZ"...; empty for an unknown code.
std::string_view format_name(Format f);
// Accepts the names format_name prints; returns false if unknown.
bool parse_format(std::string_view text, Format& out);

}  // namespace dumpcmp
