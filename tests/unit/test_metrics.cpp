// msaccucmp's cross-check vectors (docs/algorithms.md §3) through the CPU backend and metric table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "core/error.hpp"
#include "math/element_decode.hpp"
#include "math/log_ratio.hpp"
#include "metrics/metric.hpp"
#include "metrics_fixture.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {
namespace {

using testing::cells_agree;
using testing::compare_vectors;

struct Vector {
  const char* id;
  std::vector<float> x, y;
  std::vector<std::string> expected;  // 10 cells, all_metrics() order
  bool scalar = false;
};

float f16(float v) {
  // Round-trip through binary16 bits, as numpy's float16 would store v.
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exp = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = bits & 0x7FFFFFu;
  uint16_t h = static_cast<uint16_t>(sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13));
  const uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // round half to even
  return decode_fp16(h);
}

const float kNaN = NAN;
const float kInf = INFINITY;

std::vector<Vector> vectors() {
  return {
      {"V1",
       {1, 2, 3, 4},
       {1, 2, 3, 5},
       {"0.993999", "1.000000", "0.200000", "0.160128", "0.010310", "(2.500;1.118),(2.750;1.479)",
        "0.250000", "0.500000", "0.200000", "0.050000"}},
      {"V2",
       {1, 2, 0.5f, 4},
       {1, 0, 1, 4},
       {"0.894793", "2.000000", "0.500000", "0.485913", "4.019447", "(1.875;1.340),(1.500;1.500)",
        "0.625000", "1.030776", "0.500000", "0.125000"}},
      {"V4",
       {0, 0, 0, 0},
       {0, 0, 0, 0},
       {"1.0", "0.000000", "0.000000", "0.000000", "0.000000", "(0.000;0.000),(0.000;0.000)",
        "0.000000", "0.000000", "0.000000", "0.000000"}},
      {"V5",
       {0, 0, 0, 0},
       {1, 2, 3, 4},
       {"NaN", "4.000000", "4.000000", "1.000000", "3.668468", "(0.000;0.000),(2.500;1.118)",
        "2.500000", "2.738613", "1.000000", "1.000000"}},
      {"V6",
       {1, 2, 3, 4},
       {0, 0, 0, 0},
       {"NaN", "4.000000", "0.000000", "0.000000", "0.374889", "(2.500;1.118),(0.000;0.000)",
        "2.500000", "2.738613", "0.000000", "0.000000"}},
      {"V7",
       {1, kNaN, 3, 4},
       {1, 2, 3, 4},
       {"nan", "nan", "nan", "nan", "nan", "(nan;nan),(2.500;1.118)", "nan", "nan", "nan", "nan"}},
      {"V8",
       {1, kInf, 3, 4},
       {1, 2, 3, 4},
       {"nan", "inf", "inf", "inf", "nan", "(inf;nan),(2.500;1.118)", "inf", "inf", "inf", "inf"}},
      {"V9",
       {1, 2, 3, 4},
       {1, kNaN, 3, 4},
       {"nan", "nan", "0.000000", "nan", "nan", "(2.500;1.118),(nan;nan)", "nan", "nan", "0.000000",
        "0.000000"}},
      {"V10",
       {1, 2, 3, 4},
       {1, kInf, 3, 4},
       {"nan", "inf", "1.000000", "nan", "nan", "(2.500;1.118),(inf;nan)", "inf", "inf", "1.000000",
        "0.250000"}},
      {"V11",
       {3},
       {2},
       {"1.000000", "1.000000", "0.500000", "0.500000", "0.000000", "(3.000;0.000),(2.000;0.000)",
        "1.000000", "1.000000", "0.500000", "0.500000"},
       true},
      {"V12",
       {-1, -2, 3, -4},
       {-1.5f, -2, 2.5f, -4},
       {"0.991779", "0.500000", "0.533333", "0.132453", "0.001799", "(-1.000;2.550),(-1.250;2.358)",
        "0.250000", "0.353553", "0.333333", "0.133333"}},
      {"V13",
       {2, 2, 2, 2},
       {3, 3, 3, 3},
       {"1.000000", "1.000000", "1.333333", "0.333333", "0.000000", "(2.000;0.000),(3.000;0.000)",
        "1.000000", "1.000000", "0.333333", "0.333333"}},
      {"V14",
       {1, 2, 3},
       {-1, -2, -3},
       {"-1.000000", "6.000000", "6.000000", "2.000000", "10.628255",
        "(2.000;0.816),(-2.000;0.816)", "4.000000", "4.320494", "2.000000", "2.000000"}},
      {"V15",
       {4e-4f, 2e-4f, -1e-4f, 3e-4f},
       {9e-4f, 1.1e-3f, 1e-3f, 1.2e-3f},
       {"0.726192", "0.001100", "3.223737", "0.831013", "6.359616", "(0.000;0.000),(0.001;0.000)",
        "0.000850", "0.000877", "1.100000", "0.805934"}},
      {"V16",
       {f16(0.1f), f16(0.2f), f16(0.3f), f16(1000.5f)},
       {0.1f, 0.2f, 0.3f, 1000},
       {"1.000000", "0.500000", "0.001151", "0.000500", "0.000000",
        "(250.275;433.143),(250.150;432.926)", "0.125031", "0.250000", "0.000500", "0.000288"}},
      {"V18",
       {1e20f, 1, 2},
       {1e20f, 2, 2},
       {"0.000000", "1.000000", "0.500000", "0.000000", "0.000000",
        "(33333334001362579456.000;47140453023839182848.000),"
        "(33333334001362579456.000;47140453023839182848.000)",
        "0.333333", "0.577350", "0.500000", "0.166667"}},
  };
}

