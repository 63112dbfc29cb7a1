// Offline-model fusion rule (-f), quant rule merge (-q) and QuantFilter: docs/formats.md §4-5.
// Expected group counts, relations and quant_filter counts on the real atc JSONs were
// cross-checked against msaccucmp's own FusionRuleParser on the same files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fusion/fusion_rule.hpp"
#include "fusion/quant_rule.hpp"

namespace dumpcmp {
namespace {

using Names = std::vector<std::string>;

std::string realdata(const std::string& relative) {
  return std::string(DUMPCMP_REALDATA_DIR) + "/" + relative;
}

const char* const kJ1 = "msit/msit/test/UT/resource/msquickcmp/om/model.json";
const char* const kJ3 = "msit/msit/test/UT/resource/analyze/dataset/model/test.om.json";
const char* const kJ4 =
    "samples/python/level1_single_api/9_amct/amct_caffe/resnet50/src/nuq_files/"
    "resnet50_om_model.json";
const char* const kJ5 =
    "samples/python/level1_single_api/9_amct/amct_onnx/resnet-101/src/nuq_conf/"
    "resnet-101_quantized.json";
const char* const kJ6 =
    "samples/python/level1_single_api/9_amct/amct_pytorch/resnet-101/src/nuq_conf/"
    "resnet-101_quantized.json";
const char* const kJ7 =
    "samples/python/level1_single_api/9_amct/amct_tensorflow/resnet-50_v1/src/nuq_conf/"
    "resnet-50_v1_quantized.json";
const char* const kJ8 =
    "ge/tests/parser/ut/parser/testcase/onnx_parser_testcase/om_json/enumjson1.json";

#define SKIP_IF_ABSENT(path) \
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "real data absent: " << (path)

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

FusionRule parse_text(const std::string& json) { return FusionRule::parse(json, "rule.json"); }

// The parse must fail with an Error whose message contains `expected`.
void expect_parse_error(const std::string& json, const std::string& expected) {
  try {
    parse_text(json);
    ADD_FAILURE() << "no error for: " << json;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << expected;
  }
}

const FusionOp& op_named(const FusionRule& rule, const std::string& name) {
  const FusionOp* op = rule.find_op(name);
  if (op == nullptr) throw std::runtime_error("no op " + name);
  return *op;
}

struct RuleFacts {
  size_t have_origin = 0;
  size_t non_empty = 0;   // the attr lists at least one non-empty name
  size_t multi = 0;       // more than one original name
  size_t duplicated = 0;  // a name repeated in the list
  std::set<std::string> types;
  size_t quant_filtered = 0;
  std::map<FusionRelation, size_t> relations;
};

RuleFacts facts_of(const FusionRule& rule) {
  RuleFacts f;
  for (const FusionOp& op : rule.ops()) {
    f.types.insert(op.type);
    if (op.quant_filter) ++f.quant_filtered;
    if (!op.have_origin) continue;
    ++f.have_origin;
    const Names& names = op.original_op_names;
    if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return !n.empty(); })) {
      ++f.non_empty;
    }
    if (names.size() > 1) ++f.multi;
    if (std::set<std::string>(names.begin(), names.end()).size() < names.size()) ++f.duplicated;
  }
  for (const FusionGroup& group : rule.groups()) ++f.relations[group.relation];
  return f;
}

// ---- MD5, uuid3, names ----------------------------------------------------------------------

