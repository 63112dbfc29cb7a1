// --consistent_check's pieces (probe/probe_verl_match, probe_verl_tensor, probe_result): the
// training rows read, module names brought together, merged projections gathered, both orders
// kept, numpy's concatenate, and msprobe's write-back of judged rows. The whole against msprobe's
// own files is tests/cli/test_probe_compare.sh (tests/data/msprobe_dump/verl).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_result.hpp"
#include "probe/probe_verl_match.hpp"
#include "probe/probe_verl_tensor.hpp"
#include "probe_arrays.hpp"

namespace dumpcmp {
namespace {

TEST(ProbeVerlTensor, ConcatenatesAsNumpy) {
  const ProbeArray a = array_of<float>(DType::kFloat, {2, 2}, {1, 2, 3, 4});
  const ProbeArray b = array_of<float>(DType::kFloat, {2, 1}, {5, 6});
  std::string why;
  const auto columns = concatenate_arrays({a, b}, 1, why);  // (2,2) + (2,1) -> (2,3)
  ASSERT_TRUE(columns) << why;
  EXPECT_EQ(columns->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values_of<float>(*columns), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  const ProbeArray c = array_of<float>(DType::kFloat, {1, 2}, {7, 8});
  const auto rows = concatenate_arrays({a, c}, 0, why);  // (2,2) + (1,2) -> (3,2)
  ASSERT_TRUE(rows) << why;
  EXPECT_EQ(values_of<float>(*rows), (std::vector<float>{1, 2, 3, 4, 7, 8}));
  // float16 and float64 parts: float64, each value exact
  const ProbeArray h = array_of<uint16_t>(DType::kFloat16, {1, 2}, {0x3C00, 0xC000});  // 1, -2
  const ProbeArray d = array_of<double>(DType::kDouble, {1, 2}, {0.1, 3});
  const auto mixed = concatenate_arrays({h, d}, 0, why);
  ASSERT_TRUE(mixed) << why;
  EXPECT_EQ(mixed->dtype, DType::kDouble);
  EXPECT_EQ(values_of<double>(*mixed), (std::vector<double>{1, -2, 0.1, 3}));
}

TEST(ProbeVerlTensor, RefusesWhatNumpyRefuses) {
  const ProbeArray a = array_of<float>(DType::kFloat, {2, 2}, {1, 2, 3, 4});
  const ProbeArray c = array_of<float>(DType::kFloat, {1, 3}, {7, 8, 9});
  const ProbeArray v = array_of<float>(DType::kFloat, {2}, {1, 2});
  const ProbeArray s = array_of<float>(DType::kFloat, {}, {1});
  std::string why;
  EXPECT_FALSE(concatenate_arrays({a, c}, 0, why));
  EXPECT_NE(why.find("along dimension 1"), std::string::npos) << why;
  EXPECT_FALSE(concatenate_arrays({a, v}, 0, why));
  EXPECT_NE(why.find("same number of dimensions"), std::string::npos) << why;
  EXPECT_FALSE(concatenate_arrays({v, v}, 1, why));  // a squeezed (1, n) output along axis 1
  EXPECT_NE(why.find("axis 1 is out of bounds for array of dimension 1"), std::string::npos);
  EXPECT_FALSE(concatenate_arrays({s, s}, 0, why));
  EXPECT_NE(why.find("zero-dimensional"), std::string::npos);
}

std::string leaf(double max) {
  return R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 4], "Max": )" +
         std::to_string(max) + R"(, "Min": -1, "Mean": 0.5, "Norm": 3, "requires_grad": false})";
}

std::string module_record(double max) {
  return R"({"input_args": [)" + leaf(max) + R"(], "input_kwargs": {}, "output": [)" + leaf(max) +
         "]}";
}

ProbeDump dump_of(const std::vector<std::pair<std::string, double>>& ops) {
  std::string text = R"({"task": "statistics", "level": "L0", "framework": "pytorch", "data": {)";
  for (size_t i = 0; i < ops.size(); ++i) {
    text += (i ? ", " : "") + ("\"" + ops[i].first + "\": ") + module_record(ops[i].second);
  }
  return parse_probe_dump(text + "}}", "dump.json");
}

const std::string kTrain = "Module._fsdp_wrapped_module.model.";
const std::string kLayer = kTrain + "layers.0._fsdp_wrapped_module.";

TEST(ProbeVerlMatch, FsdpGathersTheSplitProjections) {
  const ProbeDump train = dump_of({{kTrain + "embed_tokens.Embedding.forward.0", 1},
                                   {kLayer + "self_attn.q_proj.Linear.forward.0", 2},
                                   {kLayer + "self_attn.k_proj.Linear.forward.0", 5},
                                   {kLayer + "self_attn.v_proj.Linear.forward.0", 3}});
  const ProbeDump infer =
      dump_of({{"Module.model.embed_tokens.VocabParallelEmbedding.forward.0", 1},
               {"Module.model.layers.0.self_attn.qkv_proj.QKVParallelLinear.forward.0", 4}});
  const ProbeConsistentRows rows = consistent_rows(train, infer, {VerlBackend::kFsdp, false});
  ASSERT_EQ(rows.matches.size(), 4u);  // embedding in and out, qkv in and out
  const ProbeMatch& qkv_in = rows.matches[2];
  ASSERT_NE(qkv_in.npu, nullptr);
  EXPECT_EQ(qkv_in.npu->name, kLayer + "self_attn.q_proj.Linear.forward.0.input.0;  " + kLayer +
                                  "self_attn.k_proj.Linear.forward.0.input.0;  " + kLayer +
                                  "self_attn.v_proj.Linear.forward.0.input.0");
  EXPECT_EQ(*qkv_in.npu->dtype, "torch.float32;torch.float32;torch.float32");
  EXPECT_EQ(qkv_in.npu->stats[0].text, "5.0");  // the largest Max
  EXPECT_EQ(qkv_in.npu->stats[2].text, "0.5;0.5;0.5");
  EXPECT_EQ(qkv_in.bench->name,
            "Module.model.layers.0.self_attn.qkv_proj.QKVParallelLinear.forward.0.input.0");
  EXPECT_EQ(rows.matches[0].npu->stats[1].text, "-1.0");  // read back as a float
  EXPECT_EQ(qkv_in.op->key, kLayer + "self_attn.q_proj.Linear.forward.0");
}

TEST(ProbeVerlMatch, ReadsFromTheEmbeddingToTheModelsBackward) {
  // The model's backward stops the reading; the next embedding forward starts it again, and
  // forward calls are numbered among the rows read.
  const ProbeDump train = dump_of({{kTrain + "embed_tokens.Embedding.forward.0", 1},
                                   {kTrain + "Qwen2Model.backward.0", 1},
                                   {kTrain + "norm.Qwen2RMSNorm.backward.0", 1},
                                   {kTrain + "embed_tokens.Embedding.forward.1", 2}});
  const ProbeDump infer =
      dump_of({{"Module.model.embed_tokens.VocabParallelEmbedding.forward.0", 1},
               {"Module.model.embed_tokens.VocabParallelEmbedding.forward.1", 2}});
  const ProbeConsistentRows rows = consistent_rows(train, infer, {VerlBackend::kFsdp, false});
  std::vector<std::string> npu;
  for (const ProbeMatch& m : rows.matches) npu.push_back(m.npu ? m.npu->name : "N/A");
  EXPECT_EQ(npu, (std::vector<std::string>{kTrain + "embed_tokens.Embedding.forward.0.input.0",
                                           kTrain + "embed_tokens.Embedding.forward.0.output.0",
                                           kTrain + "embed_tokens.Embedding.forward.1.input.0",
                                           kTrain + "embed_tokens.Embedding.forward.1.output.0"}));
  for (const ProbeMatch& m : rows.matches) EXPECT_NE(m.bench, nullptr);
}

TEST(ProbeVerlMatch, MegatronNamesMeetVllmNames) {
  const std::string mega = "Module.module.module.";
  const ProbeDump train =
      dump_of({{mega + "embedding.word_embeddings.VocabParallelEmbedding.forward.0", 1},
               {mega + "decoder.layers.0.self_attention.SelfAttention.forward.0", 2}});
  const ProbeDump infer =
      dump_of({{"Module.model.embed_tokens.VocabParallelEmbedding.forward.0", 1},
               {"Module.model.layers.0.self_attn.Qwen2Attention.forward.0", 2}});
  const ProbeConsistentRows rows = consistent_rows(train, infer, {VerlBackend::kMegatron, false});
  ASSERT_EQ(rows.matches.size(), 4u);
  // self_attention, a one-part path, is renamed too, since the dump has a two-part one
  for (const ProbeMatch& m : rows.matches) {
    EXPECT_NE(m.npu, nullptr);
    EXPECT_NE(m.bench, nullptr);
  }
}

TEST(ProbeVerlMatch, OrdersTheDumpsContradictStopTheCompare) {
  const ProbeDump train = dump_of({{kTrain + "embed_tokens.Embedding.forward.0", 1},
                                   {kTrain + "norm.Qwen2RMSNorm.forward.0", 1},
                                   {kTrain + "lm_head.Linear.forward.0", 1}});
  const ProbeDump infer =
      dump_of({{"Module.model.embed_tokens.VocabParallelEmbedding.forward.0", 1},
               {"Module.lm_head.ParallelLMHead.forward.0", 1},
               {"Module.model.norm.RMSNorm.forward.0", 1}});
  EXPECT_THROW(consistent_rows(train, infer, {VerlBackend::kFsdp, false}), Error);
}

TEST(ProbeVerlResult, JudgedRowsAreWrittenBackOpAfterOp) {
  // Op A's rows are not consecutive: msprobe judges A's two rows, then B's, and writes the three
  // results back from the top, so B's row gets A's second cells.
  std::vector<ProbeResultRow> rows(3);
  const char* keys[] = {"A", "B", "A"};
  const char* shapes[] = {"[2]", "[2]", "[3]"};
  for (size_t i = 0; i < 3; ++i) {
    rows[i].op_key = keys[i];
    rows[i].npu_name = std::string(keys[i]) + ".input.0";
    rows[i].bench_name = "b";
    rows[i].npu_dtype = rows[i].bench_dtype = "torch.float32";
    rows[i].npu_shape = shapes[i];
    rows[i].bench_shape = "[2]";
  }
  judge_probe_rows(rows, ProbeMode::kStatistics);
  EXPECT_EQ(rows[0].result, "pass");
  EXPECT_EQ(rows[1].result, "error");  // A's second row, the shape that differs
  EXPECT_EQ(rows[2].result, "pass");   // B's row
}

TEST(ProbeVerlResult, TensorShapesAreComparedSqueezed) {
  std::vector<ProbeResultRow> rows(1);
  rows[0].op_key = "A";
  rows[0].npu_name = "A.output.0";
  rows[0].bench_name = "B.output.0";
  rows[0].npu_shape = "[1, 217, 1, 896]";
  rows[0].bench_shape = "[217, 896]";
  rows[0].npu_requires_grad = "True";
  rows[0].bench_requires_grad = "False";  // not among verl's tensor checks
  const VerlBackend fsdp = VerlBackend::kFsdp;
  judge_probe_rows(rows, ProbeMode::kTensor, &fsdp);
  EXPECT_EQ(rows[0].result, "pass") << rows[0].err_message;
  rows[0].npu_shape = "[4, 3, 5]";  // Megatron: the last two merged against a 2-D bench shape
  rows[0].bench_shape = "[4, 15]";
  const VerlBackend megatron = VerlBackend::kMegatron;
  judge_probe_rows(rows, ProbeMode::kTensor, &megatron);
  EXPECT_EQ(rows[0].result, "pass") << rows[0].err_message;
  judge_probe_rows(rows, ProbeMode::kTensor, &fsdp);
  EXPECT_EQ(rows[0].result, "error");
}

}  // namespace
}  // namespace dumpcmp
