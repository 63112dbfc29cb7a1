// File-name grammar (docs/formats.md §3.2) and dump-directory inventory (§3.3, §3.4).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "io/dump_file_name.hpp"
#include "io/dump_writer.hpp"
#include "io/ffts_merge.hpp"
#include "io/inventory.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;

constexpr uint64_t kTs = 1673383728093446;  // a real 16-digit timestamp (µs)

// ---------------------------------------------------------------------------------------------
// Grammar: valid names

struct ValidName {
  std::string name;
  DumpNameKind kind;
  std::string op_type;
  std::string op_name;
  std::string key;
  int output_index;
  std::string timestamp_text;
  uint64_t timestamp;
  std::size_t field_count;
  int task_type;
};

class ValidNameTest : public ::testing::TestWithParam<ValidName> {};

TEST_P(ValidNameTest, Parses) {
  const ValidName& c = GetParam();
  const std::optional<DumpFileName> n = parse_dump_file_name(c.name);
  ASSERT_TRUE(n.has_value()) << c.name;
  EXPECT_EQ(n->kind, c.kind);
  EXPECT_EQ(n->basename, c.name);
  EXPECT_EQ(n->op_type, c.op_type);
  EXPECT_EQ(n->op_name, c.op_name);
  EXPECT_EQ(n->key, c.key);
  EXPECT_EQ(n->output_index, c.output_index);
  EXPECT_EQ(n->timestamp_text, c.timestamp_text);
  EXPECT_EQ(n->timestamp, c.timestamp);
  EXPECT_EQ(n->fields.size(), c.field_count);
  EXPECT_EQ(n->task_type, c.task_type);
}

const DumpNameKind kOff = DumpNameKind::kOffline;
const DumpNameKind kNpy = DumpNameKind::kNumpy;

INSTANTIATE_TEST_SUITE_P(
    Grammar, ValidNameTest,
    ::testing::Values(
        // op_type.op_name.task_id.stream_id.timestamp
        ValidName{"Add.Add_1.3.0.1673383728093446", kOff, "Add", "Add_1", "Add_1", -1,
                  "1673383728093446", kTs, 5, -1},
        // 4 fields: no stream id
        ValidName{"Conv2D.conv-1_a.12.1673383728093446", kOff, "Conv2D", "conv-1_a", "conv-1_a", -1,
                  "1673383728093446", kTs, 4, -1},
        // '-' and '_' in the op type
        ValidName{"Fused-Mul_Add.x-y_z.0.1.1673383728093446", kOff, "Fused-Mul_Add", "x-y_z",
                  "x-y_z", -1, "1673383728093446", kTs, 5, -1},
        // timestamps that are not 16 digits count as 0
        ValidName{"Add.op.1.2.12345", kOff, "Add", "op", "op", -1, "12345", 0, 5, -1},
        ValidName{"Add.op.1.2.16733837280934460", kOff, "Add", "op", "op", -1, "16733837280934460",
                  0, 5, -1},
        // 9 fields, every valid task type; the timestamp is field 4
        ValidName{"Add.op.1.2.1673383728093446.0.1.0.0", kOff, "Add", "op", "op", -1,
                  "1673383728093446", kTs, 9, 0},
        ValidName{"Add.op.1.2.1673383728093446.1.1.0.0", kOff, "Add", "op", "op", -1,
                  "1673383728093446", kTs, 9, 1},
        ValidName{"Add.op.1.2.1673383728093446.2.1.0.0", kOff, "Add", "op", "op", -1,
                  "1673383728093446", kTs, 9, 2},
        ValidName{"Add.op.1.2.1673383728093446.3.1.0.0", kOff, "Add", "op", "op", -1,
                  "1673383728093446", kTs, 9, 3},
        ValidName{"Add.partition0_sgt_graph_0_Add.0.3.1673383728093446.4.1.0.0", kOff, "Add",
                  "partition0_sgt_graph_0_Add", "partition0_sgt_graph_0_Add", -1,
                  "1673383728093446", kTs, 9, 4},
        ValidName{"Opdebug.Node_OpDebug.0.3.1673383728094391.4.1.0.0", kOff, "Opdebug",
                  "Node_OpDebug", "Node_OpDebug", -1, "1673383728094391", 1673383728094391, 9, 4},
        // an out-of-range task type still parses; has_valid_task_type() rejects it
        ValidName{"Add.op.1.2.1673383728093446.7.1.0.0", kOff, "Add", "op", "op", -1,
                  "1673383728093446", kTs, 9, 7},
        // op_name.output_index.timestamp.npy; '.' allowed inside the op name
        ValidName{"conv1.0.1673383728093446.npy", kNpy, "", "conv1", "conv1.0", 0,
                  "1673383728093446", kTs, 4, -1},
        ValidName{"layer.conv-2_b.11.1673383728093446.npy", kNpy, "", "layer.conv-2_b",
                  "layer.conv-2_b.11", 11, "1673383728093446", kTs, 5, -1},
        ValidName{"conv1.2.123.npy", kNpy, "", "conv1", "conv1.2", 2, "123", 0, 4, -1},
        // .pb and .quant
        ValidName{"conv1.0.1673383728093446.pb", DumpNameKind::kStandard, "", "conv1", "conv1.0", 0,
                  "1673383728093446", kTs, 4, -1},
        ValidName{"conv1_quant.3.1.pb", DumpNameKind::kStandard, "", "conv1_quant", "conv1_quant.3",
                  3, "1", 0, 4, -1},
        ValidName{"conv1_quant.3.1673383728093446.quant", DumpNameKind::kQuant, "", "conv1_quant",
                  "conv1_quant.3", 3, "1673383728093446", kTs, 4, -1}));

