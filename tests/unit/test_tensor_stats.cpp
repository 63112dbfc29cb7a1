// Statistics computed from tensor dumps (stats/tensor_stats.hpp, docs/statistics.md §9): every
// dtype the decoders read, checked against values worked out here from the intended elements;
// the three NaN/inf rules on hand-made cases; empty and unsupported tensors; the cells CANN and
// MindSpore would write; the inventory's pick; per-tensor .npy files; device-layout padding;
// streaming across chunks; the real nano dump D1; and compare_stats against a hand-written CANN
// stats table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/dump_writer.hpp"
#include "math/element_decode.hpp"
#include "stats/stats_compare.hpp"
#include "stats/tensor_stats.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;
using Bytes = std::vector<uint8_t>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// What std::ostream prints with its default precision, read back: the writers' own rounding.
double ostream6(double v) {
  std::ostringstream out;
  out << v;
  return std::stod(out.str());
}

template <typename T>
Bytes bytes_of(const std::vector<T>& values) {
  Bytes b(values.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
  return b;
}

TensorSpec tensor(DType dtype, Shape shape, Bytes bytes, Format format = Format::kND) {
  TensorSpec t;
  t.dtype = dtype;
  t.format = format;
  t.original_shape = shape;
  t.shape = std::move(shape);
  t.bytes = std::move(bytes);
  return t;
}

// One op "Add.add_1.3.2.<ts>" with the given inputs and outputs in a scratch directory.
std::string write_op(const ScratchDir& dir, std::vector<TensorSpec> inputs,
                     std::vector<TensorSpec> outputs,
                     const std::string& name = "Add.add_1.3.2.1700000000000001") {
  DumpSpec spec;
  spec.op_name = "add_1";
  spec.inputs = std::move(inputs);
  spec.outputs = std::move(outputs);
  const std::string path = dir.file(name);
  write_binary_dump(path, spec);
  return path;
}

TensorStatistics stats_of(DType dtype, const Bytes& bytes, StatsNanRule rule, int digits = 0) {
  TensorStatsOptions options;
  options.nan_rule = rule;
  options.significant_digits = digits;
  return tensor_statistics(bytes.data(), bytes.size(), dtype, options);
}

// Plain reference statistics of values with no NaN or inf.
struct Reference {
  double max = -kInf, min = kInf, mean = 0, l2norm = 0;
};
Reference reference(const std::vector<double>& v) {
  Reference r;
  double sum = 0, sq = 0;
  for (double x : v) {
    r.max = x > r.max ? x : r.max;
    r.min = x < r.min ? x : r.min;
    sum += x;
    sq += x * x;
  }
  r.mean = sum / static_cast<double>(v.size());
  r.l2norm = std::sqrt(sq);
  return r;
}

void expect_finite_stats(DType dtype, const Bytes& bytes, const std::vector<double>& values) {
  SCOPED_TRACE(std::string(dtype_wire_name(dtype)));
  const Reference r = reference(values);
  for (StatsNanRule rule :
       {StatsNanRule::kCannAicpu, StatsNanRule::kCannRuntime, StatsNanRule::kPropagate}) {
    const TensorStatistics s = stats_of(dtype, bytes, rule);
    ASSERT_TRUE(s.max && s.min && s.mean && s.l2norm && s.count);
    EXPECT_EQ(*s.max, r.max);
    EXPECT_EQ(*s.min, r.min);
    EXPECT_DOUBLE_EQ(*s.mean, r.mean);
    EXPECT_DOUBLE_EQ(*s.l2norm, r.l2norm);
    EXPECT_EQ(*s.count, static_cast<int64_t>(values.size()));
    EXPECT_EQ(s.nan_count, 0);
    EXPECT_EQ(s.neg_inf_count, 0);
    EXPECT_EQ(s.pos_inf_count, 0);
  }
}

TEST(TensorStats, EveryIntegerDtype) {
  expect_finite_stats(DType::kInt8, bytes_of<int8_t>({-128, 5, 127, 0}), {-128, 5, 127, 0});
  expect_finite_stats(DType::kUInt8, bytes_of<uint8_t>({255, 1, 0}), {255, 1, 0});
  expect_finite_stats(DType::kInt16, bytes_of<int16_t>({-32768, 7, 32767}), {-32768, 7, 32767});
  expect_finite_stats(DType::kUInt16, bytes_of<uint16_t>({65535, 3}), {65535, 3});
  // 16777217 has no float32: the wide types must not pass through float32.
  expect_finite_stats(DType::kInt32, bytes_of<int32_t>({16777217, -2147483647 - 1, 4}),
                      {16777217, -2147483648.0, 4});
  expect_finite_stats(DType::kUInt32, bytes_of<uint32_t>({4294967295u, 16777217u}),
                      {4294967295.0, 16777217});
  expect_finite_stats(DType::kInt64, bytes_of<int64_t>({-9007199254740991LL, 16777217, 3}),
                      {-9007199254740991.0, 16777217, 3});
  expect_finite_stats(DType::kUInt64, bytes_of<uint64_t>({9007199254740991ULL, 1}),
                      {9007199254740991.0, 1});
  expect_finite_stats(DType::kBool, Bytes{1, 0, 1, 1}, {1, 0, 1, 1});
  // uint1: 8 elements a byte, most significant bit first.
  expect_finite_stats(DType::kUInt1, Bytes{0xA0}, {1, 0, 1, 0, 0, 0, 0, 0});
}

TEST(TensorStats, EveryFloatingDtype) {
  expect_finite_stats(DType::kFloat, bytes_of<float>({0.5f, -3.25f, 1e-3f}),
                      {0.5, -3.25, static_cast<double>(1e-3f)});
  // 0.1 in float64 is not a float32: read natively.
  expect_finite_stats(DType::kDouble, bytes_of<double>({0.1, -7.0, 1e30}), {0.1, -7.0, 1e30});
  // float16 by its bits: 1.0 (3C00), -2.0 (C000), 65504 (7BFF), 2^-24 (0001, subnormal).
  expect_finite_stats(DType::kFloat16, bytes_of<uint16_t>({0x3C00, 0xC000, 0x7BFF, 0x0001}),
                      {1.0, -2.0, 65504.0, std::ldexp(1.0, -24)});
  // bfloat16: the top half of the float32 bits of 1.0, -1.5, 3.0.
  expect_finite_stats(DType::kBFloat16, bytes_of<uint16_t>({0x3F80, 0xBFC0, 0x4040}),
                      {1.0, -1.5, 3.0});
  // fp8 e4m3fn: 1.0 (38), -2.0 (C0), 448 (7E), 2^-9 (01, subnormal).
  expect_finite_stats(DType::kFloat8E4M3FN, Bytes{0x38, 0xC0, 0x7E, 0x01},
                      {1.0, -2.0, 448.0, std::ldexp(1.0, -9)});
  // fp8 e5m2: 1.0 (3C), -0.5 (B8), 57344 (7B).
  expect_finite_stats(DType::kFloat8E5M2, Bytes{0x3C, 0xB8, 0x7B}, {1.0, -0.5, 57344.0});
  // hifloat8: zero and three codes as the project's decoder reads them.
  expect_finite_stats(DType::kHiFloat8, Bytes{0x00, 0x21, 0x45, 0xB3},
                      {0.0, decode_hifloat8(0x21), decode_hifloat8(0x45), decode_hifloat8(0xB3)});
}

// The fp8 codes whose meaning dumpcmp's compare takes from msaccucmp are read by their formats
// here: e4m3fn S.1111.111 is NaN, e5m2 and hifloat8 keep the sign of an infinity.
TEST(TensorStats, Fp8SpecialCodes) {
  TensorStatistics s =
      stats_of(DType::kFloat8E4M3FN, Bytes{0x38, 0x7F, 0xFF}, StatsNanRule::kPropagate);
  EXPECT_EQ(s.nan_count, 2);
  s = stats_of(DType::kFloat8E5M2, Bytes{0x3C, 0xFC, 0x7C, 0x7E}, StatsNanRule::kCannRuntime);
  EXPECT_EQ(s.neg_inf_count, 1);
  EXPECT_EQ(s.pos_inf_count, 1);
  EXPECT_EQ(s.nan_count, 1);
  EXPECT_EQ(*s.max, kInf);
  EXPECT_EQ(*s.min, -kInf);
  s = stats_of(DType::kHiFloat8, Bytes{0x6F, 0xEF, 0x80, 0x00}, StatsNanRule::kCannRuntime);
  EXPECT_EQ(s.neg_inf_count, 1);
  EXPECT_EQ(s.pos_inf_count, 1);
  EXPECT_EQ(s.nan_count, 1);
}

struct RuleCase {
  std::vector<float> values;
  // expected max, min, mean per rule: aicpu, runtime, propagate
  double max[3], min[3], mean[3];
};

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// NaN and inf under each writer's rule, worked out by hand from the sources (§9.2).
TEST(TensorStats, NanAndInfRules) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<RuleCase> cases = {
      // NaN first: the AICPU writer starts max/min at element 0 and never leaves NaN.
      {{nan, 1, 5, -2}, {kNaN, 5, kNaN}, {kNaN, -2, kNaN}, {kNaN, kNaN, kNaN}},
      // NaN later: skipped by comparison (AICPU, runtime); NaN for numpy.
      {{1, nan, 5, -2}, {5, 5, kNaN}, {-2, -2, kNaN}, {kNaN, kNaN, kNaN}},
      // only +inf: max inf, mean inf everywhere.
      {{1, inf, 3}, {kInf, kInf, kInf}, {1, 1, 1}, {kInf, kInf, kInf}},
      // only -inf.
      {{-inf, 1, 3}, {3, 3, 3}, {-kInf, -kInf, -kInf}, {-kInf, -kInf, -kInf}},
      // both infinities: mean NaN.
      {{inf, -inf, 2}, {kInf, kInf, kInf}, {-kInf, -kInf, -kInf}, {kNaN, kNaN, kNaN}},
      // NaN and +inf: AICPU's mean is +inf (its AdjustAvgValue wins), the others NaN.
      {{2, nan, inf}, {kInf, kInf, kNaN}, {2, 2, kNaN}, {kInf, kNaN, kNaN}},
      // all NaN.
      {{nan, nan}, {kNaN, kNaN, kNaN}, {kNaN, kNaN, kNaN}, {kNaN, kNaN, kNaN}},
  };
  const StatsNanRule rules[3] = {StatsNanRule::kCannAicpu, StatsNanRule::kCannRuntime,
                                 StatsNanRule::kPropagate};
  for (std::size_t c = 0; c < cases.size(); ++c) {
    for (int r = 0; r < 3; ++r) {
      SCOPED_TRACE("case " + std::to_string(c) + " rule " +
                   std::string(stats_nan_rule_name(rules[r])));
      const TensorStatistics s = stats_of(DType::kFloat, bytes_of(cases[c].values), rules[r], 6);
      EXPECT_PRED2(same, *s.max, cases[c].max[r]);
      EXPECT_PRED2(same, *s.min, cases[c].min[r]);
      EXPECT_PRED2(same, *s.mean, cases[c].mean[r]);
      int64_t nan_count = 0, pos = 0, neg = 0;
      for (float v : cases[c].values) {
        nan_count += std::isnan(v);
        pos += v == inf;
        neg += v == -inf;
      }
      EXPECT_EQ(s.nan_count, nan_count);
      EXPECT_EQ(s.pos_inf_count, pos);
      EXPECT_EQ(s.neg_inf_count, neg);
      EXPECT_EQ(s.count, static_cast<int64_t>(cases[c].values.size()));
      // l2norm is numpy's under every rule.
      const double want_l2 = nan_count > 0 ? kNaN : (pos + neg > 0 ? kInf : 0);
      if (nan_count > 0 || pos + neg > 0) {
        EXPECT_PRED2(same, *s.l2norm, want_l2);
      }
    }
  }
}

