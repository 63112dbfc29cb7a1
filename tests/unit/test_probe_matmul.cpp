// numpy.matmul as --config's post-processing applies it (probe/probe_matmul): shapes, broadcasting,
// result types and integer wrap-around, against values numpy gives.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "probe/probe_matmul.hpp"
#include "probe_arrays.hpp"

namespace dumpcmp {
namespace {

TEST(ProbeMatmul, MatricesAndVectors) {
  const ProbeArray m = array_of<float>(DType::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
  const ProbeArray v = array_of<float>(DType::kFloat, {3}, {1, 0, -1});
  std::string why;
  const auto mv = numpy_matmul(m, v, why);  // (2,3) @ (3,) -> (2,)
  ASSERT_TRUE(mv) << why;
  EXPECT_EQ(mv->shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(values_of<float>(*mv), (std::vector<float>{-2, -2}));
  const ProbeArray w = array_of<float>(DType::kFloat, {2}, {1, 1});
  const auto wm = numpy_matmul(w, m, why);  // (2,) @ (2,3) -> (3,)
  ASSERT_TRUE(wm) << why;
  EXPECT_EQ(wm->shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(values_of<float>(*wm), (std::vector<float>{5, 7, 9}));
  EXPECT_FALSE(numpy_matmul(m, m, why));  // (2,3) @ (2,3): core dimensions differ
  EXPECT_NE(why.find("core dimensions"), std::string::npos);
  const ProbeArray scalar = array_of<float>(DType::kFloat, {}, {2});
  EXPECT_FALSE(numpy_matmul(scalar, m, why));
}

TEST(ProbeMatmul, LeadingDimensionsBroadcast) {
  // (2,1,1,2) @ (3,2,1) -> (2,3,1,1): np.arange(4.).reshape(2,1,1,2) @ np.arange(6.).reshape(3,2,1)
  const ProbeArray a = array_of<double>(DType::kDouble, {2, 1, 1, 2}, {0, 1, 2, 3});
  const ProbeArray b = array_of<double>(DType::kDouble, {3, 2, 1}, {0, 1, 2, 3, 4, 5});
  std::string why;
  const auto c = numpy_matmul(a, b, why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->shape, (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_EQ(values_of<double>(*c), (std::vector<double>{1, 3, 5, 3, 13, 23}));
  // batch (3,) against (2,): np.arange(6.).reshape(3,2,1) @ np.ones((2,1,1)) raises
  EXPECT_FALSE(numpy_matmul(b, array_of<double>(DType::kDouble, {2, 1, 1}, {1, 1}), why));
  EXPECT_NE(why.find("broadcast"), std::string::npos);
}

TEST(ProbeMatmul, ResultTypesAndWrapAround) {
  std::string why;
  // int8 @ uint8 -> int16, wrapping: np.array([[100, 100]], np.int8) @ np.array([[200], [200]],
  // np.uint8) == [[-25536]]
  const auto i16 = numpy_matmul(array_of<int8_t>(DType::kInt8, {1, 2}, {100, 100}),
                                array_of<uint8_t>(DType::kUInt8, {2, 1}, {200, 200}), why);
  ASSERT_TRUE(i16) << why;
  EXPECT_EQ(i16->dtype, DType::kInt16);
  EXPECT_EQ(values_of<int16_t>(*i16), (std::vector<int16_t>{-25536}));
  // int32 @ float32 -> float64; bool @ bool -> bool (or of ands)
  const auto f64 = numpy_matmul(array_of<int32_t>(DType::kInt32, {1, 2}, {3, 4}),
                                array_of<float>(DType::kFloat, {2, 1}, {0.5f, 0.25f}), why);
  ASSERT_TRUE(f64) << why;
  EXPECT_EQ(f64->dtype, DType::kDouble);
  EXPECT_EQ(values_of<double>(*f64), (std::vector<double>{2.5}));
  const auto logical = numpy_matmul(array_of<uint8_t>(DType::kBool, {2, 2}, {1, 0, 0, 0}),
                                    array_of<uint8_t>(DType::kBool, {2, 2}, {0, 1, 1, 0}), why);
  ASSERT_TRUE(logical) << why;
  EXPECT_EQ(values_of<uint8_t>(*logical), (std::vector<uint8_t>{0, 1, 0, 0}));
  // bfloat16 is float32 to numpy (msprobe converts it); complex is not reproduced
  const auto bf = numpy_matmul(array_of<uint16_t>(DType::kBFloat16, {1, 1}, {0x3FC0}),       // 1.5
                               array_of<uint16_t>(DType::kFloat16, {1, 1}, {0x4000}), why);  // 2
  ASSERT_TRUE(bf) << why;
  EXPECT_EQ(bf->dtype, DType::kFloat);
  EXPECT_EQ(values_of<float>(*bf), (std::vector<float>{3.0f}));
  EXPECT_FALSE(numpy_matmul(array_of<float>(DType::kComplex64, {1, 1}, {1, 0}),
                            array_of<float>(DType::kFloat, {1, 1}, {1}), why));
}

}  // namespace
}  // namespace dumpcmp