TEST(FusionRuleKeys, Md5Rfc1321TestSuite) {
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5_hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5_hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(md5_hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(md5_hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(md5_hex("1234567890123456789012345678901234567890123456789012345678901234567890123"
                    "4567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(FusionRuleKeys, Md5PaddingBoundaries) {
  // 55, 56 and 64 bytes straddle the one-block / two-block padding split (python3 hashlib).
  EXPECT_EQ(md5_hex(std::string(55, 'x')), "04364420e25c512fd958a70738aa8f72");
  EXPECT_EQ(md5_hex(std::string(56, 'x')), "668a72d5ba17f08e62dabcafad6db14b");
  EXPECT_EQ(md5_hex(std::string(64, 'x')), "c1bb4f81d892b2d57947682aeb252456");
}

TEST(FusionRuleKeys, Uuid3MatchesPython) {
  // python3 -c "import uuid; print(uuid.uuid3(uuid.NAMESPACE_DNS, 'ab'))"
  EXPECT_EQ(uuid3_dns("ab"), "6a8845c2-3330-3de9-9c3e-332c4661f381");
  EXPECT_EQ(uuid3_dns(""), "c87ee674-4ddc-3efe-a74e-dfe25da5d7b3");
  EXPECT_EQ(uuid3_dns("conv1_0_quant_layerconv1conv1_dequant_layerconv1_relu"),
            "61130506-35db-306a-b331-5f31e3568397");
}

TEST(FusionRuleKeys, StripLxslice) {
  EXPECT_EQ(strip_lxslice("conv_lxslice12"), "conv");
  EXPECT_EQ(strip_lxslice("a_lxslice1b_lxslice2"), "ab");
  EXPECT_EQ(strip_lxslice("a_lxslice"), "a_lxslice");  // the pattern needs a digit
  EXPECT_EQ(strip_lxslice("_lxslice_lxslice3x"), "_lxslicex");
  EXPECT_EQ(strip_lxslice("plain"), "plain");
}

// ---- Real atc JSONs -------------------------------------------------------------------------

TEST(FusionRuleRealData, J1NmsSubgraph) {
  const std::string path = realdata(kJ1);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.source(), path);
  EXPECT_EQ(rule.ops().size(), 19U);
  EXPECT_EQ(rule.groups().size(), 18U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.types.size(), 10U);
  EXPECT_EQ(f.have_origin, 9U);
  EXPECT_EQ(f.non_empty, 4U);
  EXPECT_EQ(f.multi, 0U);
  EXPECT_EQ(f.relations.at(FusionRelation::kOneToMulti), 1U);
  EXPECT_EQ(f.relations.at(FusionRelation::kOneToOne), 17U);
  EXPECT_EQ(rule.input_op_names(), (Names{"boxes_all", "scores_all"}));

  // Gather_1221 is split into a const and the GatherV2: one-to-multi, keyed by the one name.
  const FusionOp& gather = op_named(rule, "PartitionedCall_Gather_1221_gatherv2_3");
  const FusionGroup& group = rule.group_of(gather);
  EXPECT_EQ(group.key, "Gather_1221");
  EXPECT_FALSE(group.key_is_uuid);
  EXPECT_EQ(group.id, 5);
  EXPECT_EQ(group.relation, FusionRelation::kOneToMulti);
  ASSERT_EQ(group.ops.size(), 2U);
  EXPECT_EQ(rule.ops()[static_cast<size_t>(group.ops[0])].name,
            "PartitionedCall_Gather_1221_const_data_2");
  EXPECT_EQ(gather.op_sequence, 16);

  // The Cast inserted by atc has originals [""]: keyed by its own name; its output is described.
  const FusionOp& cast = op_named(rule, "trans_Cast_0");
  EXPECT_TRUE(cast.have_origin);
  EXPECT_EQ(cast.original_op_names, (Names{""}));
  EXPECT_EQ(rule.group_of(cast).key, "trans_Cast_0");
  std::string error;
  const auto tensor = origin_tensor(cast, 0, error);
  ASSERT_TRUE(tensor.has_value()) << error;
  EXPECT_EQ(tensor->name, "boxes_all");
  EXPECT_EQ(tensor->index, 0);
  EXPECT_EQ(tensor->format, "NCHW");
  EXPECT_EQ(tensor->shape, (Shape{1000, 80, 4}));
  EXPECT_EQ(cast.output_desc[0].data_type, "DT_FLOAT16");

  // Node_Output's inputs come from Casts: the producer is what the Cast converted.
  const FusionOp& output = op_named(rule, "Node_Output");
  int k = -1;
  const FusionOp* producer = resolve_input_producer(rule, output, 0, k, error);
  ASSERT_NE(producer, nullptr) << error;
  EXPECT_EQ(producer->name, "Slice_1218");
  EXPECT_EQ(k, 0);
  producer = resolve_input_producer(rule, output, 2, k, error);
  ASSERT_NE(producer, nullptr) << error;
  // Cast_1206 is a Cast from the model itself: skipped too, by type.
  EXPECT_EQ(producer->name, "BatchMultiClassNMS_1203");
  EXPECT_EQ(k, 2);

  // msaccucmp splits "onnx::Gather_1764_0:0" on every ':' and rejects it: kept.
  EXPECT_EQ(resolve_input_producer(rule, gather, 1, k, error), nullptr);
  EXPECT_NE(error.find("only supports op_name:index"), std::string::npos) << error;

  // op_list by id: Gather (id 16) sorts after Slice_1218 (14) and trans_Cast_6 (15).
  const std::vector<int>& order = rule.ops_by_sequence();
  ASSERT_EQ(order.size(), 19U);
  EXPECT_EQ(rule.ops()[static_cast<size_t>(order[16])].name, gather.name);
  EXPECT_EQ(rule.ops()[static_cast<size_t>(order[18])].name, "Node_Output");
}

TEST(FusionRuleRealData, J3TdnnDuplicatedNames) {
  const std::string path = realdata(kJ3);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 132U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.types.size(), 24U);
  EXPECT_EQ(f.have_origin, 115U);
  EXPECT_EQ(f.non_empty, 40U);
  EXPECT_EQ(f.multi, 31U);
  EXPECT_EQ(f.duplicated, 26U);
  EXPECT_EQ(rule.groups().size(), 130U);
  EXPECT_EQ(f.relations.at(FusionRelation::kMultiToOne), 31U);
  EXPECT_EQ(f.relations.at(FusionRelation::kOneToMulti), 1U);
  EXPECT_EQ(f.relations.at(FusionRelation::kOneToOne), 98U);

  const FusionOp& transpose = op_named(rule, "PartitionedCall_Transpose_0_Transpose_1");
  EXPECT_EQ(transpose.original_op_names, (Names{"Transpose_0", "Transpose_0"}));
  // Two names (even equal ones) key the group by uuid3 of their concatenation.
  EXPECT_TRUE(rule.group_of(transpose).key_is_uuid);
  EXPECT_EQ(rule.group_of(transpose).key, uuid3_dns("Transpose_0Transpose_0"));
  EXPECT_EQ(rule.group_of(transpose).relation, FusionRelation::kMultiToOne);

  const FusionOp& bn = op_named(rule, "BatchNormalization_60_BNInferenceD");
  EXPECT_EQ(bn.original_op_names,
            (Names{"BatchNormalization_60", "Transpose_55", "Transpose_55", "Constant_56",
                   "Constant_57", "Constant_58", "Constant_59"}));
}

TEST(FusionRuleRealData, J4CaffeResnet50Quantized) {
  const std::string path = realdata(kJ4);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 224U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.have_origin, 222U);
  EXPECT_EQ(f.multi, 56U);
  EXPECT_EQ(f.quant_filtered, 47U);
  EXPECT_EQ(f.relations.at(FusionRelation::kMultiToOne), 56U);
  EXPECT_EQ(f.relations.at(FusionRelation::kOneToOne), 168U);

  const FusionOp& conv = op_named(rule, "conv1conv1_relu");
  EXPECT_EQ(conv.type, "Conv2D");
  EXPECT_EQ(conv.original_op_names,
            (Names{"conv1_0_quant_layer", "conv1", "conv1_dequant_layer", "conv1_relu"}));
  EXPECT_EQ(rule.group_of(conv).key, "61130506-35db-306a-b331-5f31e3568397");
  std::string error;
  const auto out = origin_tensor(conv, 0, error);
  ASSERT_TRUE(out.has_value()) << error;
  EXPECT_EQ(out->name, "conv1_relu");
  EXPECT_EQ(out->index, 0);
  EXPECT_EQ(out->format, "NCHW");

  const FusionOp& pool = op_named(rule, "pool1res2a_branch1_0_quant_layer");
  EXPECT_EQ(pool.type, "Pooling");
  EXPECT_EQ(pool.original_op_names, (Names{"pool1", "res2a_branch1_0_quant_layer"}));
}

TEST(FusionRuleRealData, J5OnnxResnet101) {
  const std::string path = realdata(kJ5);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 327U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.have_origin, 323U);
  EXPECT_EQ(f.multi, 104U);
  EXPECT_EQ(f.quant_filtered, 0U);
  const FusionOp& conv = op_named(rule, "Conv_0Relu_2");
  EXPECT_EQ(conv.type, "Conv2D");
  EXPECT_EQ(conv.original_op_names, (Names{"BatchNormalization_1", "Conv_0", "Relu_2"}));
  ASSERT_EQ(conv.output_desc.size(), 1U);
  EXPECT_EQ(conv.output_desc[0].origin_name, "Relu_2");
  EXPECT_EQ(conv.output_desc[0].origin_output_index, 0);
  EXPECT_EQ(conv.output_desc[0].origin_format, "NCHW");
  EXPECT_EQ(conv.output_desc[0].origin_shape, (Shape{1, 64, 112, 112}));
  EXPECT_EQ(conv.inputs,
            (Names{"trans_TransData_1:0", "dynamic_const_6745_426:0", "dynamic_const_6745_218:0"}));
  // Input 0 comes through a TransData: the producer is what the TransData converted.
  std::string error;
  int k = -1;
  const FusionOp* producer = resolve_input_producer(rule, conv, 0, k, error);
  ASSERT_NE(producer, nullptr) << error;
  EXPECT_NE(producer->type, "TransData");
  EXPECT_NE(producer->type, "Cast");
}