TEST(TensorStats, EmptyAndUnsupportedTensors) {
  const TensorStatistics empty = stats_of(DType::kFloat, Bytes{}, StatsNanRule::kPropagate);
  EXPECT_EQ(empty.count, 0);
  EXPECT_EQ(empty.nan_count, 0);
  EXPECT_FALSE(empty.max || empty.min || empty.mean || empty.l2norm);
  for (DType t :
       {DType::kComplex64, DType::kString, DType::kInt4, DType::kUndefined, DType::kResource}) {
    EXPECT_FALSE(stats_dtype_supported(t));
    const TensorStatistics s = stats_of(t, Bytes(16, 1), StatsNanRule::kPropagate);
    EXPECT_FALSE(s.max || s.min || s.mean || s.l2norm || s.count || s.nan_count);
  }
}

// A partial trailing element is not read, as the device counts bytes / element size.
TEST(TensorStats, CountsStoredElements) {
  Bytes b = bytes_of<float>({1, 2, 3});
  b.push_back(0x7F);
  const TensorStatistics s = stats_of(DType::kFloat, b, StatsNanRule::kPropagate);
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(*s.max, 3);
}

// The writers print 6 significant digits (CANN's integer max/min in full).
TEST(TensorStats, SignificantDigitsAsTheWritersPrint) {
  const std::vector<float> v = {3.14159274f, -123456.789f, 1e-7f};
  TensorStatsOptions options;
  const Bytes b = bytes_of(v);
  TensorStatistics s = tensor_statistics(b.data(), b.size(), DType::kFloat, options);
  EXPECT_EQ(*s.max, ostream6(3.14159274f));
  EXPECT_EQ(*s.max, 3.14159);
  EXPECT_EQ(*s.min, -123457);
  const double mean = (static_cast<double>(v[0]) + v[1] + v[2]) / 3;
  EXPECT_EQ(*s.mean, ostream6(mean));
  options.significant_digits = 0;
  s = tensor_statistics(b.data(), b.size(), DType::kFloat, options);
  EXPECT_EQ(*s.max, static_cast<double>(3.14159274f));

  const Bytes ints = bytes_of<int32_t>({1234567, -7654321});
  options.significant_digits = 6;
  s = tensor_statistics(ints.data(), ints.size(), DType::kInt32, options);
  EXPECT_EQ(*s.max, 1234567);  // CANN: in full
  EXPECT_EQ(*s.mean, ostream6((1234567.0 - 7654321.0) / 2));
  options.flavor = StatsFlavor::kMindSpore;  // MindSpore prints doubles: 1.23457e+06
  s = tensor_statistics(ints.data(), ints.size(), DType::kInt32, options);
  EXPECT_EQ(*s.max, 1234570);
}