// ---------------------------------------------------------------------------------------------
// Grammar: names that are not dumps

class InvalidNameTest : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidNameTest, IsNotADump) {
  EXPECT_FALSE(parse_dump_file_name(GetParam()).has_value()) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, InvalidNameTest,
    ::testing::Values(
        // stats dumps and other files msaccucmp's unanchored regex would take
        "Add.op.1.2.1673383728093446.csv", "Add.op.1.2.1673383728093446.4.1.0.0.csv",
        "Add.op.1.1673383728093446.0.txt", "Add.op.1.1673383728093446.0.bin",
        "Add.op.1.2.1673383728093446.output.0.json", "mapping.csv", "convert_failed_file_list.txt",
        "result_20240101120000.csv", "notes.txt", "model.json",
        // wrong field counts
        "Add", "Add.op", "Add.op.1", "Add.op.1.2.3.4", "Add.op.1.2.3.4.5", "Add.op.1.2.3.4.5.6",
        "Add.op.1.2.3.4.5.6.7.8",
        // bad characters or empty fields
        "Add.op.x.1673383728093446", "Add..1.1673383728093446", ".op.1.1673383728093446",
        "Add.op name.1.1673383728093446", "Add.op/x.1.1673383728093446",
        "Add.op.1.2.1673383728093446.4.a.0.0", "Add.op.1.2.", "Add.op.1.-2",
        // a timestamp longer than [0-9]{1,255}
        "Add.op.1." + std::string(256, '7'),
        // hashed names are resolved by the inventory, not by the grammar
        "1234567890123456789",
        // .npy / .pb / .quant patterns
        "conv1.1673383728093446.npy", "conv1.x.1.npy", ".npy", "x.npy", "conv 1.0.1.npy",
        ".0.1.npy", "layer.conv.0.1673383728093446.pb", "conv1.0.pb", "conv1.0.x.quant",
        "conv1.0.1673383728093446.quant.bak"));

TEST(Grammar, TaskTypeMustBeZeroToFour) {
  for (const char* t : {"0", "1", "2", "3", "4"}) {
    const auto n = parse_dump_file_name(std::string("Add.op.1.2.1673383728093446.") + t + ".1.0.0");
    ASSERT_TRUE(n);
    EXPECT_TRUE(has_valid_task_type(*n)) << t;
  }
  for (const char* t : {"5", "9", "04", "10"}) {
    const auto n = parse_dump_file_name(std::string("Add.op.1.2.1673383728093446.") + t + ".1.0.0");
    ASSERT_TRUE(n);
    EXPECT_FALSE(has_valid_task_type(*n)) << t;
    EXPECT_EQ(task_mode(*n), TaskMode::kNormal) << t;
  }
  // Only 9-field names carry a task type.
  EXPECT_TRUE(has_valid_task_type(*parse_dump_file_name("Add.op.9.9.1673383728093446")));
  EXPECT_TRUE(has_valid_task_type(*parse_dump_file_name("op.9.9.npy")));
}

TEST(Grammar, TaskMode) {
  auto mode = [](const std::string& name) { return task_mode(*parse_dump_file_name(name)); };
  EXPECT_EQ(mode("Add.op.1.2.1673383728093446"), TaskMode::kNormal);
  EXPECT_EQ(mode("Add.op.1.1673383728093446"), TaskMode::kNormal);
  EXPECT_EQ(mode("Add.op.1.2.1673383728093446.0.1.0.0"), TaskMode::kNormal);
  EXPECT_EQ(mode("Add.op.1.2.1673383728093446.3.1.0.0"), TaskMode::kNormal);
  EXPECT_EQ(mode("Add.op.1.2.1673383728093446.4.1.0.0"), TaskMode::kFftsAutomatic);
  EXPECT_EQ(mode("Conv2D.conv_lxslice0.2.9.1670205071724946.4.487.0.0"), TaskMode::kFftsManual);
  EXPECT_EQ(mode("op_lxslice0.0.1673383728093446.npy"), TaskMode::kNormal);
}

TEST(Grammar, KindNames) {
  EXPECT_EQ(dump_name_kind_name(DumpNameKind::kOffline), "offline");
  EXPECT_EQ(dump_name_kind_name(DumpNameKind::kNumpy), ".npy");
  EXPECT_EQ(dump_name_kind_name(DumpNameKind::kStandard), ".pb");
  EXPECT_EQ(dump_name_kind_name(DumpNameKind::kQuant), ".quant");
}

// ---------------------------------------------------------------------------------------------
// Normalisation and slice-prefix stripping

TEST(OpNames, Normalize) {
  EXPECT_EQ(normalize_op_name("resnet/conv1.weight"), "resnet_conv1_weight");
  EXPECT_EQ(normalize_op_name("a//b..c"), "a__b__c");
  EXPECT_EQ(normalize_op_name("plain_name-1"), "plain_name-1");
  EXPECT_EQ(normalize_op_name(""), "");
}

struct StripCase {
  std::string key;
  bool fusion_json;
  std::string stripped;
  std::optional<std::string> filed_key;  // slice_op_key without -ffts
};