std::vector<float> long_x(int n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    x[static_cast<std::size_t>(i)] = static_cast<float>((37 * i % 101) - 50) / 8.0f;
  return x;
}

std::vector<float> long_y(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    y[i] = x[i] + static_cast<float>((13 * static_cast<int>(i) % 7) - 3) / 64.0f;
    if (i % 11 == 0) y[i] = 0.0f;
  }
  return y;
}

void expect_row(const char* id, const testing::Row& row, const std::vector<std::string>& expected) {
  ASSERT_EQ(row.cells.size(), expected.size()) << id;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(cells_agree(row.cells[i], expected[i]))
        << id << " " << metric_name(static_cast<Metric>(i)) << ": got " << row.cells[i]
        << ", msaccucmp printed " << expected[i];
  }
}

TEST(Metrics, CrossCheckVectors) {
  CpuBackend backend(2);
  for (const Vector& v : vectors()) {
    expect_row(v.id, compare_vectors(backend, v.x, v.y, v.scalar), v.expected);
  }
}

TEST(Metrics, LongVectors) {
  CpuBackend backend(2);
  const std::vector<std::pair<int, std::vector<std::string>>> cases = {
      {10,
       {"0.854968", "6.250000", "0.132814", "0.605876", "0.391128", "(-0.588;3.765),(0.045;3.262)",
        "0.651563", "1.976677", "0.056604", "0.013281"}},
      {1000,
       {"0.956010", "6.250000", "24.833227", "0.306796", "0.018063", "(0.001;3.647),(0.044;3.487)",
        "0.299969", "1.069914", "1.000000", "0.024833"}},
      {20000,
       {"0.953358", "6.250000", "510.021393", "0.316586", "0.018197", "(0.000;3.644),(0.000;3.475)",
        "0.311538", "1.100048", "1.000000", "0.025501"}},
  };
  for (const auto& [n, expected] : cases) {
    const std::vector<float> x = long_x(n);
    expect_row(("long n=" + std::to_string(n)).c_str(), compare_vectors(backend, x, long_y(x)),
               expected);
  }
}

TEST(Metrics, U1IdenticalRamp) {
  CpuBackend backend(2);
  std::vector<float> x(48);
  for (int i = 0; i < 48; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i);
  expect_row("U1", compare_vectors(backend, x, x),
             {"1.000000", "0.000000", "0.000000", "0.000000", "0.000000",
              "(23.500;13.853),(23.500;13.853)", "0.000000", "0.000000", "0.000000", "0.000000"});
}