TEST(FusionRuleRealData, J6PytorchResnet101Quantized) {
  const std::string path = realdata(kJ6);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 432U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.have_origin, 429U);
  EXPECT_EQ(f.multi, 105U);
  EXPECT_EQ(f.quant_filtered, 98U);
  EXPECT_EQ(op_named(rule, "Conv_1Relu_3").original_op_names,
            (Names{"Conv_1", "Conv_1.quant", "Conv_1.dequant", "Relu_3"}));
  EXPECT_EQ(op_named(rule, "Conv_6Conv_6.dequantConv_10.quant").original_op_names,
            (Names{"Conv_6", "Conv_6.dequant", "Conv_10.quant"}));
}

TEST(FusionRuleRealData, J7TensorflowResnet50Quantized) {
  const std::string path = realdata(kJ7);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 229U);
  const RuleFacts f = facts_of(rule);
  EXPECT_EQ(f.types.size(), 13U);
  EXPECT_EQ(f.have_origin, 226U);
  EXPECT_EQ(f.multi, 58U);
  EXPECT_EQ(f.duplicated, 1U);
  EXPECT_EQ(f.quant_filtered, 51U);
  const FusionOp& conv = op_named(rule, "resnet_v1_50/conv1/Conv2Dresnet_v1_50/conv1/Relu");
  const Names& names = conv.original_op_names;
  EXPECT_EQ(names.size(), 10U);
  EXPECT_EQ(std::count(names.begin(), names.end(), "resnet_v1_50/Pad"), 3);
  std::string error;
  const auto out = origin_tensor(conv, 0, error);
  ASSERT_TRUE(out.has_value()) << error;
  EXPECT_EQ(out->name, "resnet_v1_50/conv1/Relu");
}

TEST(FusionRuleRealData, J8EnumCompressedFixture) {
  const std::string path = realdata(kJ8);
  SKIP_IF_ABSENT(path);
  // GE's fixture ops have no name: msaccucmp rejects such a file, and so do we, after the enum
  // tables and keys were read without complaint.
  try {
    FusionRule::parse_file(path);
    ADD_FAILURE() << "J8 has ops without a name";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("graph[0].op[0]: missing \"name\""), std::string::npos)
        << e.what();
  }

  // With names added, and two table entries renamed to attrs we read, the keys and values
  // resolve through attr_name_enum / attr_value_enum as GE's EnumJson2Json does.
  std::string text = read_all(path);
  const size_t graph_at = text.find("\"graph\"");
  ASSERT_NE(graph_at, std::string::npos);
  // Each op object opens with `{ "attr"`: give it a name and a type there.
  std::string named = text.substr(graph_at);
  int counter = 0;
  for (size_t at = named.find("\"attr\""); at != std::string::npos;
       at = named.find("\"attr\"", at + 1)) {
    const size_t brace = named.find_last_not_of(" \t\r\n", at - 1);
    if (named[brace] != '{') continue;
    const std::string insert = "\"name\":\"op" + std::to_string(counter++) + "\",\"type\":\"T\",";
    named.insert(at, insert);
    at += insert.size();
  }
  ASSERT_EQ(counter, 2);
  std::string head = text.substr(0, graph_at);
  auto rename = [&head](const std::string& from, const std::string& to) {
    const size_t at = head.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    head.replace(at, from.size(), to);
  };
  rename("\"attr2\"", "\"_datadump_original_op_names\"");
  rename("\"attr3\"", "\"_L1_fusion_sub_graph_no\"");

  const FusionRule plain = parse_text(text.substr(0, graph_at) + named);
  ASSERT_EQ(plain.ops().size(), 2U);
  EXPECT_FALSE(plain.ops()[0].have_origin);
  EXPECT_EQ(plain.ops()[0].original_op_names, (Names{"op0"}));

  const FusionRule renamed = parse_text(head + named);
  ASSERT_EQ(renamed.ops().size(), 2U);
  EXPECT_TRUE(renamed.ops()[0].have_origin);
  EXPECT_EQ(renamed.ops()[0].original_op_names, (Names{"attr2_value1", "attr2_value2"}));
  EXPECT_EQ(renamed.ops()[1].l1_fusion_no, "attr3_value1");
}

// ---- Parsing rules on small documents ---------------------------------------------------------

std::string names_attr(const Names& names) {
  std::string s = R"({"key":"_datadump_original_op_names","value":{"list":{"s":[)";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ",\"" : "\"") + names[i] + "\"";
  return s + R"(],"val_type":"VT_LIST_STRING"}}})";
}

std::string op_json(const std::string& name, const std::string& type, const std::string& extra) {
  return R"({"name":")" + name + R"(","type":")" + type + "\"" + (extra.empty() ? "" : ",") +
         extra + "}";
}

std::string model(const std::vector<std::vector<std::string>>& graphs) {
  std::string s = R"({"name":"m","graph":[)";
  for (size_t g = 0; g < graphs.size(); ++g) {
    s += (g ? "," : "") + std::string(R"({"name":"g","op":[)");
    for (size_t i = 0; i < graphs[g].size(); ++i) s += (i ? "," : "") + graphs[g][i];
    s += "]}";
  }
  return s + "]}";
}