// Tensors larger than a chunk: partial sums merge in order, element 0's NaN is remembered.
TEST(TensorStats, StreamsAcrossChunks) {
  const int64_t n = 200003;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<float>(i % 1000) - 500.0f;
  std::vector<double> d(v.begin(), v.end());
  expect_finite_stats(DType::kFloat, bytes_of(v), d);
  v[0] = std::numeric_limits<float>::quiet_NaN();
  v[150000] = std::numeric_limits<float>::quiet_NaN();
  const TensorStatistics s = stats_of(DType::kFloat, bytes_of(v), StatsNanRule::kCannAicpu);
  EXPECT_TRUE(std::isnan(*s.max));
  EXPECT_EQ(s.nan_count, 2);
  const TensorStatistics r = stats_of(DType::kFloat, bytes_of(v), StatsNanRule::kCannRuntime);
  EXPECT_EQ(*r.max, 499);
  EXPECT_EQ(*r.min, -500);
}

TEST(TensorStats, RowsAsCannWritesThem) {
  ScratchDir dir;
  write_op(dir,
           {tensor(DType::kFloat, {2, 3}, bytes_of<float>({1, 2, 3, 4, 5, 6})),
            tensor(DType::kInt32, {}, bytes_of<int32_t>({-7}))},
           {tensor(DType::kFloat16, {2}, bytes_of<uint16_t>({0x3C00, 0xC000}))});
  const StatsTable table = stats_from_tensor_dumps(dir.path());
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_TRUE(table.problems.empty());
  const StatsRow& in0 = table.rows[0];
  EXPECT_EQ(in0.op_type, "Add");
  EXPECT_EQ(in0.op_name, "add_1");
  EXPECT_EQ(in0.task_id, "3");
  EXPECT_EQ(in0.stream_id, "2");
  EXPECT_EQ(in0.timestamp, 1700000000000001);
  EXPECT_EQ(in0.io, "Input");
  EXPECT_EQ(in0.slot, "0");
  EXPECT_EQ(in0.data_size, 24u);
  EXPECT_EQ(in0.dtype, "DT_FLOAT");
  EXPECT_EQ(in0.format, "ND");
  EXPECT_EQ(in0.shape, "2x3");
  EXPECT_EQ(in0.key(), "add_1.3.Input.0");
  EXPECT_EQ(*in0.mean, 3.5);
  EXPECT_EQ(*in0.l2norm, ostream6(std::sqrt(91.0)));
  EXPECT_EQ(table.rows[1].shape, "-");  // a scalar: no dims
  EXPECT_EQ(*table.rows[1].max, -7);
  EXPECT_EQ(table.rows[2].io, "Output");
  EXPECT_EQ(table.rows[2].dtype, "DT_FLOAT16");
  EXPECT_EQ(*table.rows[2].mean, -0.5);
  EXPECT_EQ(table.rows[2].file, dir.file("Add.add_1.3.2.1700000000000001"));
  EXPECT_EQ(table.files.size(), 1u);
}