TEST(Metrics, U2IdenticalDoubles) {
  CpuBackend backend(2);
  const std::vector<double> d = {2.0213,  -0.9118, -0.7277, -1.2509,
                                 -0.3222, -0.1876, 0.0432,  1.0614};
  std::vector<float> x;
  for (double v : d) x.push_back(static_cast<float>(v));
  expect_row("U2", compare_vectors(backend, x, x),
             {"1.000000", "0.000000", "0.000000", "0.000000", "0.000000",
              "(-0.034;1.017),(-0.034;1.017)", "0.000000", "0.000000", "0.000000", "0.000000"});
}

TEST(Metrics, ZeroCosineReasonsNameTheFile) {
  CpuBackend backend(1);
  const auto mine = compare_vectors(backend, {0, 0, 0, 0}, {1, 2, 3, 4});
  ASSERT_EQ(mine.reasons.size(), 1u);
  EXPECT_EQ(mine.reasons[0],
            "Cannot compare by Cosine Similarity. All the data is zero in my.bin.");
  const auto golden = compare_vectors(backend, {1, 2, 3, 4}, {0, 0, 0, 0});
  ASSERT_EQ(golden.reasons.size(), 1u);
  EXPECT_EQ(golden.reasons[0],
            "Cannot compare by Cosine Similarity. All the data is zero in golden.bin.");
}

TEST(Metrics, EmptyTensor) {
  CpuBackend backend(1);
  const auto row = compare_vectors(backend, {}, {});
  const std::vector<std::string> expected = {
      "1.0", "NaN", "0.000000", "0.000000", "NaN", "(nan;nan),(nan;nan)",
      "nan", "nan", "NaN",      "nan"};
  EXPECT_EQ(row.cells, expected);
  ASSERT_EQ(row.reasons.size(), 3u);
  EXPECT_EQ(row.reasons[0],
            "Failed to execute 'compare' in 'MaxAbsoluteError'. zero-size array to reduction "
            "operation maximum which has no identity");
}

TEST(Metrics, KldInfinityAndOverflowFollowMsaccucmp) {
  CpuBackend backend(1);
  // Seen in msaccucmp's own output: [1,2,3,4] vs [3e38]*4 (peer run, 2026-11-22).
  const auto row = compare_vectors(backend, {1, 2, 3, 4}, {3e38f, 3e38f, 3e38f, 3e38f});
  EXPECT_EQ(row.cells[0], "0.000000");
  EXPECT_EQ(row.cells[1], "300000000549775575777803994281145270272.000000");
  EXPECT_EQ(row.cells[2], "4.000000");
  EXPECT_EQ(row.cells[3], "nan");
  EXPECT_EQ(row.cells[4], "inf");
  ASSERT_EQ(row.reasons.size(), 1u);
  EXPECT_EQ(row.reasons[0],
            "Cannot compare by KL Divergence. The data contains 0 in 'golden.bin'.");
  EXPECT_EQ(row.cells[5], "(2.500;1.118),(300000000549775575777803994281145270272.000;0.000)");
  EXPECT_EQ(row.cells[6], "inf");
  EXPECT_EQ(row.cells[7], "inf");
}

TEST(Metrics, ResultsDoNotDependOnThreadCount) {
  const std::vector<float> x = long_x(200003);
  const std::vector<float> y = long_y(x);
  CpuBackend one(1), two(2), eight(8);
  const auto a = compare_vectors(one, x, y);
  EXPECT_EQ(a.cells, compare_vectors(two, x, y).cells);
  EXPECT_EQ(a.cells, compare_vectors(eight, x, y).cells);
}

}  // namespace
}  // namespace dumpcmp