TEST(FusionRuleParse, GroupKeysAndRelations) {
  const FusionRule rule = parse_text(model({{
      op_json("solo", "Relu", ""),                                              // no attr: own name
      op_json("renamed", "Relu", "\"attr\":[" + names_attr({"orig"}) + "]"),    // one name
      op_json("fused", "Conv2D", "\"attr\":[" + names_attr({"a", "b"}) + "]"),  // uuid3("ab")
      op_json("split1", "Const", "\"attr\":[" + names_attr({"big"}) + "]"),
      op_json("split2", "MatMul", "\"attr\":[" + names_attr({"big"}) + "]"),
      op_json("mm1", "Add", "\"attr\":[" + names_attr({"p", "q"}) + "]"),
      op_json("mm2", "Mul", "\"attr\":[" + names_attr({"p", "q"}) + "]"),
      op_json("l1a", "Conv2D",
              R"("attr":[{"key":"_L1_fusion_sub_graph_no","value":{"s":"L1_7"}},)" +
                  names_attr({"x"}) + "]"),
      op_json("l1b", "Conv2D",
              R"("attr":[{"key":"_L1_fusion_sub_graph_no","value":{"s":"L1_7"}}])"),
      op_json("empty", "Cast",
              R"("attr":[{"key":"_datadump_original_op_names","value":{"list":{}}}])"),
      op_json("none", "Cast",
              R"("attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":[]}}}])"),
  }}));
  const std::vector<FusionGroup>& groups = rule.groups();
  ASSERT_EQ(groups.size(), 8U);
  auto expect_group = [&](size_t id, const std::string& key, bool uuid, FusionRelation relation,
                          size_t size) {
    SCOPED_TRACE("group " + std::to_string(id));
    EXPECT_EQ(groups[id].id, static_cast<int64_t>(id));
    EXPECT_EQ(groups[id].key, key);
    EXPECT_EQ(groups[id].key_is_uuid, uuid);
    EXPECT_EQ(groups[id].relation, relation);
    EXPECT_EQ(groups[id].ops.size(), size);
  };
  expect_group(0, "solo", false, FusionRelation::kOneToOne, 1);
  expect_group(1, "orig", false, FusionRelation::kOneToOne, 1);
  expect_group(2, "6a8845c2-3330-3de9-9c3e-332c4661f381", true, FusionRelation::kMultiToOne, 1);
  expect_group(3, "big", false, FusionRelation::kOneToMulti, 2);
  expect_group(4, uuid3_dns("pq"), true, FusionRelation::kMultiToMulti, 2);
  expect_group(5, "L1_7", false, FusionRelation::kL1Fusion, 2);
  expect_group(6, "empty", false, FusionRelation::kOneToOne, 1);  // [""]: own name
  expect_group(7, "none", false, FusionRelation::kOneToOne, 1);   // []: own name
  EXPECT_EQ(op_named(rule, "empty").original_op_names, (Names{""}));
  EXPECT_TRUE(op_named(rule, "none").original_op_names.empty());
  EXPECT_EQ(op_named(rule, "l1b").original_op_names, (Names{"l1b"}));
  EXPECT_EQ(op_named(rule, "mm2").group_id, 4);
}

TEST(FusionRuleParse, UuidKeyNeverEqualsANameKey) {
  // An op whose single original name is the text of another group's uuid stays apart.
  const std::string uuid = uuid3_dns("ab");
  const FusionRule rule = parse_text(model({{
      op_json("fused", "Conv2D", "\"attr\":[" + names_attr({"a", "b"}) + "]"),
      op_json("other", "Relu", "\"attr\":[" + names_attr({uuid}) + "]"),
  }}));
  ASSERT_EQ(rule.groups().size(), 2U);
  EXPECT_EQ(rule.groups()[0].key, rule.groups()[1].key);
  EXPECT_NE(rule.groups()[0].key_is_uuid, rule.groups()[1].key_is_uuid);
}

TEST(FusionRuleParse, GroupIdsAcrossGraphsAndDuplicateNames) {
  const FusionRule rule = parse_text(model({
      {op_json("a", "Relu", "\"id\":5,\"attr\":[" + names_attr({"k"}) + "]"),
       op_json("b", "Relu", "\"id\":1")},
      {op_json("c", "Relu", "\"id\":3"),
       op_json("a", "Relu", "\"id\":9,\"attr\":[" + names_attr({"k"}) + "]"),  // dup in group
       op_json("d", "Relu", "\"id\":2,\"attr\":[" + names_attr({"k"}) + "]")},
  }));
  ASSERT_EQ(rule.groups().size(), 3U);
  EXPECT_EQ(rule.groups()[0].key, "k");
  EXPECT_EQ(rule.groups()[1].key, "b");
  EXPECT_EQ(rule.groups()[2].key, "c");  // ids count across graphs
  ASSERT_EQ(rule.ops().size(), 4U);      // the second "a" was dropped
  EXPECT_EQ(rule.groups()[0].ops, (std::vector<int>{0, 3}));
  EXPECT_EQ(op_named(rule, "a").op_sequence, 5);
  EXPECT_EQ(op_named(rule, "d").group_id, 0);
  std::vector<std::string> order;
  for (const int i : rule.ops_by_sequence())
    order.push_back(rule.ops()[static_cast<size_t>(i)].name);
  EXPECT_EQ(order, (Names{"b", "d", "c", "a"}));
}

TEST(FusionRuleParse, InputsAreFiltered) {
  const FusionRule rule = parse_text(model({{
      op_json("p_lxslice1", "Relu", ""),
      op_json("x", "Add", R"("input":["p_lxslice2:0","","ctrl:-1","q:1"])"),
      op_json("y", "Add", R"("input":[""])"),
      op_json("z", "Add", R"("input":["",""])"),
  }}));
  EXPECT_NE(rule.find_op("p"), nullptr);  // _lxsliceN removed from names
  EXPECT_EQ(op_named(rule, "x").inputs, (Names{"p:0", "q:1"}));
  EXPECT_TRUE(op_named(rule, "y").inputs.empty());
  EXPECT_TRUE(op_named(rule, "z").inputs.empty());
}

TEST(FusionRuleParse, OutputDescWalk) {
  const std::string descs = R"("output_desc":[
      {"dtype":"DT_FLOAT16","attr":[{"key":"_datadump_origin_name","value":{"s":"o"}},
        {"key":"origin_format","value":{"s":"ND"}},
        {"key":"origin_shape","value":{"list":{"i":[2,3],"val_type":"VT_LIST_INT"}}}]},
      {"dtype":"DT_INT8"},
      {"dtype":"DT_FLOAT","attr":[{"key":"_datadump_origin_name","value":{"s":"o"}},
        {"key":"_datadump_origin_format","value":{"s":"NCHW"}},
        {"key":"origin_format","value":{"s":5}},
        {"key":"_datadump_origin_output_index","value":{"i":7}},
        {"key":"_datadump_origin_output_index","value":{"i":"ignored: only the first counts"}}]},
      {"attr":[{"key":"layout","value":"NCHW"}]}])";
  const FusionRule rule = parse_text(
      model({{op_json("f", "Conv2D", "\"attr\":[" + names_attr({"a", "b"}) + "]," + descs)}}));
  const FusionOp& op = op_named(rule, "f");
  ASSERT_EQ(op.output_desc.size(), 3U);  // the entry without attr yields nothing
  EXPECT_EQ(op.output_desc[0].origin_name, "o");
  EXPECT_EQ(op.output_desc[0].origin_output_index, 0);
  EXPECT_EQ(op.output_desc[0].origin_format, "ND");  // GE origin_format as the fallback
  EXPECT_EQ(op.output_desc[0].origin_shape, (Shape{2, 3}));
  EXPECT_EQ(op.output_desc[0].data_type, "DT_FLOAT16");
  EXPECT_EQ(op.output_desc[1].origin_output_index, 7);
  EXPECT_EQ(op.output_desc[1].origin_format, "NCHW");  // origin_format never read: not checked
  EXPECT_EQ(op.output_desc[1].data_type, "DT_FLOAT");
  EXPECT_EQ(op.output_desc[2].origin_name, "");         // have_origin: no fill-in
  EXPECT_EQ(op.output_desc[2].origin_output_index, 3);  // default index counts every entry
  EXPECT_EQ(op.output_desc[2].data_type, "");
}