TEST(TensorStats, RowsAsMindSporeWritesThem) {
  ScratchDir dir;
  write_op(dir, {tensor(DType::kBFloat16, {2, 1}, bytes_of<uint16_t>({0x3F80, 0x4040}))},
           {tensor(DType::kFloat, {}, bytes_of<float>({2.5f}))},
           "GeLU.Default_GeLU-op0.0.0.1721724942726120");
  TensorStatsOptions options;
  options.flavor = StatsFlavor::kMindSpore;
  const StatsTable table = stats_from_tensor_dumps(dir.path(), options);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].key(), "Default_GeLU-op0.0.input.0");
  EXPECT_EQ(table.rows[0].dtype, "bfloat16");
  EXPECT_EQ(table.rows[0].shape, "(2,1)");
  EXPECT_EQ(table.rows[0].format, "");
  EXPECT_EQ(table.rows[1].shape, "()");
  EXPECT_EQ(table.rows[1].dtype, "float32");
  EXPECT_EQ(*table.rows[1].l2norm, 2.5);
}

TEST(TensorStats, FlavorOfARealTable) {
  StatsTable cann, ms;
  cann.rows.resize(1);
  cann.rows[0].io = "Input";
  ms.rows.resize(1);
  ms.rows[0].io = "input";
  ms.rows[0].dtype = "float32";
  EXPECT_EQ(stats_flavor_of(cann), StatsFlavor::kCann);
  EXPECT_EQ(stats_flavor_of(ms), StatsFlavor::kMindSpore);
  EXPECT_EQ(parse_stats_nan_rule("cann-runtime"), StatsNanRule::kCannRuntime);
  EXPECT_FALSE(parse_stats_nan_rule("nan"));
}