namespace dumpcmp {
namespace {

// log(p / q) in long double, without the rounding of p / q that would swamp a log near 0.
long double exact_log_ratio(float p, float q) {
  const long double d = (static_cast<long double>(p) - q) / q;  // p - q is exact here
  return std::fabs(d) < 0.5L ? std::log1p(d) : std::log(static_cast<long double>(p) / q);
}

float float_from(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Within 2 ulp of the exact log over positive normal floats: random pairs, neighbours (where
// log(p / q) is near 0 and a rounded p / q would be off by 2^23 ulp), and ratios near 1, 2 and the
// reduction's bounds.
TEST(LogRatio, WithinTwoUlpOfTheExactLog) {
  uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 11;
  };
  const auto random_normal = [&] {
    return float_from(0x00800000u + static_cast<uint32_t>(next() % (0x7F800000u - 0x00800000u)));
  };
  int checked = 0;
  for (int i = 0; i < 300000; ++i) {
    const float p = random_normal();
    float q = random_normal();
    if (i % 3 == 1) q = std::nextafter(p, (i & 4) ? INFINITY : 0.0f);
    if (i % 3 == 2) {
      const float ratios[] = {1.0f, 2.0f, 0.5f, 1.41421356f, 0.707106781f, 1.0001f, 0.9999f};
      q = p * ratios[next() % 7];
    }
    if (!std::isnormal(q)) continue;
    const long double want = exact_log_ratio(p, q);
    const float got = log_ratio(p, q);
    if (want == 0.0L) {
      EXPECT_EQ(got, 0.0f) << p << " / " << q;
      continue;
    }
    const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23);
    EXPECT_LE(std::fabs(static_cast<double>(got - want)), 2.0 * ulp)
        << std::hexfloat << p << " / " << q << ": " << got;
    ++checked;
  }
  EXPECT_GT(checked, 280000);  // the loop is not vacuous
  // The extremes KLD sees: its clamp, 1, and the largest float.
  for (const float p : {1.1920928955078125e-07f, 1.0f, 3.4028235e38f}) {
    for (const float q : {1.1920928955078125e-07f, 1.0f, 3.4028235e38f}) {
      EXPECT_NEAR(log_ratio(p, q), static_cast<double>(exact_log_ratio(p, q)),
                  2.4e-7 * std::fabs(static_cast<double>(exact_log_ratio(p, q))))
          << p << " / " << q;
    }
  }
}

// KLD with the float32 log: the whole result, as metric_table forms it from the second pass's
// sums, within a tenth of its printed digit (1e-6) of the same formula in long double, on the data
// where the log's error would show most: long tensors, heavy tails and large logs.
TEST(LogRatio, KldWithinATenthOfItsPrintedDigit) {
  std::mt19937 rng(29);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int64_t n = 200000;
  for (int trial = 0; trial < 8; ++trial) {
    const float noise = trial < 4 ? 1e-3f : 3.0f;
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i) {
      const float v = trial % 2 == 0 ? normal(rng) : std::exp(3.0f * normal(rng));  // log-normal
      y[i] = v;
      x[i] = v * (1.0f + noise * normal(rng));
    }
    const auto scale_of = [](const std::vector<float>& a) {
      const auto [lo, hi] = std::minmax_element(a.begin(), a.end());
      return KldScale{*lo, *hi - *lo};
    };
    const KldScale sx = scale_of(x), sy = scale_of(y);
    const KldAccumulator k = lift_kld_chunk(x.data(), y.data(), n, sx, sy);
    const double got = k.sum_plogpq / k.sum_p + std::log(k.sum_q / k.sum_p);
    long double sp = 0, sq = 0, t = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float p = sx.apply(x[i]), q = sy.apply(y[i]);
      sp += p;
      sq += q;
      t += p * exact_log_ratio(p, q);
    }
    const double want = static_cast<double>(t / sp + std::log(sq / sp));
    EXPECT_NEAR(got, want, 1e-7) << "trial " << trial;
    EXPECT_GT(want, 0.0);  // a divergence to measure
  }
}