class StripTest : public ::testing::TestWithParam<StripCase> {};

TEST_P(StripTest, Strips) {
  const StripCase& c = GetParam();
  EXPECT_EQ(strip_slice_fields(c.key, c.fusion_json), c.stripped) << c.key;
  EXPECT_EQ(slice_op_key(c.key, false, c.fusion_json), c.filed_key) << c.key;
  EXPECT_EQ(slice_op_key(c.key, true, c.fusion_json), c.key) << "-ffts keeps " << c.key;
}

INSTANTIATE_TEST_SUITE_P(
    OpNames, StripTest,
    ::testing::Values(
        StripCase{"Add", false, "Add", "Add"}, StripCase{"conv_lxslice0", false, "conv", "conv"},
        StripCase{"conv_lxslice12", false, "conv", "conv"},
        // a slice field that does not end the name stays, and then drops the file
        StripCase{"conv_lxslice0_relu", false, "conv_lxslice0_relu", std::nullopt},
        StripCase{"conv_lxslice", false, "conv_lxslice", std::nullopt},
        StripCase{"partition0_sgt_graph_0_Add", false, "Add", "Add"},
        StripCase{"a_sgt_graph_1_b_sgt_graph_22_c", false, "c", "c"},
        StripCase{"x_sgt_graph_3", false, "x_sgt_graph_3", "x_sgt_graph_3"},
        StripCase{"x_sgt_graph_", false, "x_sgt_graph_", "x_sgt_graph_"},
        StripCase{
            "partition0_rank2_new_sub_graph15_sgt_graph_0_fp32_vars_conv2d_39_Conv2D_lxslice0",
            false, "fp32_vars_conv2d_39_Conv2D", "fp32_vars_conv2d_39_Conv2D"},
        // .npy/.pb keys carry ".idx": the sgt prefix goes, a slice suffix cannot end the key
        StripCase{"p_sgt_graph_0_Add.0", false, "Add.0", "Add.0"},
        StripCase{"conv_lxslice0.0", false, "conv_lxslice0.0", std::nullopt},
        // with -f every _lxslice<N> goes and the sgt prefix stays
        StripCase{"a_lxslice0_b_lxslice1", true, "a_b", "a_b"},
        StripCase{"p_sgt_graph_0_Conv_lxslice1", true, "p_sgt_graph_0_Conv", "p_sgt_graph_0_Conv"},
        StripCase{"a_lxslice_b", true, "a_lxslice_b", std::nullopt},
        StripCase{"p_sgt_graph_0_Add", true, "Add", "Add"}));

// ---------------------------------------------------------------------------------------------
// Inventory

void touch(const ScratchDir& dir, const std::string& name) {
  testing::write_bytes(dir.file(name), {});
}

void write_text(const std::string& path, const std::string& text) {
  testing::write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    return e.what();
  }
  return "";
}

std::string base(const DumpEntry& e) { return std::filesystem::path(e.path).filename().string(); }

std::vector<std::string> op_keys(const Inventory& inv) {
  std::vector<std::string> keys;
  for (const OpDumps& op : inv.ops()) keys.push_back(op.op_name);
  return keys;
}

bool skipped_mentions(const Inventory& inv, const std::string& text) {
  for (const std::string& s : inv.skipped()) {
    if (s.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(Inventory, PicksTheLatestFileWhateverTaskAndStream) {
  ScratchDir dir;
  touch(dir, "Add.add1.3.0.1673383728093446");
  touch(dir, "Add.add1.9.2.1673383728093999");
  touch(dir, "Add.add1.1.1.1673383728093000");
  const Inventory inv = Inventory::scan(dir.path());
  ASSERT_EQ(inv.ops().size(), 1u);
  const OpDumps& op = inv.ops()[0];
  EXPECT_EQ(op.op_name, "add1");
  EXPECT_FALSE(op.is_ffts());
  ASSERT_EQ(op.files.size(), 3u);
  EXPECT_EQ(base(op.files[0]), "Add.add1.1.1.1673383728093000");
  EXPECT_EQ(base(op.chosen()), "Add.add1.9.2.1673383728093999");
  EXPECT_EQ(op.latest_timestamp(), 1673383728093999u);
  EXPECT_EQ(inv.kind(), DumpNameKind::kOffline);
  EXPECT_FALSE(inv.has_npy());
  EXPECT_FALSE(inv.is_quant());
}

TEST(Inventory, NonSixteenDigitTimestampsCountAsZero) {
  ScratchDir dir;
  touch(dir, "Add.a.1.2.99999999999999999");  // 17 digits: 0
  touch(dir, "Add.a.1.2.1000000000000000");   // 16 digits
  touch(dir, "Add.a.1.2.5");                  // 0
  const Inventory inv = Inventory::scan(dir.path());
  const OpDumps& op = inv.ops().at(0);
  EXPECT_EQ(base(op.chosen()), "Add.a.1.2.1000000000000000");
  // Equal (zero) timestamps: the file name decides, where msaccucmp keeps listdir order.
  EXPECT_EQ(base(op.files[0]), "Add.a.1.2.5");
  EXPECT_EQ(base(op.files[1]), "Add.a.1.2.99999999999999999");
}

TEST(Inventory, NineFieldNormalNamesUseTheRealTimestamp) {
  ScratchDir dir;
  touch(dir, "Add.a.1.2.1673383728093446.0.1.0.7");
  touch(dir, "Add.a.1.2.1673383728093999.0.1.0.1");
  const Inventory inv = Inventory::scan(dir.path());
  const OpDumps& op = inv.ops().at(0);
  EXPECT_EQ(op.mode, TaskMode::kNormal);
  EXPECT_EQ(base(op.chosen()), "Add.a.1.2.1673383728093999.0.1.0.1");
}

TEST(Inventory, GroupsOrderedByLatestTimestampThenKey) {
  ScratchDir dir;
  touch(dir, "Add.a.1.2.1673383728000003");
  touch(dir, "Add.a.1.2.1673383728000000");
  touch(dir, "Mul.b.1.2.1673383728000001");
  touch(dir, "Sub.c.1.2.1673383728000002");
  touch(dir, "Sub.e.1.2.1673383728000002");
  touch(dir, "Sub.d.1.2.1673383728000002");
  touch(dir, "Cast.z.1.2.17");  // timestamp 0: first
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"z", "b", "c", "d", "e", "a"}));
  ASSERT_NE(inv.find("d"), nullptr);
  EXPECT_EQ(inv.find("d")->op_name, "d");
  EXPECT_EQ(inv.find("missing"), nullptr);
}