// The inventory's pick: the latest file of an op; 4-field names have no stream id.
TEST(TensorStats, OneFilePerOpAsTheInventoryPicks) {
  ScratchDir dir;
  write_op(dir, {}, {tensor(DType::kFloat, {1}, bytes_of<float>({1}))},
           "Relu.relu.5.1700000000000001");
  write_op(dir, {}, {tensor(DType::kFloat, {1}, bytes_of<float>({2}))},
           "Relu.relu.5.1700000000000009");
  write_op(dir, {}, {tensor(DType::kFloat, {1}, bytes_of<float>({3}))},
           "Add.add.6.1.1700000000000005");
  const StatsTable table = stats_from_tensor_dumps(dir.path());
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].op_name, "add");  // inventory order: by latest timestamp
  EXPECT_EQ(table.rows[1].op_name, "relu");
  EXPECT_EQ(table.rows[1].stream_id, "");
  EXPECT_EQ(*table.rows[1].max, 2);
  EXPECT_EQ(table.rows[1].timestamp, 1700000000000009);
}

// The whole-file protobuf form gives the same rows as the binary form.
TEST(TensorStats, ProtobufDumps) {
  ScratchDir a, b;
  DumpSpec spec;
  spec.op_name = "m";
  spec.inputs = {tensor(DType::kFloat16, {3}, bytes_of<uint16_t>({0x3C00, 0x7C00, 0x7E00}))};
  spec.outputs = {tensor(DType::kInt8, {2}, Bytes{0xFF, 0x05})};
  write_binary_dump(a.file("Mul.m.1.1.1700000000000001"), spec);
  write_protobuf_dump(b.file("Mul.m.1.1.1700000000000001"), spec);
  const StatsTable ta = stats_from_tensor_dumps(a.path());
  const StatsTable tb = stats_from_tensor_dumps(b.path());
  ASSERT_EQ(ta.rows.size(), 2u);
  ASSERT_EQ(tb.rows.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(ta.rows[i].key(), tb.rows[i].key());
    EXPECT_PRED2(same, *ta.rows[i].max, *tb.rows[i].max);
    EXPECT_PRED2(same, *ta.rows[i].mean, *tb.rows[i].mean);
    EXPECT_EQ(ta.rows[i].nan_count, tb.rows[i].nan_count);
  }
  EXPECT_EQ(ta.rows[0].pos_inf_count, 1);
  EXPECT_EQ(ta.rows[0].nan_count, 1);
  EXPECT_EQ(*ta.rows[1].min, -1);
}

