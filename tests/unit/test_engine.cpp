// The engine's pure pieces: tensor validation and NPU-vs-NPU tensor pairing with msaccucmp's
// messages.
#include <gtest/gtest.h>

#include "compare/npu_pairing.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

TensorInfo tensor(TensorGroup g, int index, DType dtype, Shape shape, uint64_t size) {
  TensorInfo t;
  t.group = g;
  t.index = index;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.size = size;
  return t;
}

struct Bytes final : ByteSource {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(4096);
  const uint8_t* data() const override { return bytes.data(); }
  std::size_t size() const override { return bytes.size(); }
};

DumpFile file_with(std::vector<TensorInfo> inputs, std::vector<TensorInfo> outputs) {
  DumpFile f;
  f.path = "/d/Op.x.1.1.1700000000000000";
  f.inputs = std::move(inputs);
  f.outputs = std::move(outputs);
  f.bytes = std::make_shared<Bytes>();
  return f;
}

TEST(TensorElements, ChecksDtypeShapeAndPayload) {
  const DumpFile f = file_with({}, {});
  ElementSource src;
  auto ok =
      tensor_element_source(f, tensor(TensorGroup::kOutput, 0, DType::kFloat16, {2, 3}, 12), src);
  EXPECT_TRUE(ok.error.empty());
  EXPECT_TRUE(ok.note.empty());
  EXPECT_EQ(src.count, 6);

  // Surplus bytes are ignored; a short payload is compared on what it holds, and the row says so.
  auto surplus =
      tensor_element_source(f, tensor(TensorGroup::kOutput, 0, DType::kFloat, {2}, 100), src);
  EXPECT_TRUE(surplus.error.empty());
  EXPECT_EQ(src.count, 2);
  auto short_payload =
      tensor_element_source(f, tensor(TensorGroup::kInput, 1, DType::kFloat, {4}, 8), src);
  EXPECT_TRUE(short_payload.error.empty());
  EXPECT_EQ(src.count, 2);
  EXPECT_EQ(short_payload.note,
            "/d/Op.x.1.1.1700000000000000: input 1 holds only 2 of the 4 elements of "
            "shape [4]; compared those");

  auto ragged =
      tensor_element_source(f, tensor(TensorGroup::kOutput, 0, DType::kFloat, {4}, 6), src);
  EXPECT_NE(ragged.error.find("holds 6 bytes, not a whole number of DT_FLOAT elements"),
            std::string::npos);
  auto overflow = tensor_element_source(
      f, tensor(TensorGroup::kOutput, 0, DType::kFloat, {int64_t{1} << 40, int64_t{1} << 40}, 8),
      src);
  EXPECT_NE(overflow.error.find("whose element count overflows"), std::string::npos);
  EXPECT_NE(overflow.error.find("/d/Op.x.1.1.1700000000000000: output 0"), std::string::npos);
  auto undecodable =
      tensor_element_source(f, tensor(TensorGroup::kOutput, 0, DType::kInt4, {4}, 2), src);
  EXPECT_NE(undecodable.error.find("DT_INT4, which cannot be compared"), std::string::npos);
  auto uint1 =
      tensor_element_source(f, tensor(TensorGroup::kOutput, 0, DType::kUInt1, {3}, 3), src);
  EXPECT_EQ(src.count, 24);  // msaccucmp unpacks prod(shape) bytes into 8 bits each
}

TEST(TensorElements, UndecodableDtypeFailsTheOpLikeMsaccucmp) {
  const DumpFile f = file_with({tensor(TensorGroup::kInput, 0, DType::kInt4, {4}, 2)}, {});
  EXPECT_EQ(undecodable_dtype_message(f), "The output data type (28) does not support.");
  EXPECT_EQ(undecodable_dtype_message(file_with({}, {})), "");
}

TEST(NpuPairing, GroupsFailWholeAndOnlyBothFailuresLeaveARow) {
  const auto in = [](Shape s) {
    return tensor(TensorGroup::kInput, 0, DType::kFloat, std::move(s), 0);
  };
  const auto out = [](Shape s) {
    return tensor(TensorGroup::kOutput, 0, DType::kFloat, std::move(s), 0);
  };
  // Inputs fine, output shapes differ: the output group is dropped silently.
  OpTensorPlan plan = pair_op_tensors("op", file_with({in({2})}, {out({2, 3})}),
                                      file_with({in({2})}, {out({3, 2})}));
  EXPECT_FALSE(plan.op_failed);
  ASSERT_EQ(plan.tensors.size(), 1u);
  EXPECT_EQ(plan.tensors[0].group, TensorGroup::kInput);
  EXPECT_TRUE(plan.reasons.empty());
  // No inputs on either side and output counts differ: one op row with both messages.
  plan = pair_op_tensors("op", file_with({}, {out({2}), out({2})}), file_with({}, {out({2})}));
  EXPECT_TRUE(plan.op_failed);
  EXPECT_EQ(plan.reasons,
            (std::vector<std::string>{"[op] There is no input. Skip the op:input.",
                                      "[op] The number of output does not match (2 vs 1)."}));
  // Rank-1 shapes print as msaccucmp's "(6)".
  plan = pair_op_tensors("op", file_with({in({6})}, {}), file_with({in({8})}, {}));
  EXPECT_EQ(plan.reasons[0], "[op] The shape does not match ((6) vs (8)) for op:input:0.");
}

}  // namespace
}  // namespace dumpcmp