TEST(Inventory, FindNormalisesLikeGetOpDumpFile) {
  ScratchDir dir;
  touch(dir, "Conv2D.net_conv1_weight.1.2.1673383728093446");
  const Inventory inv = Inventory::scan(dir.path());
  ASSERT_NE(inv.find("net/conv1.weight"), nullptr);
  EXPECT_EQ(inv.find("net/conv1.weight")->op_name, "net_conv1_weight");
  EXPECT_NE(inv.find_key("net_conv1_weight"), nullptr);
  EXPECT_EQ(inv.find_key("net/conv1.weight"), nullptr);
}

TEST(Inventory, NumpyDirectory) {
  ScratchDir dir;
  touch(dir, "net_conv1.0.1673383728093446.npy");
  touch(dir, "net_conv1.1.1673383728093446.npy");
  touch(dir, "net_conv1.0.1673383728093999.npy");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_TRUE(inv.has_npy());
  EXPECT_EQ(inv.file_kind(), DumpNameKind::kNumpy);
  EXPECT_EQ(inv.kind(), DumpNameKind::kStandard);  // msaccucmp's _judge_dump_type
  EXPECT_FALSE(inv.is_quant());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"net_conv1.1", "net_conv1.0"}));
  const OpDumps* out0 = inv.find("net/conv1", 0);
  ASSERT_NE(out0, nullptr);
  EXPECT_EQ(base(out0->chosen()), "net_conv1.0.1673383728093999.npy");
  EXPECT_EQ(out0->chosen().name.output_index, 0);
}

TEST(Inventory, QuantFlag) {
  {
    ScratchDir dir;
    touch(dir, "conv1_quant.0.1673383728093446.npy");
    touch(dir, "conv1.0.1673383728093446.npy");
    const Inventory inv = Inventory::scan(dir.path());
    EXPECT_TRUE(inv.is_quant());
    EXPECT_EQ(inv.kind(), DumpNameKind::kQuant);
  }
  for (const char* op :
       {"conv_quant_layer", "AscendQuant_1", "AscendWeightQuant", "x_AntiQuant",
        "conv_weight_quant", "y_anti_quant", "z_dequant_layer", "AscendDequant", "w_dequant"}) {
    ScratchDir dir;
    touch(dir, std::string("Conv2D.") + op + ".1.2.1673383728093446");
    const Inventory inv = Inventory::scan(dir.path());
    EXPECT_TRUE(inv.is_quant()) << op;
    EXPECT_EQ(inv.kind(), DumpNameKind::kOffline) << op;
  }
  {
    ScratchDir dir;
    touch(dir, "Conv2D.conv1.1.2.1673383728093446");
    EXPECT_FALSE(Inventory::scan(dir.path()).is_quant());
  }
  {  // .pb/.quant directories never set the flag; .quant is a kind of its own
    ScratchDir dir;
    touch(dir, "conv1_quant.0.1673383728093446.quant");
    const Inventory inv = Inventory::scan(dir.path());
    EXPECT_FALSE(inv.is_quant());
    EXPECT_EQ(inv.kind(), DumpNameKind::kQuant);
  }
  {
    ScratchDir dir;
    touch(dir, "conv1_quant.0.1673383728093446.pb");
    const Inventory inv = Inventory::scan(dir.path());
    EXPECT_FALSE(inv.is_quant());
    EXPECT_EQ(inv.kind(), DumpNameKind::kStandard);
  }
}

TEST(Inventory, MixedKindsAreAnError) {
  {
    ScratchDir dir;
    touch(dir, "Add.add1.3.0.1673383728093446");
    touch(dir, "add1.0.1673383728093446.npy");
    const std::string msg = error_of([&] { Inventory::scan(dir.path()); });
    EXPECT_NE(msg.find("mixes offline and .npy dump files"), std::string::npos) << msg;
    EXPECT_NE(msg.find(dir.path()), std::string::npos) << msg;
  }
  {  // .npy and .pb are distinct kinds too, although both are "Standard" goldens
    ScratchDir dir;
    touch(dir, "add1.0.1673383728093446.npy");
    touch(dir, "add1.0.1673383728093446.pb");
    EXPECT_NE(error_of([&] { Inventory::scan(dir.path()); }).find("mixes .npy and .pb"),
              std::string::npos);
  }
  {
    ScratchDir dir;
    touch(dir, "add1.0.1673383728093446.pb");
    touch(dir, "add1.0.1673383728093446.quant");
    EXPECT_NE(error_of([&] { Inventory::scan(dir.path()); }).find("mixes .pb and .quant"),
              std::string::npos);
  }
}