// NC1HWC0 padding: the statistics of the stored tensor, padding zeros included, as the device
// computes them; shape and format are the stored ones.
TEST(TensorStats, DeviceLayoutPaddingIsCounted) {
  ScratchDir dir;
  std::vector<float> stored(1 * 1 * 2 * 2 * 16, 0.0f);  // C = 3 of C0 = 16
  for (int hw = 0; hw < 4; ++hw) {
    for (int c = 0; c < 3; ++c)
      stored[static_cast<std::size_t>(hw * 16 + c)] = 1.0f + static_cast<float>(c);
  }
  TensorSpec t = tensor(DType::kFloat, {1, 1, 2, 2, 16}, bytes_of(stored), Format::kNC1HWC0);
  t.original_shape = {1, 3, 2, 2};
  write_op(dir, {}, {t});
  const StatsTable table = stats_from_tensor_dumps(dir.path());
  ASSERT_EQ(table.rows.size(), 1u);
  const StatsRow& row = table.rows[0];
  EXPECT_EQ(row.format, "NC1HWC0");
  EXPECT_EQ(row.shape, "1x1x2x2x16");
  EXPECT_EQ(row.count, 64);
  EXPECT_EQ(*row.min, 0);  // a padding zero
  EXPECT_EQ(*row.max, 3);
  EXPECT_EQ(*row.mean, ostream6(24.0 / 64));
}

// MindSpore's per-tensor .npy names and msaccucmp's golden op.idx.ts.npy.
TEST(TensorStats, NpyFiles) {
  ScratchDir ms;
  const std::vector<float> x = {1, -2, 4};
  write_npy(ms.file("GeLU.Default_GeLU-op0.0.0.1721724942726120.output.0.DefaultFormat.npy"),
            DType::kFloat, {3}, bytes_of(x).data(), 12);
  write_npy(ms.file("GeLU.Default_GeLU-op0.0.0.1721724942726120.input.0.DefaultFormat.npy"),
            DType::kFloat16, {1}, bytes_of<uint16_t>({0x3C00}).data(), 2);
  TensorStatsOptions options;
  options.flavor = StatsFlavor::kMindSpore;
  EXPECT_TRUE(is_tensor_dump_directory(ms.path()));
  StatsTable table = stats_from_tensor_dumps(ms.path(), options);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].key(), "Default_GeLU-op0.0.input.0");  // inputs first
  EXPECT_EQ(table.rows[1].key(), "Default_GeLU-op0.0.output.0");
  EXPECT_EQ(table.rows[1].op_type, "GeLU");
  EXPECT_EQ(table.rows[1].timestamp, 1721724942726120);
  EXPECT_EQ(*table.rows[1].mean, 1);
  EXPECT_EQ(table.rows[1].shape, "(3)");
  options.flavor = StatsFlavor::kCann;
  table = stats_from_tensor_dumps(ms.path(), options);
  EXPECT_EQ(table.rows[1].format, "DefaultFormat");  // as the name gives it

  ScratchDir golden;
  write_npy(golden.file("conv1.2.1700000000000000.npy"), DType::kFloat, {3}, bytes_of(x).data(),
            12);
  table = stats_from_tensor_dumps(golden.path());
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0].op_name, "conv1");
  EXPECT_EQ(table.rows[0].slot, "2");  // the output index of the name
  EXPECT_EQ(table.rows[0].io, "Output");
}

TEST(TensorStats, DirectoryKinds) {
  ScratchDir dumps, stats, empty;
  write_op(dumps, {}, {tensor(DType::kFloat, {1}, bytes_of<float>({1}))});
  testing::write_bytes(stats.file("Add.add_1.3.2.1700000000000001.csv"), Bytes{'x'});
  testing::write_bytes(stats.file("statistic.csv"), Bytes{'x'});
  EXPECT_TRUE(is_tensor_dump_directory(dumps.path()));
  EXPECT_FALSE(is_tensor_dump_directory(stats.path()));
  EXPECT_FALSE(is_tensor_dump_directory(empty.path()));
  EXPECT_FALSE(is_tensor_dump_directory(dumps.file("nothing")));
  EXPECT_FALSE(is_tensor_dump_directory(dumps.file("Add.add_1.3.2.1700000000000001")));
  EXPECT_THROW(stats_from_tensor_dumps(empty.path()), Error);
  EXPECT_THROW(stats_from_tensor_dumps(stats.path()), Error);
}