TEST(FusionRuleParse, OpsWithoutOriginDescribeThemselves) {
  const FusionRule rule = parse_text(model({{
      op_json("bare", "Relu", ""),
      op_json("half", "Relu",
              R"("output_desc":[{"attr":[]},
              {"attr":[{"key":"_datadump_origin_name","value":{"s":"z"}}]}])"),
      // Rule 8: a lone op keyed by its single original name gets that name on empty descs.
      op_json("ren", "Relu",
              "\"attr\":[" + names_attr({"orig"}) + R"(],"output_desc":[{"attr":[]}])"),
      op_json("ren2", "Relu", "\"attr\":[" + names_attr({"orig2"}) + "]"),
  }}));
  const FusionOp& bare = op_named(rule, "bare");
  ASSERT_EQ(bare.output_desc.size(), 1U);
  EXPECT_EQ(bare.output_desc[0].origin_name, "bare");
  EXPECT_FALSE(bare.output_desc[0].has_origin_output_index);
  std::string error;
  const auto t = origin_tensor(bare, 3, error);  // index None: the requested index is used
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->index, 3);
  const FusionOp& half = op_named(rule, "half");
  EXPECT_EQ(half.output_desc[0].origin_name, "half");
  EXPECT_EQ(half.output_desc[1].origin_name, "z");
  EXPECT_EQ(op_named(rule, "ren").output_desc[0].origin_name, "orig");
  ASSERT_EQ(op_named(rule, "ren2").output_desc.size(), 1U);
  EXPECT_EQ(op_named(rule, "ren2").output_desc[0].origin_name, "orig2");
}

TEST(FusionRuleParse, RenameStepSkipsGroupsOfSeveralOps) {
  const FusionRule rule = parse_text(model({{
      op_json("s1", "Const",
              "\"attr\":[" + names_attr({"big"}) + R"(],"output_desc":[{"attr":[]}])"),
      op_json("s2", "MatMul",
              "\"attr\":[" + names_attr({"big"}) + R"(],"output_desc":[{"attr":[]}])"),
  }}));
  EXPECT_EQ(op_named(rule, "s1").output_desc[0].origin_name, "");
  std::string error;
  EXPECT_FALSE(origin_tensor(op_named(rule, "s1"), 0, error).has_value());
  EXPECT_NE(error.find("The origin name of the s1:0 is empty."), std::string::npos) << error;
}

TEST(FusionRuleParse, DataOpsAndMultiop) {
  const FusionRule rule = parse_text(model({{
      op_json("in_lxslice1", "Data", ""),
      op_json("inner", "Add",
              R"("attr":[{"key":"_datadump_is_multiop","value":{"b":true}},)" +
                  names_attr({"a", "b"}) + R"(],"output_desc":[{"attr":[]}])"),
  }}));
  EXPECT_EQ(rule.input_op_names(), (Names{"in_lxslice1"}));  // raw name, as msaccucmp keeps it
  EXPECT_TRUE(op_named(rule, "inner").is_multiop);
  EXPECT_TRUE(is_inner_node(op_named(rule, "inner")));
  EXPECT_FALSE(is_inner_node(op_named(rule, "in")));
}

TEST(FusionRuleParse, EnumCompressedAttrs) {
  const std::string head = R"({"attr":[
      {"key":"om_compress_version","value":{"i":1}},
      {"key":"attr_name_enum","value":{"list":{"s":["_datadump_original_op_names",
          "_datadump_origin_name","_datadump_origin_output_index"]}}},
      {"key":"attr_value_enum","value":{"list":{"s":["v0","v1","v2"]}}},
      {"key":"attrs_use_string_value","value":{"list":{"b":[true,true,false]}}}],)";
  const FusionRule rule = parse_text(head + R"("graph":[{"op":[{"name":"n","type":"T",
      "attr":[{"key":"\u0000\u0001","value":{"list":{"i":[2,0]}}}],
      "output_desc":[{"attr":[{"key":"\u0000\u0002","value":{"i":1}},
                              {"key":"\u0000\u0003","value":{"i":4}}]}]}]}]})");
  const FusionOp& op = op_named(rule, "n");
  EXPECT_EQ(op.original_op_names, (Names{"v2", "v0"}));
  ASSERT_EQ(op.output_desc.size(), 1U);
  EXPECT_EQ(op.output_desc[0].origin_name, "v1");
  EXPECT_EQ(op.output_desc[0].origin_output_index, 4);

  expect_parse_error(head + R"("graph":[{"op":[{"name":"n","type":"T",
      "attr":[{"key":"\u0000\u0009","value":{"i":0}}]}]}]})",
                     "graph[0].op[0].attr[0].key: enum-encoded attr key index 8 is outside");
  expect_parse_error(head + R"("graph":[{"op":[{"name":"n","type":"T",
      "output_desc":[{"attr":[{"key":"\u0000\u0002","value":{"i":3}}]}]}]}]})",
                     "graph[0].op[0].output_desc[0].attr[0].value.i: enum value index 3");
  expect_parse_error(R"({"graph":[{"op":[{"name":"n","type":"T",
      "attr":[{"key":"\u0000\u0001","value":{"i":0}}]}]}]})",
                     "enum-encoded but the model has no om_compress_version 1");
}

// ---- Tensor matching ------------------------------------------------------------------------

TEST(FusionRuleMatch, OriginTensorQuirks) {
  FusionOp op;
  op.name = "op";
  std::string error;
  EXPECT_FALSE(origin_tensor(op, 0, error).has_value());
  EXPECT_NE(error.find("is empty"), std::string::npos);
  OutputDesc d;
  d.origin_name = "orig";
  d.origin_output_index = 2;
  d.origin_format = "NCHW";
  op.output_desc.push_back(d);
  const auto t = origin_tensor(op, 5, error);  // past the end: desc[0]
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name, "orig");
  EXPECT_EQ(t->index, 2);
}