TEST(Inventory, StatsAndBookkeepingFilesAreSkipped) {
  ScratchDir dir;
  touch(dir, "Add.add1.3.0.1673383728093446");
  touch(dir, "Add.add1.3.0.1673383728093446.csv");
  touch(dir, "mapping.csv");
  touch(dir, "convert_failed_file_list.txt");
  touch(dir, "acl.json");
  touch(dir, "add1.0.1673383728093446.npy.txt");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"add1"}));
  EXPECT_EQ(inv.ops()[0].files.size(), 1u);
  EXPECT_EQ(inv.skipped().size(), 5u);
  EXPECT_TRUE(skipped_mentions(inv, "Add.add1.3.0.1673383728093446.csv: a .csv file"));
  EXPECT_TRUE(skipped_mentions(inv, "acl.json: not a dump file name"));
}

TEST(Inventory, EmptyOrDumplessDirectoryIsAnError) {
  {
    ScratchDir dir;
    const std::string msg = error_of([&] { Inventory::scan(dir.path()); });
    EXPECT_NE(msg.find("no dump files"), std::string::npos) << msg;
  }
  {
    ScratchDir dir;
    touch(dir, "Add.add1.3.0.1673383728093446.csv");
    touch(dir, "mapping.csv");
    const std::string msg = error_of([&] { Inventory::scan(dir.path()); });
    EXPECT_NE(msg.find("no dump files"), std::string::npos) << msg;
    EXPECT_NE(msg.find("2 entries ignored"), std::string::npos) << msg;
  }
}

TEST(Inventory, MissingPathOrFileIsAnError) {
  ScratchDir dir;
  const std::string missing = dir.file("nope");
  EXPECT_NE(error_of([&] { Inventory::scan(missing); }).find("no such dump directory"),
            std::string::npos);
  touch(dir, "Add.add1.3.0.1673383728093446");
  const std::string file = dir.file("Add.add1.3.0.1673383728093446");
  EXPECT_NE(error_of([&] { Inventory::scan(file); }).find("not a directory"), std::string::npos);
}

TEST(Inventory, UnreadableDirectoryIsAnError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any directory";
  ScratchDir dir;
  const std::string locked = dir.file("locked");
  std::filesystem::create_directory(locked);
  touch(dir, "locked/Add.add1.3.0.1673383728093446");
  ::chmod(locked.c_str(), 0);
  const std::string msg = error_of([&] { Inventory::scan(locked); });
  ::chmod(locked.c_str(), 0700);
  EXPECT_NE(msg.find("cannot open the dump directory"), std::string::npos) << msg;
}

TEST(Inventory, SubdirectoriesAreIgnored) {
  ScratchDir dir;
  touch(dir, "Add.add1.3.0.1673383728093446");
  std::filesystem::create_directory(dir.file("Mul.mul1.3.0.1673383728093446"));
  std::filesystem::create_directory(dir.file("0"));
  touch(dir, "0/Sub.sub1.3.0.1673383728093446");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"add1"}));
  EXPECT_TRUE(skipped_mentions(inv, "Mul.mul1.3.0.1673383728093446: not a regular file"));
}

TEST(Inventory, SymlinksToFilesCount) {
  // os.path.isfile follows links: a linked dump is listed, a dangling link is not.
  ScratchDir dir;
  ScratchDir other;
  touch(other, "target");
  std::filesystem::create_symlink(other.file("target"), dir.file("Add.add1.3.0.1673383728093446"));
  std::filesystem::create_symlink(other.file("gone"), dir.file("Add.add2.3.0.1673383728093446"));
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"add1"}));
  EXPECT_TRUE(skipped_mentions(inv, "Add.add2.3.0.1673383728093446: not a regular file"));
}

TEST(Inventory, InvalidTaskTypeEndsTheScan) {
  ScratchDir dir;
  touch(dir, "Add.add1.3.0.1673383728093446");
  touch(dir, "Add.add2.3.0.1673383728093446.5.1.0.0");
  const std::string msg = error_of([&] { Inventory::scan(dir.path()); });
  EXPECT_NE(msg.find("Add.add2.3.0.1673383728093446.5.1.0.0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("invalid task type '5'"), std::string::npos) << msg;
}

TEST(Inventory, LongNamesResolvedThroughMappingCsv) {
  ScratchDir dir;
  const std::string long_op = "partition0_" + std::string(300, 'x');
  touch(dir, "1234567890123");
  touch(dir, "555");
  touch(dir, "777");
  touch(dir, "Add.add1.3.0.1673383728093446");
  const std::string rows = "1234567890123,Conv2D." + long_op + ".1.2.1673383728093446\r\n";
  write_text(dir.file("mapping.csv"), rows +
                                          "\n"                                       // blank
                                          "555,\"Add.add1.4.0.1673383728093999\"\n"  // quoted
                                          "bad,row,with three\n"
                                          "777,not_a_dump.json\n");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{long_op, "add1"}));
  const OpDumps* conv = inv.find(long_op);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->chosen().path, dir.file("1234567890123"));
  EXPECT_EQ(conv->chosen().name.op_type, "Conv2D");
  // the hashed file is the latest of add1
  EXPECT_EQ(inv.find("add1")->chosen().path, dir.file("555"));
  EXPECT_TRUE(skipped_mentions(inv, "mapping.csv:4: expected 2 columns"));
  EXPECT_TRUE(skipped_mentions(inv, "777 (mapping.csv name not_a_dump.json)"));
}

