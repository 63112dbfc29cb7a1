// Element decoders against msaccucmp's own: fp8 / hifloat8 tables produced by running its
// conversion/dtype_conversion.py on every byte (2026-11-22), fp16 by the F16C and portable paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "layout/layout_plan.hpp"
#include "math/element_decode.hpp"
#include "math/element_source.hpp"
#include "simd/decode_elements.hpp"

namespace dumpcmp {
namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// Equal bits, or both NaN (payloads do not matter to any metric).
::testing::AssertionResult same_value(float got, uint32_t want_bits) {
  float want;
  std::memcpy(&want, &want_bits, 4);
  if (bits_of(got) == want_bits || (std::isnan(got) && std::isnan(want))) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << got << " want " << want;
}

// hifloat8: msaccucmp hifloat8_to_float32(b) for b = 0..255, as float32 bits
const uint32_t kHifloat8[256] = {
    0x00000000, 0x34800000, 0x35000000, 0x35800000, 0x36000000, 0x36800000, 0x37000000, 0x37800000,
    0x3FA00000, 0x3FA40000, 0x3FA80000, 0x3FAC0000, 0x3FB00000, 0x3FB40000, 0x3FB80000, 0x3FBC0000,
    0x3F000000, 0x3F080000, 0x3F100000, 0x3F180000, 0x3F200000, 0x3F280000, 0x3F300000, 0x3F380000,
    0x3F400000, 0x3F480000, 0x3F500000, 0x3F580000, 0x3F600000, 0x3F680000, 0x3F700000, 0x3F780000,
    0x40800000, 0x40900000, 0x40A00000, 0x40B00000, 0x40C00000, 0x40D00000, 0x40E00000, 0x40F00000,
    0x41000000, 0x41100000, 0x41200000, 0x41300000, 0x41400000, 0x41500000, 0x41600000, 0x41700000,
    0x3E800000, 0x3E900000, 0x3EA00000, 0x3EB00000, 0x3EC00000, 0x3ED00000, 0x3EE00000, 0x3EF00000,
    0x3E000000, 0x3E100000, 0x3E200000, 0x3E300000, 0x3E400000, 0x3E500000, 0x3E600000, 0x3E700000,
    0x41800000, 0x41A00000, 0x41C00000, 0x41E00000, 0x42000000, 0x42200000, 0x42400000, 0x42600000,
    0x42800000, 0x42A00000, 0x42C00000, 0x42E00000, 0x43000000, 0x43200000, 0x43400000, 0x43600000,
    0x3D800000, 0x3DA00000, 0x3DC00000, 0x3DE00000, 0x3D000000, 0x3D200000, 0x3D400000, 0x3D600000,
    0x3C800000, 0x3CA00000, 0x3CC00000, 0x3CE00000, 0x3C000000, 0x3C200000, 0x3C400000, 0x3C600000,
    0x43800000, 0x43C00000, 0x44000000, 0x44400000, 0x44800000, 0x44C00000, 0x45000000, 0x45400000,
    0x45800000, 0x45C00000, 0x46000000, 0x46400000, 0x46800000, 0x46C00000, 0x47000000, 0x7F800000,
    0x3B800000, 0x3BC00000, 0x3B000000, 0x3B400000, 0x3A800000, 0x3AC00000, 0x3A000000, 0x3A400000,
    0x39800000, 0x39C00000, 0x39000000, 0x39400000, 0x38800000, 0x38C00000, 0x38000000, 0x38400000,
    0x7FC00000, 0xB4800000, 0xB5000000, 0xB5800000, 0xB6000000, 0xB6800000, 0xB7000000, 0xB7800000,
    0xBFA00000, 0xBFA40000, 0xBFA80000, 0xBFAC0000, 0xBFB00000, 0xBFB40000, 0xBFB80000, 0xBFBC0000,
    0xBF000000, 0xBF080000, 0xBF100000, 0xBF180000, 0xBF200000, 0xBF280000, 0xBF300000, 0xBF380000,
    0xBF400000, 0xBF480000, 0xBF500000, 0xBF580000, 0xBF600000, 0xBF680000, 0xBF700000, 0xBF780000,
    0xC0800000, 0xC0900000, 0xC0A00000, 0xC0B00000, 0xC0C00000, 0xC0D00000, 0xC0E00000, 0xC0F00000,
    0xC1000000, 0xC1100000, 0xC1200000, 0xC1300000, 0xC1400000, 0xC1500000, 0xC1600000, 0xC1700000,
    0xBE800000, 0xBE900000, 0xBEA00000, 0xBEB00000, 0xBEC00000, 0xBED00000, 0xBEE00000, 0xBEF00000,
    0xBE000000, 0xBE100000, 0xBE200000, 0xBE300000, 0xBE400000, 0xBE500000, 0xBE600000, 0xBE700000,
    0xC1800000, 0xC1A00000, 0xC1C00000, 0xC1E00000, 0xC2000000, 0xC2200000, 0xC2400000, 0xC2600000,
    0xC2800000, 0xC2A00000, 0xC2C00000, 0xC2E00000, 0xC3000000, 0xC3200000, 0xC3400000, 0xC3600000,
    0xBD800000, 0xBDA00000, 0xBDC00000, 0xBDE00000, 0xBD000000, 0xBD200000, 0xBD400000, 0xBD600000,
    0xBC800000, 0xBCA00000, 0xBCC00000, 0xBCE00000, 0xBC000000, 0xBC200000, 0xBC400000, 0xBC600000,
    0xC3800000, 0xC3C00000, 0xC4000000, 0xC4400000, 0xC4800000, 0xC4C00000, 0xC5000000, 0xC5400000,
    0xC5800000, 0xC5C00000, 0xC6000000, 0xC6400000, 0xC6800000, 0xC6C00000, 0xC7000000, 0x7F800000,
    0xBB800000, 0xBBC00000, 0xBB000000, 0xBB400000, 0xBA800000, 0xBAC00000, 0xBA000000, 0xBA400000,
    0xB9800000, 0xB9C00000, 0xB9000000, 0xB9400000, 0xB8800000, 0xB8C00000, 0xB8000000, 0xB8400000,
};
// e4m3fn: msaccucmp float8e4m3fn_to_float32(b) for b = 0..255, as float32 bits
const uint32_t kE4m3fn[256] = {
    0x00000000, 0x3B000000, 0x3B800000, 0x3BC00000, 0x3C000000, 0x3C200000, 0x3C400000, 0x3C600000,
    0x3C800000, 0x3C900000, 0x3CA00000, 0x3CB00000, 0x3CC00000, 0x3CD00000, 0x3CE00000, 0x3CF00000,
    0x3D000000, 0x3D100000, 0x3D200000, 0x3D300000, 0x3D400000, 0x3D500000, 0x3D600000, 0x3D700000,
    0x3D800000, 0x3D900000, 0x3DA00000, 0x3DB00000, 0x3DC00000, 0x3DD00000, 0x3DE00000, 0x3DF00000,
    0x3E000000, 0x3E100000, 0x3E200000, 0x3E300000, 0x3E400000, 0x3E500000, 0x3E600000, 0x3E700000,
    0x3E800000, 0x3E900000, 0x3EA00000, 0x3EB00000, 0x3EC00000, 0x3ED00000, 0x3EE00000, 0x3EF00000,
    0x3F000000, 0x3F100000, 0x3F200000, 0x3F300000, 0x3F400000, 0x3F500000, 0x3F600000, 0x3F700000,
    0x3F800000, 0x3F900000, 0x3FA00000, 0x3FB00000, 0x3FC00000, 0x3FD00000, 0x3FE00000, 0x3FF00000,
    0x40000000, 0x40100000, 0x40200000, 0x40300000, 0x40400000, 0x40500000, 0x40600000, 0x40700000,
    0x40800000, 0x40900000, 0x40A00000, 0x40B00000, 0x40C00000, 0x40D00000, 0x40E00000, 0x40F00000,
    0x41000000, 0x41100000, 0x41200000, 0x41300000, 0x41400000, 0x41500000, 0x41600000, 0x41700000,
    0x41800000, 0x41900000, 0x41A00000, 0x41B00000, 0x41C00000, 0x41D00000, 0x41E00000, 0x41F00000,
    0x42000000, 0x42100000, 0x42200000, 0x42300000, 0x42400000, 0x42500000, 0x42600000, 0x42700000,
    0x42800000, 0x42900000, 0x42A00000, 0x42B00000, 0x42C00000, 0x42D00000, 0x42E00000, 0x42F00000,
    0x43000000, 0x43100000, 0x43200000, 0x43300000, 0x43400000, 0x43500000, 0x43600000, 0x43700000,
    0x43800000, 0x43900000, 0x43A00000, 0x43B00000, 0x43C00000, 0x43D00000, 0x43E00000, 0x43F00000,
    0x80000000, 0xBB000000, 0xBB800000, 0xBBC00000, 0xBC000000, 0xBC200000, 0xBC400000, 0xBC600000,
    0xBC800000, 0xBC900000, 0xBCA00000, 0xBCB00000, 0xBCC00000, 0xBCD00000, 0xBCE00000, 0xBCF00000,
    0xBD000000, 0xBD100000, 0xBD200000, 0xBD300000, 0xBD400000, 0xBD500000, 0xBD600000, 0xBD700000,
    0xBD800000, 0xBD900000, 0xBDA00000, 0xBDB00000, 0xBDC00000, 0xBDD00000, 0xBDE00000, 0xBDF00000,
    0xBE000000, 0xBE100000, 0xBE200000, 0xBE300000, 0xBE400000, 0xBE500000, 0xBE600000, 0xBE700000,
    0xBE800000, 0xBE900000, 0xBEA00000, 0xBEB00000, 0xBEC00000, 0xBED00000, 0xBEE00000, 0xBEF00000,
    0xBF000000, 0xBF100000, 0xBF200000, 0xBF300000, 0xBF400000, 0xBF500000, 0xBF600000, 0xBF700000,
    0xBF800000, 0xBF900000, 0xBFA00000, 0xBFB00000, 0xBFC00000, 0xBFD00000, 0xBFE00000, 0xBFF00000,
    0xC0000000, 0xC0100000, 0xC0200000, 0xC0300000, 0xC0400000, 0xC0500000, 0xC0600000, 0xC0700000,
    0xC0800000, 0xC0900000, 0xC0A00000, 0xC0B00000, 0xC0C00000, 0xC0D00000, 0xC0E00000, 0xC0F00000,
    0xC1000000, 0xC1100000, 0xC1200000, 0xC1300000, 0xC1400000, 0xC1500000, 0xC1600000, 0xC1700000,
    0xC1800000, 0xC1900000, 0xC1A00000, 0xC1B00000, 0xC1C00000, 0xC1D00000, 0xC1E00000, 0xC1F00000,
    0xC2000000, 0xC2100000, 0xC2200000, 0xC2300000, 0xC2400000, 0xC2500000, 0xC2600000, 0xC2700000,
    0xC2800000, 0xC2900000, 0xC2A00000, 0xC2B00000, 0xC2C00000, 0xC2D00000, 0xC2E00000, 0xC2F00000,
    0xC3000000, 0xC3100000, 0xC3200000, 0xC3300000, 0xC3400000, 0xC3500000, 0xC3600000, 0xC3700000,
    0xC3800000, 0xC3900000, 0xC3A00000, 0xC3B00000, 0xC3C00000, 0xC3D00000, 0xC3E00000, 0xC3F00000,
};
// e5m2: msaccucmp float8e5m2_to_float32(b) for b = 0..255, as float32 bits
const uint32_t kE5m2[256] = {
    0x00000000, 0x37800000, 0x38000000, 0x38400000, 0x38800000, 0x38A00000, 0x38C00000, 0x38E00000,
    0x39000000, 0x39200000, 0x39400000, 0x39600000, 0x39800000, 0x39A00000, 0x39C00000, 0x39E00000,
    0x3A000000, 0x3A200000, 0x3A400000, 0x3A600000, 0x3A800000, 0x3AA00000, 0x3AC00000, 0x3AE00000,
    0x3B000000, 0x3B200000, 0x3B400000, 0x3B600000, 0x3B800000, 0x3BA00000, 0x3BC00000, 0x3BE00000,
    0x3C000000, 0x3C200000, 0x3C400000, 0x3C600000, 0x3C800000, 0x3CA00000, 0x3CC00000, 0x3CE00000,
    0x3D000000, 0x3D200000, 0x3D400000, 0x3D600000, 0x3D800000, 0x3DA00000, 0x3DC00000, 0x3DE00000,
    0x3E000000, 0x3E200000, 0x3E400000, 0x3E600000, 0x3E800000, 0x3EA00000, 0x3EC00000, 0x3EE00000,
    0x3F000000, 0x3F200000, 0x3F400000, 0x3F600000, 0x3F800000, 0x3FA00000, 0x3FC00000, 0x3FE00000,
    0x40000000, 0x40200000, 0x40400000, 0x40600000, 0x40800000, 0x40A00000, 0x40C00000, 0x40E00000,
    0x41000000, 0x41200000, 0x41400000, 0x41600000, 0x41800000, 0x41A00000, 0x41C00000, 0x41E00000,
    0x42000000, 0x42200000, 0x42400000, 0x42600000, 0x42800000, 0x42A00000, 0x42C00000, 0x42E00000,
    0x43000000, 0x43200000, 0x43400000, 0x43600000, 0x43800000, 0x43A00000, 0x43C00000, 0x43E00000,
    0x44000000, 0x44200000, 0x44400000, 0x44600000, 0x44800000, 0x44A00000, 0x44C00000, 0x44E00000,
    0x45000000, 0x45200000, 0x45400000, 0x45600000, 0x45800000, 0x45A00000, 0x45C00000, 0x45E00000,
    0x46000000, 0x46200000, 0x46400000, 0x46600000, 0x46800000, 0x46A00000, 0x46C00000, 0x46E00000,
    0x47000000, 0x47200000, 0x47400000, 0x47600000, 0x7F800000, 0x7FC00000, 0x7FC00000, 0x7FC00000,
    0x80000000, 0xB7800000, 0xB8000000, 0xB8400000, 0xB8800000, 0xB8A00000, 0xB8C00000, 0xB8E00000,
    0xB9000000, 0xB9200000, 0xB9400000, 0xB9600000, 0xB9800000, 0xB9A00000, 0xB9C00000, 0xB9E00000,
    0xBA000000, 0xBA200000, 0xBA400000, 0xBA600000, 0xBA800000, 0xBAA00000, 0xBAC00000, 0xBAE00000,
    0xBB000000, 0xBB200000, 0xBB400000, 0xBB600000, 0xBB800000, 0xBBA00000, 0xBBC00000, 0xBBE00000,
    0xBC000000, 0xBC200000, 0xBC400000, 0xBC600000, 0xBC800000, 0xBCA00000, 0xBCC00000, 0xBCE00000,
    0xBD000000, 0xBD200000, 0xBD400000, 0xBD600000, 0xBD800000, 0xBDA00000, 0xBDC00000, 0xBDE00000,
    0xBE000000, 0xBE200000, 0xBE400000, 0xBE600000, 0xBE800000, 0xBEA00000, 0xBEC00000, 0xBEE00000,
    0xBF000000, 0xBF200000, 0xBF400000, 0xBF600000, 0xBF800000, 0xBFA00000, 0xBFC00000, 0xBFE00000,
    0xC0000000, 0xC0200000, 0xC0400000, 0xC0600000, 0xC0800000, 0xC0A00000, 0xC0C00000, 0xC0E00000,
    0xC1000000, 0xC1200000, 0xC1400000, 0xC1600000, 0xC1800000, 0xC1A00000, 0xC1C00000, 0xC1E00000,
    0xC2000000, 0xC2200000, 0xC2400000, 0xC2600000, 0xC2800000, 0xC2A00000, 0xC2C00000, 0xC2E00000,
    0xC3000000, 0xC3200000, 0xC3400000, 0xC3600000, 0xC3800000, 0xC3A00000, 0xC3C00000, 0xC3E00000,
    0xC4000000, 0xC4200000, 0xC4400000, 0xC4600000, 0xC4800000, 0xC4A00000, 0xC4C00000, 0xC4E00000,
    0xC5000000, 0xC5200000, 0xC5400000, 0xC5600000, 0xC5800000, 0xC5A00000, 0xC5C00000, 0xC5E00000,
    0xC6000000, 0xC6200000, 0xC6400000, 0xC6600000, 0xC6800000, 0xC6A00000, 0xC6C00000, 0xC6E00000,
    0xC7000000, 0xC7200000, 0xC7400000, 0xC7600000, 0x7F800000, 0x7FC00000, 0x7FC00000, 0x7FC00000,
};

TEST(Decode, HiFloat8MatchesMsaccucmpForEveryByte) {
  for (int b = 0; b < 256; ++b)
    EXPECT_TRUE(same_value(decode_hifloat8(static_cast<uint8_t>(b)), kHifloat8[b])) << b;
}

TEST(Decode, Float8E4M3FNMatchesMsaccucmpForEveryByte) {
  for (int b = 0; b < 256; ++b)
    EXPECT_TRUE(same_value(decode_fp8_e4m3fn(static_cast<uint8_t>(b)), kE4m3fn[b])) << b;
}

TEST(Decode, Float8E5M2MatchesMsaccucmpForEveryByte) {
  for (int b = 0; b < 256; ++b)
    EXPECT_TRUE(same_value(decode_fp8_e5m2(static_cast<uint8_t>(b)), kE5m2[b])) << b;
}

TEST(Decode, Fp16KnownValues) {
  EXPECT_EQ(decode_fp16(0x3C00), 1.0f);
  EXPECT_EQ(decode_fp16(0x7BFF), 65504.0f);
  EXPECT_EQ(decode_fp16(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(decode_fp16(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(decode_fp16(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(decode_fp16(0x7E00)));
  EXPECT_TRUE(std::signbit(decode_fp16(0x8000)));
  EXPECT_EQ(decode_bf16(0x3F80), 1.0f);
}

TEST(Decode, Fp16BatchPathMatchesScalarForAllValues) {
  std::vector<uint16_t> all(65536 + 3);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  std::vector<float> out(all.size());
  // An odd start exercises unaligned loads; an odd count exercises the tail.
  const ElementSource src{reinterpret_cast<const uint8_t*>(all.data()), DType::kFloat16,
                          static_cast<int64_t>(all.size())};
  decode_elements(src, 1, static_cast<int64_t>(all.size()) - 1, out.data());
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_TRUE(same_value(out[i - 1], bits_of(decode_fp16(all[i])))) << i;
  }
}

// Gathers through a device layout (strided runs for float32 and binary16, an index per element for
// other dtypes) give load_element's value for every element, from any starting element.
TEST(Decode, GathersThroughALayoutGiveLoadElementsValues) {
  TensorInfo t;
  t.format = Format::kNC1HWC0;
  t.shape = {2, 2, 3, 5, 16};  // 20 channels padded to 32
  t.original_shape = {2, 20, 3, 5};
  const LayoutPlan plan = plan_npu_restore(t);
  ASSERT_TRUE(plan.ok) << plan.note;
  const int64_t stored = 2 * 2 * 3 * 5 * 16, count = plan.map.count;
  for (DType dtype : {DType::kFloat, DType::kFloat16, DType::kInt32}) {
    const int64_t width = dtype == DType::kFloat16 ? 2 : 4;
    std::vector<uint8_t> payload(static_cast<std::size_t>(1 + stored * width));
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(i * 37 + 11);
    // From byte 1: no element is aligned.
    const ElementSource src{payload.data() + 1, dtype, count, &plan.map, stored};
    for (int64_t begin : {int64_t{0}, int64_t{7}, count / 3}) {
      std::vector<float> out(static_cast<std::size_t>(count - begin));
      decode_elements(src, begin, count - begin, out.data());
      for (int64_t i = begin; i < count; ++i) {
        const float want = load_element(src.data, dtype, &plan.map, i);
        ASSERT_TRUE(same_value(out[static_cast<std::size_t>(i - begin)], bits_of(want)))
            << dtype_wire_name(dtype) << " element " << i << " from " << begin;
      }
    }
  }
}

// The whole-tensor gather of channel blocks gives every element's bits in the compared order:
// NC1HWC0 with padding channels, with one block and several, whole 16-row tiles and tails, N > 1;
// and NHWC with 16 channels.
TEST(Decode, BlockGatherGivesEachElementsBitsInOrder) {
  struct Case {
    Shape shape, original;
  };
  const Case cases[] = {{{2, 2, 3, 5, 16}, {2, 20, 3, 5}},
                        {{1, 1, 8, 8, 16}, {1, 16, 8, 8}},
                        {{3, 3, 17, 33, 16}, {3, 40, 17, 33}}};
  std::vector<LayoutPlan> plans;
  for (const Case& c : cases) {
    TensorInfo t;
    t.format = Format::kNC1HWC0;
    t.shape = c.shape;
    t.original_shape = c.original;
    plans.push_back(plan_npu_restore(t));
  }
  // NHWC with 16 channels read as NCHW: one block of 16 interleaved channels per image.
  plans.push_back(
      plan_format_convert(Format::kNHWC, {2, 3, 5, 16}, Format::kNCHW, {2, 16, 3, 5}, 1));
  for (const LayoutPlan& plan : plans) {
    ASSERT_TRUE(plan.ok) << plan.note;
    const int64_t stored = plan.map.count * 2;  // more than any source index
    std::vector<uint8_t> payload(static_cast<std::size_t>(1 + 2 * stored));
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(i * 37 + 11);
    const ElementSource src{payload.data() + 1, DType::kFloat16, plan.map.count, &plan.map, stored};
    std::vector<uint16_t> bits(static_cast<std::size_t>(src.count));
    ASSERT_TRUE(gather_bits16_by_blocks(src, bits.data(), 2));
    for (int64_t i = 0; i < src.count; ++i) {
      uint16_t want;
      std::memcpy(&want, src.data + 2 * plan.map.source_index(i), 2);
      ASSERT_EQ(bits[static_cast<std::size_t>(i)], want) << "element " << i;
    }
  }
}

// Layouts without whole channel blocks, and payloads without whole rows, are left to the
// chunk-by-chunk gather.
TEST(Decode, BlockGatherDeclinesOtherLayouts) {
  TensorInfo t;
  t.format = Format::kFractalNZ;
  t.shape = {1, 2, 16, 16};  // (N1, M1, M0, N0): a 32 x 16 matrix
  t.original_shape = {32, 16};
  const LayoutPlan plan = plan_npu_restore(t);
  ASSERT_TRUE(plan.ok) << plan.note;
  std::vector<uint8_t> payload(2 * 32 * 16);
  const ElementSource src{payload.data(), DType::kFloat16, plan.map.count, &plan.map, 32 * 16};
  std::vector<uint16_t> bits(static_cast<std::size_t>(src.count), 7);
  EXPECT_FALSE(gather_bits16_by_blocks(src, bits.data(), 1));
  EXPECT_EQ(bits.front(), 7);
  const ElementSource float32{payload.data(), DType::kFloat, 4, nullptr, 0};
  EXPECT_FALSE(gather_bits16_by_blocks(float32, bits.data(), 1));

  // The transpose reads whole rows of 16: a payload that ends after the last real channel, before
  // its row's padding, is left to the element-by-element gather.
  TensorInfo c10;
  c10.format = Format::kNC1HWC0;
  c10.shape = {1, 1, 2, 2, 16};
  c10.original_shape = {1, 10, 2, 2};
  const LayoutPlan blocks = plan_npu_restore(c10);
  ASSERT_TRUE(blocks.ok) << blocks.note;
  const ElementSource short_payload{payload.data(), DType::kFloat16, 40, &blocks.map, 3 * 16 + 10};
  EXPECT_FALSE(gather_bits16_by_blocks(short_payload, bits.data(), 1));
  const ElementSource whole_rows{payload.data(), DType::kFloat16, 40, &blocks.map, 4 * 16};
  EXPECT_TRUE(gather_bits16_by_blocks(whole_rows, bits.data(), 1));
}

TEST(Decode, IntegersAndWideTypesRoundLikeNumpyAstypeFloat32) {
  const int64_t big = (int64_t{1} << 24) + 1;  // not representable: rounds to even
  EXPECT_EQ(decode_element(reinterpret_cast<const uint8_t*>(&big), DType::kInt64, 0), 16777216.0f);
  const double d = 0.1;
  EXPECT_EQ(decode_element(reinterpret_cast<const uint8_t*>(&d), DType::kDouble, 0), 0.1f);
  const uint8_t bits = 0xA0;  // uint1: MSB first
  EXPECT_EQ(decode_element(&bits, DType::kUInt1, 0), 1.0f);
  EXPECT_EQ(decode_element(&bits, DType::kUInt1, 1), 0.0f);
  EXPECT_EQ(decode_element(&bits, DType::kUInt1, 2), 1.0f);
  const float complex[2] = {3.0f, 4.0f};  // the imaginary part is dropped
  EXPECT_EQ(decode_element(reinterpret_cast<const uint8_t*>(complex), DType::kComplex64, 0), 3.0f);
}

}  // namespace
}  // namespace dumpcmp