std::string chain_model(const std::string& cast_input) {
  return model({{
      op_json("src", "Conv2D", R"("output_desc":[{"attr":[]},{"attr":[]}])"),
      op_json("cast", "Cast", R"("input":[")" + cast_input + R"("])"),
      op_json("trans", "TransData", R"("input":["cast:0"])"),
      op_json("user", "Relu",
              R"("input":["trans:0","src:1","nowhere:0","bad","x:y",":0","src:12345678901"])"),
  }});
}

TEST(FusionRuleMatch, CastAndTransDataAreSkipped) {
  const FusionRule rule = parse_text(chain_model("src:1"));
  const FusionOp& user = op_named(rule, "user");
  std::string error;
  int k = -1;
  const FusionOp* producer = resolve_input_producer(rule, user, 0, k, error);
  ASSERT_NE(producer, nullptr) << error;
  EXPECT_EQ(producer->name, "src");
  EXPECT_EQ(k, 1);
  producer = resolve_input_producer(rule, user, 1, k, error);
  ASSERT_NE(producer, nullptr);
  EXPECT_EQ(producer->name, "src");
  // An output of a Cast is also described by what it converted.
  producer = resolve_output_source(rule, op_named(rule, "trans"), 0, k, error);
  ASSERT_NE(producer, nullptr) << error;
  EXPECT_EQ(producer->name, "src");
  EXPECT_EQ(k, 1);
  producer = resolve_output_source(rule, user, 0, k, error);
  EXPECT_EQ(producer, &user);
  EXPECT_EQ(k, 0);
}

TEST(FusionRuleMatch, BadInputsGiveClearErrors) {
  const FusionRule rule = parse_text(chain_model("src:1"));
  const FusionOp& user = op_named(rule, "user");
  std::string error;
  int k = -1;
  EXPECT_EQ(resolve_input_producer(rule, user, 2, k, error), nullptr);
  EXPECT_NE(error.find("There is no \"nowhere\" in the fusion rule file"), std::string::npos);
  EXPECT_EQ(resolve_input_producer(rule, user, 3, k, error), nullptr);
  EXPECT_NE(error.find("only supports op_name:index"), std::string::npos);
  EXPECT_EQ(resolve_input_producer(rule, user, 4, k, error), nullptr);
  EXPECT_NE(error.find("only supports numbers"), std::string::npos);
  EXPECT_EQ(resolve_input_producer(rule, user, 5, k, error), nullptr);
  EXPECT_NE(error.find("operator name is empty"), std::string::npos);
  EXPECT_EQ(resolve_input_producer(rule, user, 6, k, error), nullptr);
  EXPECT_NE(error.find("out of range"), std::string::npos);
  EXPECT_EQ(resolve_input_producer(rule, user, 7, k, error), nullptr);
  EXPECT_NE(error.find("The input index (7) of \"user\" is out of range (7)."), std::string::npos)
      << error;
  // A Cast whose producer is missing.
  const FusionRule broken = parse_text(chain_model("gone:0"));
  EXPECT_EQ(resolve_input_producer(broken, op_named(broken, "user"), 0, k, error), nullptr);
  EXPECT_NE(error.find("There is no \"gone\""), std::string::npos);
}

TEST(FusionRuleMatch, CastCycleIsDetected) {
  const FusionRule rule = parse_text(chain_model("trans:0"));
  std::string error;
  int k = -1;
  EXPECT_EQ(resolve_input_producer(rule, op_named(rule, "user"), 0, k, error), nullptr);
  EXPECT_NE(error.find("form a cycle"), std::string::npos) << error;
  const FusionRule self = parse_text(model({{op_json("c", "Cast", R"("input":["c:0"])")}}));
  EXPECT_EQ(resolve_output_source(self, op_named(self, "c"), 0, k, error), nullptr);
  EXPECT_NE(error.find("form a cycle"), std::string::npos) << error;
}

TEST(FusionRuleMatch, DequantAndQuantSkips) {
  FusionOp op;
  op.type = "AscendDequant";
  op.name = "x";
  EXPECT_TRUE(skips_input_compare(op));
  op.type = "Conv2D";
  for (const char* name : {"a_dequant_layer", "b/AscendDequant", "c_dequant"}) {
    op.name = name;
    EXPECT_TRUE(skips_input_compare(op)) << name;
  }
  op.name = "c_dequant_1";
  EXPECT_FALSE(skips_input_compare(op));
  EXPECT_FALSE(skips_output_compare(op));
  op.type = "AscendQuant";
  EXPECT_TRUE(skips_output_compare(op));
}

// ---- Quant rule -----------------------------------------------------------------------------

// msaccucmp's test_merge_fusion_rule (the res2a_branch1 example of docs/formats.md §5).
const char* const kOmForMerge = R"({"graph":[{"op":[
  {"name":"data","type":"Data","output_desc":[{"attr":[{"key":"layout","value":"NCHW"}]}]},
  {"name":"res2a_branch1_quant_layer","type":"AscendQuant",
   "output_desc":[{"attr":[{"key":"layout","value":"NCHW"}]}]},
  {"name":"res2a_branch1res2a_branch1_dequant_layer","type":"AscendDequant",
   "attr":[{"key":"_datadump_original_op_names","value":{"list":{"val_type":1,
            "s":["res2a_branch1","res2a_branch1_dequant_layer"]}}}],
   "output_desc":[{"attr":[
     {"key":"_datadump_origin_name","value":{"s":"res2a_branch1_dequant_layer"}},
                           {"key":"_datadump_origin_output_index","value":{"i":0}},
                           {"key":"_datadump_origin_format","value":{"s":"NHWC"}}]}]}]}]})";
const char* const kQuantForMerge = R"({"graph":[{"op":[
  {"name":"data","type":"Input"},
  {"name":"res2a_branch1_quant_layer","type":"Quant","attr":[{"key":"_datadump_original_op_names",
   "value":{"list":{"val_type":1,"s":["res2a_branch1","bn2a_branch1","scale2a_branch1"]}}}]},
  {"name":"res2a_branch1","type":"Convolution","attr":[{"key":"_datadump_original_op_names",
   "value":{"list":{"val_type":1,"s":["res2a_branch1","bn2a_branch1","scale2a_branch1"]}}}]},
  {"name":"res2a_branch1_dequant_layer","type":"DeQuant",
   "attr":[{"key":"_datadump_original_op_names",
   "value":{"list":{"val_type":1,"s":["res2a_branch1","bn2a_branch1","scale2a_branch1"]}}}],
   "output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"scale2a_branch1"}},
                           {"key":"_datadump_origin_output_index","value":{"i":0}},
                           {"key":"_datadump_origin_format","value":{"s":"NHWC"}}]}]}]}]})";