TEST(Inventory, HashedNumpyNames) {
  ScratchDir dir;
  touch(dir, "987.npy");
  touch(dir, "988.npy");
  touch(dir, "conv1.0.1673383728093446.npy");
  write_text(dir.file("mapping.csv"), "987.npy,long_conv.0.1673383728093446.npy\n");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"conv1.0", "long_conv.0"}));
  EXPECT_EQ(inv.find("long_conv", 0)->chosen().path, dir.file("987.npy"));
  EXPECT_TRUE(skipped_mentions(inv, "988.npy: hashed name not listed in mapping.csv"));
}

TEST(Inventory, HashedNameWithoutMappingIsSkipped) {
  ScratchDir dir;
  touch(dir, "1234567890123");
  touch(dir, "Add.add1.3.0.1673383728093446");
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"add1"}));
  EXPECT_TRUE(skipped_mentions(inv, "1234567890123: hashed name but there is no mapping.csv"));
}

TEST(Inventory, FftsAutomaticSortsByThreadThenTimestamp) {
  ScratchDir dir;
  touch(dir, "Add.Add.0.3.1673383728093446.4.1.1.0");
  touch(dir, "Add.Add.0.3.1673383728093500.4.1.0.0");
  touch(dir, "Add.Add.0.3.1673383728093400.4.1.0.0");
  touch(dir, "Mul.mul.0.3.1673383728093000");
  const Inventory inv = Inventory::scan(dir.path());
  const OpDumps* op = inv.find("Add");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->mode, TaskMode::kFftsAutomatic);
  EXPECT_TRUE(op->is_ffts());
  ASSERT_EQ(op->files.size(), 3u);
  EXPECT_EQ(base(op->files[0]), "Add.Add.0.3.1673383728093400.4.1.0.0");
  EXPECT_EQ(base(op->files[1]), "Add.Add.0.3.1673383728093500.4.1.0.0");
  EXPECT_EQ(base(op->files[2]), "Add.Add.0.3.1673383728093446.4.1.1.0");
  EXPECT_EQ(base(op->chosen()), "Add.Add.0.3.1673383728093500.4.1.0.0");
  // The group order key is the last file's timestamp, as compare_rule.py takes it.
  EXPECT_EQ(op->latest_timestamp(), 1673383728093446u);
  EXPECT_EQ(inv.find("mul")->mode, TaskMode::kNormal);
}

TEST(Inventory, SgtPrefixIsStripped) {
  ScratchDir dir;
  touch(dir, "Add.partition0_sgt_graph_0_Add.0.3.1673383728093446.4.1.0.0");
  touch(dir, "Add.partition0_sgt_graph_0_Add.0.3.1673383728093447.4.1.1.0");
  EXPECT_EQ(op_keys(Inventory::scan(dir.path())), (std::vector<std::string>{"Add"}));
  EXPECT_EQ(op_keys(Inventory::scan(dir.path(), ScanOptions{true, false})),
            (std::vector<std::string>{"partition0_sgt_graph_0_Add"}));
}

TEST(Inventory, FftsManualSlices) {
  ScratchDir dir;
  touch(dir, "Conv2D.p_sgt_graph_0_conv_lxslice1.2.9.1670205071724946.4.487.0.0");
  touch(dir, "Conv2D.p_sgt_graph_0_conv_lxslice0.2.9.1670205071724999.4.487.0.0");
  touch(dir, "Relu.relu_lxslice0_x.2.9.1670205071724999");  // slice field mid-name: dropped
  const Inventory inv = Inventory::scan(dir.path());
  EXPECT_EQ(op_keys(inv), (std::vector<std::string>{"conv"}));
  const OpDumps& op = inv.ops()[0];
  EXPECT_EQ(op.mode, TaskMode::kFftsManual);
  ASSERT_EQ(op.files.size(), 2u);
  EXPECT_EQ(op.files[0].name.op_name, "p_sgt_graph_0_conv_lxslice0");
  EXPECT_EQ(op.files[1].name.op_name, "p_sgt_graph_0_conv_lxslice1");
  EXPECT_TRUE(skipped_mentions(inv, "Relu.relu_lxslice0_x.2.9.1670205071724999: FFTS+ slice"));

  // -ffts: each slice is its own op, and the mid-name slice file is kept.
  const Inventory ffts = Inventory::scan(dir.path(), ScanOptions{true, false});
  EXPECT_EQ(ffts.ops().size(), 3u);
  EXPECT_NE(ffts.find_key("p_sgt_graph_0_conv_lxslice0"), nullptr);
  EXPECT_NE(ffts.find_key("relu_lxslice0_x"), nullptr);

  // -f: every _lxslice<N> is removed and the sgt prefix stays.
  const Inventory fused = Inventory::scan(dir.path(), ScanOptions{false, true});
  // The manual op's order key is its last slice's timestamp (…946), older than relu_x's.
  EXPECT_EQ(op_keys(fused), (std::vector<std::string>{"p_sgt_graph_0_conv", "relu_x"}));
}