// A dump that cannot be read is left out with a problem naming it; the others are kept.
TEST(TensorStats, UnreadableDumpIsAProblem) {
  ScratchDir dir;
  write_op(dir, {}, {tensor(DType::kFloat, {1}, bytes_of<float>({1}))});
  testing::write_bytes(dir.file("Add.broken.1.1.1700000000000002"), Bytes{1, 2, 3});
  const StatsTable table = stats_from_tensor_dumps(dir.path());
  ASSERT_EQ(table.rows.size(), 1u);
  ASSERT_EQ(table.problems.size(), 1u);
  EXPECT_NE(table.problems[0].file.find("Add.broken"), std::string::npos);
}

// D1 of the real data: a device nano dump (ConcatV2D, fp16) whose statistics the data index
// lists, computed there with numpy in float64.
TEST(TensorStats, RealNanoDump) {
  const std::string path = std::string(DUMPCMP_REALDATA_DIR) +
                           "/msprobe/test/msprobe_test/msaccucmp_ut/resource/"
                           "ConcatV2D.concatv2.0.0.550288648";
  if (!fs::exists(path)) GTEST_SKIP() << "real data absent: " << path;
  ScratchDir dir;
  fs::copy_file(path, dir.file("ConcatV2D.concatv2.0.0.550288648"));
  TensorStatsOptions options;
  options.significant_digits = 0;
  const StatsTable table = stats_from_tensor_dumps(dir.path(), options);
  ASSERT_EQ(table.rows.size(), 3u);
  const StatsRow& in0 = table.rows[0];
  EXPECT_EQ(in0.key(), "concatv2.0.Input.0");
  EXPECT_EQ(in0.timestamp, 550288648);
  EXPECT_EQ(in0.count, 14652);
  EXPECT_EQ(*in0.max, 2);
  EXPECT_EQ(*in0.min, -2);
  EXPECT_NEAR(*in0.mean, -0.011752585, 1e-9);
  EXPECT_NEAR(*in0.l2norm, 139.163006, 1e-6);
  EXPECT_NEAR(*in0.mean * 14652, -172.198875, 1e-6);
  EXPECT_NEAR(*table.rows[1].l2norm, 6.936511, 1e-6);
  EXPECT_NEAR(*table.rows[1].mean * 30, 6.314575, 1e-6);
  EXPECT_NEAR(*table.rows[2].l2norm, 139.335772, 1e-6);
  EXPECT_NEAR(*table.rows[2].mean * 14682, -165.884300, 1e-6);
}

// compare_stats pairs a CANN stats table with the computed one key by key: equal tensors give
// zero differences, a changed tensor (here the NPU side's) the verdict No.
TEST(TensorStats, ComparedWithAStatsTable) {
  ScratchDir dir;
  write_op(dir, {tensor(DType::kFloat, {4}, bytes_of<float>({0.5f, 1.25f, -3.0f, 2.0f}))},
           {tensor(DType::kFloat, {4}, bytes_of<float>({9.0f, 1.0f, 1.0f, 1.0f}))});
  const std::string header =
      "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,"
      "Nan Count,Negative Inf Count,Positive Inf Count\n";
  const StatsTable real = parse_stats_csv(header +
                                              "Input,0,16,DT_FLOAT,ND,4,2,-3,0.1875,4,0,0,0\n"
                                              "Output,0,16,DT_FLOAT,ND,4,3,1,1.5,4,0,0,0\n",
                                          "Add.add_1.3.2.1700000000000001.csv");
  const StatsTable computed = stats_from_tensor_dumps(dir.path());
  const StatsComparison result = compare_stats(computed, real);
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.compared, 2u);
  EXPECT_EQ(result.npu_only + result.bench_only, 0u);
  const StatsComparedRow& in = result.rows[0];
  EXPECT_EQ(in.key, "add_1.3.Input.0");
  EXPECT_EQ(in.diff[kStatMax], 0);
  EXPECT_EQ(in.diff[kStatMin], 0);
  EXPECT_EQ(in.diff[kStatMean], 0);
  EXPECT_EQ(in.accuracy, StatsVerdict::kYes);
  EXPECT_EQ(result.rows[1].accuracy, StatsVerdict::kNo);  // max 9 against 3
  ASSERT_TRUE(result.first_divergent);
  EXPECT_EQ(result.rows[*result.first_divergent].key, "add_1.3.Output.0");
}

}  // namespace
}  // namespace dumpcmp