TEST(QuantRule, MergeRes2aBranch1) {
  const FusionRule om = parse_text(kOmForMerge);
  const FusionRule quant = parse_text(kQuantForMerge);
  ASSERT_EQ(om.groups().size(), 3U);
  ASSERT_EQ(quant.groups().size(), 2U);
  const FusionRule merged = merge_quant_rule(om, quant);
  ASSERT_EQ(merged.groups().size(), 2U);
  const FusionOp& q = op_named(merged, "res2a_branch1_quant_layer");
  const FusionGroup& group = merged.group_of(q);
  EXPECT_EQ(group.id, 1);
  EXPECT_EQ(group.key, uuid3_dns("res2a_branch1bn2a_branch1scale2a_branch1"));
  ASSERT_EQ(group.ops.size(), 2U);
  EXPECT_EQ(&merged.ops()[static_cast<size_t>(group.ops[0])], &q);
  EXPECT_EQ(group.relation, FusionRelation::kMultiToMulti);
  EXPECT_EQ(q.type, "AscendQuant");
  EXPECT_EQ(q.original_op_names, (Names{"res2a_branch1", "bn2a_branch1", "scale2a_branch1"}));
  ASSERT_EQ(q.output_desc.size(), 1U);  // index 0 past the quant op's (no) descs: empty desc
  EXPECT_EQ(q.output_desc[0].origin_name, "");
  EXPECT_EQ(q.output_desc[0].origin_format, "");

  const FusionOp& dq = op_named(merged, "res2a_branch1res2a_branch1_dequant_layer");
  EXPECT_EQ(dq.group_id, 1);
  EXPECT_EQ(dq.original_op_names, q.original_op_names);
  ASSERT_EQ(dq.output_desc.size(), 1U);
  EXPECT_EQ(dq.output_desc[0].origin_name, "scale2a_branch1");
  EXPECT_EQ(dq.output_desc[0].origin_output_index, 0);
  EXPECT_EQ(dq.output_desc[0].origin_format, "NHWC");

  const FusionOp& data = op_named(merged, "data");
  EXPECT_EQ(data.group_id, 0);
  EXPECT_EQ(data.output_desc[0].origin_name, "data");
  EXPECT_FALSE(data.output_desc[0].has_origin_output_index);  // the quant op's synthesised desc
  // The inputs were untouched; the OM rule itself is unchanged.
  EXPECT_EQ(om.groups().size(), 3U);
  EXPECT_EQ(op_named(om, "res2a_branch1_quant_layer").original_op_names,
            (Names{"res2a_branch1_quant_layer"}));
}

TEST(QuantRule, MergeSharesQuantDescsLikeMsaccucmp) {
  // Two OM ops take the same quant desc; the later non-empty OM format wins for both, because
  // msaccucmp hands out the same desc object to both ops.
  const std::string om = model({{
      op_json("a", "Conv2D",
              R"("output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"qd"}},
          {"key":"_datadump_origin_format","value":{"s":"NCHW"}},
          {"key":"origin_shape","value":{"list":{"i":[1,2]}}}]}])"),
      op_json("b", "Conv2D",
              R"("output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"qd"}},
          {"key":"_datadump_origin_format","value":{"s":"NHWC"}}]}])"),
      op_json("c", "Conv2D",
              R"("output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"qd"}}]}])"),
  }});
  const std::string quant = model({{op_json("qd", "DeQuant",
                                            "\"attr\":[" + names_attr({"conv"}) +
                                                R"(],"output_desc":[{"dtype":"DT_FLOAT","attr":[
          {"key":"_datadump_origin_name","value":{"s":"conv"}},
          {"key":"_datadump_origin_format","value":{"s":"ND"}}]}])")}});
  const FusionRule merged = merge_quant_rule(parse_text(om), parse_text(quant));
  for (const char* name : {"a", "b", "c"}) {
    const FusionOp& op = op_named(merged, name);
    ASSERT_EQ(op.output_desc.size(), 1U) << name;
    EXPECT_EQ(op.output_desc[0].origin_name, "conv") << name;
    EXPECT_EQ(op.output_desc[0].origin_format, "NHWC") << name;
    EXPECT_TRUE(op.output_desc[0].origin_shape.empty()) << name;
    EXPECT_EQ(op.output_desc[0].data_type, "DT_FLOAT") << name;
    EXPECT_EQ(op.original_op_names, (Names{name})) << name;  // "a" etc. are not quant op names
  }
  ASSERT_EQ(merged.groups().size(), 3U);
}

TEST(QuantRule, MergeDropsTheL1KeyButKeepsTheRelation) {
  const std::string l1 = R"("attr":[{"key":"_L1_fusion_sub_graph_no","value":{"s":"L1"}}])";
  const FusionRule om =
      parse_text(model({{op_json("x", "Conv2D", l1), op_json("y", "Conv2D", l1)}}));
  ASSERT_EQ(om.groups().size(), 1U);
  const FusionRule merged = merge_quant_rule(om, parse_text(model({{op_json("q", "Quant", "")}})));
  ASSERT_EQ(merged.groups().size(), 2U);  // re-keyed by name: x and y part
  EXPECT_EQ(merged.groups()[0].key, "x");
}

std::string quant_op(const std::string& name, const std::string& inputs, const std::string& dtype) {
  return op_json(
      name, "T",
      "\"input\":[" + inputs + R"(],"output_desc":[{"dtype":")" + dtype + R"(","attr":[]}])");
}

TEST(QuantRule, QuantFilterMarksOpsInsidePairs) {
  const FusionRule rule = parse_text(model({{
      quant_op("in", "", "DT_FLOAT"),
      quant_op("c_quant_layer", R"("in:0")", "DT_INT8"),          // quant (confirmed)
      quant_op("mid", R"("c_quant_layer:0")", "DT_INT32"),        // in pair: middle, filtered
      quant_op("c_dequant_layer", R"("mid:0")", "DT_FLOAT16"),    // in pair, dequant: kept
      quant_op("after", R"("c_dequant_layer:0")", "DT_FLOAT16"),  // not in pair
      quant_op("fake.quant", R"("after:0")", "DT_FLOAT16"),       // unconfirmed: normal
      quant_op("next", R"("fake.quant:0")", "DT_FLOAT"),
      quant_op("n/AscendQuant", R"("next:0")", "DT_INT8"),
      quant_op("bad_index", R"("n/AscendQuant:x","n/AscendQuant:3")", "DT_FLOAT"),
      quant_op("fed", R"("n/AscendQuant:0")", "DT_FLOAT16"),
  }}));
  auto filtered = [&](const std::string& name) { return op_named(rule, name).quant_filter; };
  EXPECT_FALSE(filtered("in"));
  EXPECT_FALSE(filtered("c_quant_layer"));
  EXPECT_TRUE(filtered("mid"));
  EXPECT_FALSE(filtered("c_dequant_layer"));
  EXPECT_FALSE(filtered("after"));
  EXPECT_FALSE(filtered("fake.quant"));
  EXPECT_FALSE(filtered("next"));
  EXPECT_FALSE(filtered("bad_index"));
  EXPECT_TRUE(filtered("fed"));  // fed by a quant output, its own output is not dequant
}