TEST(Inventory, SingleFile) {
  ScratchDir dir;
  touch(dir, "Add.add1.3.0.1673383728093446");
  touch(dir, "golden.npy");
  touch(dir, "weird name.bin");
  {
    const Inventory inv = Inventory::single_file(dir.file("Add.add1.3.0.1673383728093446"));
    ASSERT_EQ(inv.ops().size(), 1u);
    EXPECT_EQ(inv.ops()[0].op_name, "add1");
    EXPECT_EQ(inv.kind(), DumpNameKind::kOffline);
    EXPECT_EQ(inv.ops()[0].chosen().path, dir.file("Add.add1.3.0.1673383728093446"));
  }
  {
    const Inventory inv = Inventory::single_file(dir.file("golden.npy"));
    EXPECT_TRUE(inv.has_npy());
    EXPECT_EQ(inv.ops()[0].op_name, "golden.npy");
    EXPECT_EQ(inv.ops()[0].chosen().path, dir.file("golden.npy"));
  }
  {
    const Inventory inv = Inventory::single_file(dir.file("weird name.bin"));
    EXPECT_EQ(inv.kind(), DumpNameKind::kOffline);
    EXPECT_NE(inv.find_key("weird name.bin"), nullptr);
  }
  EXPECT_NE(error_of([&] { Inventory::single_file(dir.path()); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { Inventory::single_file(dir.file("missing")); }).find("no such"),
            std::string::npos);
}

TEST(Inventory, ManyFilesScanQuickly) {
  // The grammar is hand-parsed so that directories of thousands of files list fast.
  ScratchDir dir;
  for (int i = 0; i < 3000; ++i) {
    touch(dir, "Conv2D.op" + std::to_string(i % 1000) + ".1." + std::to_string(i) + "." +
                   std::to_string(1673383728000000 + i));
  }
  const Inventory inv = Inventory::scan(dir.path());
  ASSERT_EQ(inv.ops().size(), 1000u);
  EXPECT_EQ(inv.ops().front().op_name, "op0");
  EXPECT_EQ(inv.ops().back().op_name, "op999");
  EXPECT_EQ(base(inv.find("op5")->chosen()), "Conv2D.op5.1.2005.1673383728002005");
}

// ---- FFTS+ slices merged (io/ffts_merge.hpp; msaccucmp's ffts_parser)

std::vector<uint8_t> floats(std::initializer_list<float> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), std::data(values), bytes.size());
  return bytes;
}

std::vector<float> floats_of(const DumpFile& f, const TensorInfo& t) {
  std::vector<float> out(t.size / sizeof(float));
  std::memcpy(out.data(), f.tensor_data(t), t.size);
  return out;
}

TensorSpec float_tensor(Shape shape, std::initializer_list<float> values) {
  TensorSpec t;
  t.shape = std::move(shape);
  t.bytes = floats(values);
  return t;
}

// The attr of an automatic-mode slice: every thread's output shapes, the cut list of each output.
std::string auto_attr(const std::vector<Shape>& thread_shapes, const std::string& cut_list,
                      int slices) {
  std::string threads;
  for (const Shape& s : thread_shapes) {
    std::string dims;
    for (const int64_t d : s) {
      dims += std::string(dims.empty() ? "" : ",") +
              "{\"lower\":1,\"higher\":" + std::to_string(d + 1) + "}";
    }
    threads += std::string(threads.empty() ? "" : ",") + "[[" + dims + "]]";
  }
  return "{\"threadMode\":1,\"slice_instance_num\":" + std::to_string(slices) +
         ",\"outputCutList\":" + cut_list + ",\"output_tensor_slice\":[" + threads + "]}";
}

TEST(FftsMerge, AutomaticSlicesJoinAlongTheCutAxis) {
  ScratchDir dir;
  // [2,1,2] + [2,2,2] along axis 1 -> [2,3,2]; shapes come from output_tensor_slice, not the dump.
  const std::vector<Shape> shapes = {{2, 1, 2}, {2, 2, 2}};
  const std::string attr = auto_attr(shapes, "[[1,2,1]]", 2);
  DumpSpec a{"net/add", 1, {float_tensor({2}, {7, 8})}, {float_tensor({4}, {1, 2, 3, 4})}};
  DumpSpec b{"net/add",
             1,
             {float_tensor({2}, {9, 9})},
             {float_tensor({8}, {10, 11, 12, 13, 14, 15, 16, 17})}};
  write_binary_dump(dir.file("Add.add.1.2.1673383728093446.4.7.1.0"), b, {{"ffts", attr}});
  write_binary_dump(dir.file("Add.add.1.2.1673383728093446.4.7.0.0"), a, {{"ffts", attr}});
  const Inventory inv = Inventory::scan(dir.path());
  const OpDump dump = read_op_dump(*inv.find("add"));
  const DumpFile& f = *dump.file;
  EXPECT_FALSE(dump.slice_count_mismatch);
  EXPECT_EQ(std::filesystem::path(f.path).filename(), "Add.add.1.2.*");
  ASSERT_EQ(f.ffts_slices.size(), 2u);
  EXPECT_EQ(std::filesystem::path(f.ffts_slices[0]).filename(),
            "Add.add.1.2.1673383728093446.4.7.0.0");
  ASSERT_EQ(f.outputs.size(), 1u);
  EXPECT_EQ(f.outputs[0].shape, (Shape{2, 3, 2}));
  EXPECT_EQ(floats_of(f, f.outputs[0]),
            (std::vector<float>{1, 2, 10, 11, 12, 13, 3, 4, 14, 15, 16, 17}));
  ASSERT_EQ(f.inputs.size(), 1u);  // the first slice's
  EXPECT_EQ(floats_of(f, f.inputs[0]), (std::vector<float>{7, 8}));
  EXPECT_TRUE(is_ffts_dump(f));
  EXPECT_EQ(attr_op_name(f), "");  // merged dumps keep the file's name

  // The executor rebuilds the same dump from the plan's slice list.
  const DumpFile again = merge_ffts_slices(f.path, f.ffts_slices);
  EXPECT_EQ(floats_of(again, again.outputs[0]), floats_of(f, f.outputs[0]));
}