// -alg as msaccucmp's argparse (one string, or several indexes when the second value is one) and
// AlgorithmManager (names and indexes split on ',', unknown names skipped with a warning).
TEST(MetricSelection, ParsedAsMsaccucmpTakesIt) {
  using M = Metric;
  std::vector<std::string> warnings;
  EXPECT_EQ(parse_metric_selection({"ALL"}), all_metrics());
  EXPECT_EQ(parse_metric_selection({" 8 , CosineSimilarity,8"}),
            (std::vector<M>{M::kMaxRelativeError, M::kCosineSimilarity}));
  EXPECT_EQ(parse_metric_selection({"Bogus,1,all"}, &warnings),
            (std::vector<M>{M::kMaxAbsoluteError}));
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "The 'Bogus' does not supported in builtin or custom. Please check the algorithm name "
            "or algorithm index.");
  EXPECT_EQ(parse_metric_selection({"5", "0", "5"}),
            (std::vector<M>{M::kStandardDeviation, M::kCosineSimilarity}));
  auto error = [](const std::vector<std::string>& tokens) {
    try {
      parse_metric_selection(tokens);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error({"CosineSimilarity", "KullbackLeiblerDivergence"}),
            "unrecognized arguments: KullbackLeiblerDivergence");
  EXPECT_EQ(error({"1", "12"}), "unrecognized arguments: 12");
  EXPECT_EQ(error({"Cos", "1"}), "argument -alg/--algorithm: invalid int value: 'Cos'");
  EXPECT_EQ(error({"1", "2", "10"}),
            "argument -alg/--algorithm: invalid choice: 10 (choose from 0, 1, 2, 3, 4, 5, 6, 7, 8, "
            "9)");
  EXPECT_NE(error({"Bogus"}).find("The algorithm in 'Bogus' does not supported. Just supports "
                                  "['CosineSimilarity', 'MaxAbsoluteError'"),
            std::string::npos);
  EXPECT_EQ(error({""}), "There is no algorithm to select. Please select at least one algorithm.");
}

// With custom plug-ins (-c): columns in -alg's order among the built-in ones; a custom file named
// as a built-in algorithm replaces it, for indexes and "all" too; "all" adds no other custom one.
TEST(MetricSelection, CustomAlgorithmsTakeTheirPlaceInTheOrder) {
  using M = Metric;
  const std::vector<std::string> custom = {"MeanDiff", "CosineSimilarity", "Count"};
  AlgorithmSelection s = parse_algorithm_selection({"Count,1,MeanDiff,Count,9"}, custom);
  EXPECT_EQ(s.metrics, (std::vector<M>{M::kMaxAbsoluteError, M::kMeanRelativeError}));
  EXPECT_EQ(s.custom, (std::vector<CustomColumn>{{"Count", 0}, {"MeanDiff", 1}}));
  s = parse_algorithm_selection({"0,1"}, custom);
  EXPECT_EQ(s.metrics, (std::vector<M>{M::kMaxAbsoluteError}));
  EXPECT_EQ(s.custom, (std::vector<CustomColumn>{{"CosineSimilarity", 0}}));
  s = parse_algorithm_selection({"all"}, custom);
  EXPECT_EQ(s.metrics.size(), 9u);
  EXPECT_EQ(s.custom, (std::vector<CustomColumn>{{"CosineSimilarity", 0}}));
  s = parse_algorithm_selection({"MeanDiff"}, custom);
  EXPECT_TRUE(s.metrics.empty());
  EXPECT_EQ(s.custom, (std::vector<CustomColumn>{{"MeanDiff", 0}}));
  try {
    parse_algorithm_selection({"Bogus"}, custom);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'MeanRelativeError', 'MeanDiff', 'CosineSimilarity', "
                                         "'Count']"),
              std::string::npos)
        << e.what();
  }
}

// The table places custom columns among the metrics and prints the plug-in's text as it is.
TEST(ResultTable, CustomColumnsSitWhereTheySelected) {
  TableColumns columns;
  columns.custom = {{"First", 0}, {"Middle", 1}, {"Last", 2}};
  const ResultTable table({Metric::kCosineSimilarity, Metric::kMaxAbsoluteError}, columns);
  const std::vector<std::string> h = table.header();
  const std::vector<std::string> tail(h.end() - 6, h.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"First", "CosineSimilarity", "Middle",
                                            "MaxAbsoluteError", "Last", "CompareFailReason"}));
  CompareRecord record;
  const std::vector<std::string> not_compared = table.cells(record);
  EXPECT_EQ(std::vector<std::string>(not_compared.end() - 6, not_compared.end()),
            (std::vector<std::string>{"NaN", "NaN", "NaN", "NaN", "NaN", ""}));
  record.metrics.resize(2);
  record.metrics[0].status = CellStatus::kLiteralOne;
  record.custom_cells = {"a", "b,c", "NaN"};
  record.fail_reason = "why";
  const std::vector<std::string> c = table.cells(record);
  EXPECT_EQ(std::vector<std::string>(c.end() - 6, c.end()),
            (std::vector<std::string>{"a", "1.0", "b,c", "NaN", "NaN", "why"}));
}

}  // namespace
}  // namespace dumpcmp