TEST(QuantRule, QuantFilterUsesOriginalNamesAndIdOrder) {
  // Name class from the joined original names; ops are visited in id order, so a producer with
  // a larger id is not yet classified when its consumer is visited.
  const FusionRule rule = parse_text(model({{
      op_json("late", "T",
              "\"id\":9,\"attr\":[" + names_attr({"x", "y_quant_layer"}) +
                  R"(],"output_desc":[{"dtype":"DT_INT8","attr":[]}])"),
      op_json("early", "T",
              R"("id":1,"input":["late:0"],"output_desc":[{"dtype":"DT_FLOAT","attr":[]}])"),
      op_json("after", "T",
              R"("id":10,"input":["late:0"],"output_desc":[{"dtype":"DT_FLOAT","attr":[]}])"),
  }}));
  EXPECT_FALSE(op_named(rule, "early").quant_filter);
  EXPECT_TRUE(op_named(rule, "after").quant_filter);
  FusionRule again = rule;
  apply_quant_filter(again);  // idempotent
  EXPECT_TRUE(op_named(again, "after").quant_filter);
  EXPECT_FALSE(op_named(again, "early").quant_filter);
}

// ---- Bad input ------------------------------------------------------------------------------

TEST(FusionRuleErrors, MalformedAndTruncatedJson) {
  expect_parse_error("", "rule.json: invalid JSON");
  expect_parse_error("[{", "rule.json: invalid JSON");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T"}]}]} x)", "invalid JSON");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T",}]}]})", "invalid JSON");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","x":tru}]}]})", "invalid JSON");
  // Every prefix of a valid document fails cleanly.
  const std::string good = model({{op_json("a", "Relu",
                                           R"("input":["b:0"],"id":3,)"
                                           R"("attr":[)" +
                                               names_attr({"p", "q"}) + "]")}});
  ASSERT_NO_THROW(parse_text(good));
  for (size_t n = 0; n + 1 < good.size(); ++n) {
    EXPECT_THROW(parse_text(good.substr(0, n)), Error) << n;
  }
}

TEST(FusionRuleErrors, TruncatedRealFile) {
  const std::string path = realdata(kJ1);
  SKIP_IF_ABSENT(path);
  const std::string text = read_all(path);
  for (size_t n = 0; n < text.size(); n += 997) {
    EXPECT_THROW(parse_text(text.substr(0, n)), Error) << n;
  }
}

TEST(FusionRuleErrors, StructureAndTypes) {
  expect_parse_error("[1]", "rule.json: expected an object");
  expect_parse_error(R"({"name":"m"})", "rule.json: missing \"graph\"");
  expect_parse_error(R"({"graph":{"name":"g"}})", "graph: expected an array");
  expect_parse_error(R"({"graph":[{"name":"g"}]})", "graph[0]: missing \"op\"");
  expect_parse_error(R"({"graph":[[]]})", "graph[0]: expected an object");
  expect_parse_error(R"({"graph":[{"op":[{"type":"T"}]}]})", "graph[0].op[0]: missing \"name\"");
  expect_parse_error(R"({"graph":[{"op":[{"name":76,"type":"Data"}]}]})",
                     "graph[0].op[0].name: expected a string");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T"},{"name":"b"}]}]})",
                     "graph[0].op[1]: missing \"type\"");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","input":"data:0"}]}]})",
                     "graph[0].op[0].input: expected an array");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","input":["x:0",3]}]}]})",
                     "graph[0].op[0].input[1]: expected a string");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","id":"7"}]}]})",
                     "graph[0].op[0].id: expected an integer");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","id":1.5}]}]})",
                     "graph[0].op[0].id: expected an integer");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","attr":{}}]}]})",
                     "graph[0].op[0].attr: expected an array");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"value":{}}]}]}]})",
                     "graph[0].op[0].attr[0]: missing \"key\"");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"key":"k","value":1},
          {"key":"_datadump_is_multiop","value":{"b":"xx"}}]}]}]})",
      "graph[0].op[0].attr[1].value.b: expected a bool");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"key":"_L1_fusion_sub_graph_no"}]}]}]})",
      "graph[0].op[0].attr[0]: missing \"value\"");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"key":"o","value":0},
          {"key":"p","value":0},
          {"key":"_L1_fusion_sub_graph_no","value":{"s":3}}]}]}]})",
      "graph[0].op[0].attr[2].value.s: expected a string");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"key":"_datadump_original_op_names",
          "value":{"s":"x"}}]}]}]})",
      "graph[0].op[0].attr[0].value: missing \"list\"");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","attr":[{"key":"_datadump_original_op_names",
          "value":{"list":{"s":["x",1]}}}]}]}]})",
      "graph[0].op[0].attr[0].value.list.s[1]: expected a string");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","output_desc":[{"attr":[
          {"key":"_datadump_origin_output_index","value":{"i":"xxx"}}]}]}]}]})",
      "graph[0].op[0].output_desc[0].attr[0].value.i: expected an integer");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","output_desc":[{"attr":[
          {"key":"_datadump_origin_output_index","value":{"i":4294967296}}]}]}]}]})",
      "value.i: integer out of range");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","output_desc":[{"dtype":1,"attr":[]}]}]}]})",
      "graph[0].op[0].output_desc[0].dtype: expected a string");
  expect_parse_error(
      R"({"graph":[{"op":[{"name":"a","type":"T","output_desc":[{"attr":[
          {"key":"origin_shape","value":{"list":{"i":[1,"2"]}}}]}]}]}]})",
      "graph[0].op[0].output_desc[0].attr[0].value.list.i[1]: expected an integer");
  expect_parse_error(R"({"graph":[{"op":[{"name":"a","type":"T","id":18446744073709551615}]}]})",
                     "graph[0].op[0].id: integer out of range");
}

TEST(FusionRuleErrors, MissingFile) {
  try {
    FusionRule::parse_file("/nonexistent/rule.json");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/rule.json: cannot read"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dumpcmp