TEST(FftsMerge, ManualSlicesUseTheirOwnShapesAndUncutOutputsTheFirstSlices) {
  ScratchDir dir;
  const std::string attr = R"({"threadMode":0,"slice_instance_num":3,"outputCutList":[[2,1],[1]]})";
  for (int i = 0; i < 2; ++i) {
    const DumpSpec s{
        "conv",
        1,
        {},
        {float_tensor({1, 2}, {float(i), float(i + 10)}), float_tensor({1}, {float(100 + i)})}};
    write_binary_dump(
        dir.file("Conv2D.conv_lxslice" + std::to_string(i) + ".1.2.1673383728093446.4.7.0.0"), s,
        {{"ffts", attr}});
  }
  const OpDump dump = read_op_dump(*Inventory::scan(dir.path()).find("conv"));
  EXPECT_TRUE(dump.slice_count_mismatch);  // 3 declared, 2 files
  ASSERT_EQ(dump.file->outputs.size(), 2u);
  EXPECT_EQ(dump.file->outputs[0].shape, (Shape{2, 2}));
  EXPECT_EQ(floats_of(*dump.file, dump.file->outputs[0]), (std::vector<float>{0, 10, 1, 11}));
  EXPECT_EQ(floats_of(*dump.file, dump.file->outputs[1]), (std::vector<float>{100}));
}

TEST(FftsMerge, WithoutACutAxisTheSliceWithTheLargestTimestampFieldIsCompared) {
  ScratchDir dir;
  DumpSpec s{"net/mul", 1, {}, {float_tensor({1}, {1})}};
  const DumpAttrs attrs = {
      {"ffts", R"({"threadMode":1,"slice_instance_num":2,"outputCutList":[[1]]})"}};
  write_binary_dump(dir.file("Mul.mul.1.2.1673383728093441.4.7.0.0"), s, attrs);
  s.outputs[0] = float_tensor({1}, {2});
  write_binary_dump(dir.file("Mul.mul.1.2.1673383728093440.4.7.1.0"), s, attrs);
  const OpDump dump = read_op_dump(*Inventory::scan(dir.path()).find("mul"));
  EXPECT_EQ(std::filesystem::path(dump.file->path).filename(),
            "Mul.mul.1.2.1673383728093441.4.7.0.0");
  EXPECT_TRUE(dump.file->ffts_slices.empty());
  EXPECT_EQ(attr_op_name(*dump.file), "net/mul");  // shown under the dump's own op name
}

TEST(FftsMerge, SlicesThatDoNotFitNameTheFile) {
  ScratchDir dir;
  const std::string attr = auto_attr({{2}, {2}}, "[[2]]", 2);
  const DumpSpec s{"sub", 1, {}, {float_tensor({3}, {1, 2, 3})}};
  const std::string first = dir.file("Sub.sub.1.2.1673383728093446.4.7.0.0");
  write_binary_dump(first, s, {{"ffts", attr}});
  write_binary_dump(dir.file("Sub.sub.1.2.1673383728093446.4.7.1.0"), s, {{"ffts", attr}});
  const std::string error =
      error_of([&] { read_op_dump(*Inventory::scan(dir.path()).find("sub")); });
  EXPECT_NE(
      error.find(first + ": FFTS+ slice output 0 holds 3 elements, its slice shape [2] needs 2"),
      std::string::npos)
      << error;
}

TEST(FftsMerge, OnlyATruthyAttrRenamesAndOnlyThreadModeMarksFfts) {
  DumpFile f;
  f.op_name = "net/x";
  EXPECT_EQ(attr_op_name(f), "");
  for (const auto& [json, renames, ffts] :
       std::vector<std::tuple<std::string, bool, bool>>{{"{}", false, false},
                                                        {"[]", false, false},
                                                        {"0", false, false},
                                                        {"not json", false, false},
                                                        {R"({"a":1})", true, false},
                                                        {R"({"threadMode":null})", true, false},
                                                        {R"({"threadMode":0})", true, true}}) {
    f.attrs = {{"", json}};
    EXPECT_EQ(attr_op_name(f), renames ? "net/x" : "") << json;
    EXPECT_EQ(is_ffts_dump(f), ffts) << json;
  }
}

}  // namespace
}  // namespace dumpcmp
