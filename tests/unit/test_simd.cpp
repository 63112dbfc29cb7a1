// The vector kernels (simd/) on every SIMD target this CPU runs, bit for bit against the scalar
// templates of math/accumulator.hpp and math/element_decode.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "math/accumulator.hpp"
#include "math/element_decode.hpp"
#include "math/element_source.hpp"
#include "math/error_keys.hpp"
#include "quantiles/float64_quantiles.hpp"
#include "simd/block_transpose.hpp"
#include "simd/chunk_lift.hpp"
#include "simd/decode_elements.hpp"
#include "simd/error_keys.hpp"
#include "simd/float64_keys.hpp"
#include "simd/narrow_decode.hpp"
#include "simd/simd_target.hpp"

namespace dumpcmp {
namespace {

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The same bits; or, where nan_payloads_may_differ, NaN both: a NaN sum's payload depends on which
// operand the compiler put first and means nothing to any metric.
template <typename T>
bool same_value(T a, T b, bool nan_payloads_may_differ) {
  return same_bits(a, b) || (nan_payloads_may_differ && std::isnan(a) && std::isnan(b));
}

void expect_same_side(const SideStats& got, const SideStats& want, bool nan_payloads_may_differ) {
  EXPECT_EQ(got.nan, want.nan);
  EXPECT_EQ(got.pos_inf, want.pos_inf);
  EXPECT_EQ(got.neg_inf, want.neg_inf);
  EXPECT_EQ(got.finite, want.finite);
  EXPECT_TRUE(same_value(got.mean, want.mean, nan_payloads_may_differ))
      << got.mean << " vs " << want.mean;
  EXPECT_TRUE(same_value(got.m2, want.m2, nan_payloads_may_differ)) << got.m2 << " vs " << want.m2;
  EXPECT_TRUE(same_value(got.min, want.min, nan_payloads_may_differ))
      << got.min << " vs " << want.min;
  EXPECT_TRUE(same_value(got.max, want.max, nan_payloads_may_differ))
      << got.max << " vs " << want.max;
}

void expect_same(const PairAccumulator& got, const PairAccumulator& want,
                 bool nan_payloads_may_differ = false) {
  EXPECT_EQ(got.n, want.n);
  EXPECT_EQ(got.nan_abs_d, want.nan_abs_d);
  EXPECT_EQ(got.nan_rel, want.nan_rel);
  EXPECT_TRUE(same_value(got.max_abs_d, want.max_abs_d, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.max_rel, want.max_rel, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_xx, want.sum_xx, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_yy, want.sum_yy, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_xy, want.sum_xy, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_d2, want.sum_d2, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_abs_d, want.sum_abs_d, nan_payloads_may_differ));
  EXPECT_TRUE(same_value(got.sum_rel, want.sum_rel, nan_payloads_may_differ))
      << got.sum_rel << " vs " << want.sum_rel;
  expect_same_side(got.x, want.x, nan_payloads_may_differ);
  expect_same_side(got.y, want.y, nan_payloads_may_differ);
}

// Values that stress each lane's operations: wide magnitudes, both zeros, goldens at and around
// the relative error's 2^-52 cut, subnormals, float32's largest values.
std::vector<float> hostile_values(std::mt19937& rng, int64_t n) {
  const float specials[] = {0.0f,    -0.0f,   0x1p-52f, -0x1p-52f, 0x1.000002p-52f, 1e-45f,
                            -1e-40f, 3.4e38f, -3.4e38f, 1.0f,      -1.0f,           0.5f};
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-60, 60), pick(0, 15);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& e : v) {
    const int p = pick(rng);
    e = p < 12 && pick(rng) < 3 ? specials[p] : std::ldexp(mantissa(rng), exponent(rng));
  }
  return v;
}

const int64_t kSizes[] = {0, 1, 7, 8, 9, 63, 100, 1000, 16383, 16384};

class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { simd::limit_target(GetParam()); }
  void TearDown() override { simd::limit_target(simd::runnable_targets().front()); }
};

TEST_P(EveryTarget, RunsTheTargetItIsLimitedTo) {
  EXPECT_EQ(simd::chosen_target(), GetParam());
  // What the dispatched copy itself says it was compiled for.
  EXPECT_EQ(simd::chosen_target_bit(), simd::dispatched_target());
}

TEST_P(EveryTarget, PairLiftGivesTheScalarBits) {
  std::mt19937 rng(7);
  for (int64_t n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::vector<float> x = hostile_values(rng, n), y = hostile_values(rng, n);
    expect_same(simd::lift_pair_chunk(Float32Bytes(x.data()), Float32Bytes(y.data()), n),
                lift_pair_chunk(x.data(), y.data(), n));
  }
}

// Payloads in dump files start at any byte (a binary dump's header length is arbitrary).
TEST_P(EveryTarget, PairAndKldLiftsReadUnalignedPayloads) {
  std::mt19937 rng(5);
  const int64_t n = 1001;
  const std::vector<float> x = hostile_values(rng, n), y = hostile_values(rng, n);
  const KldScale scale{-1.0f, 2.0f};
  for (std::size_t shift = 1; shift < 4; ++shift) {
    SCOPED_TRACE("payload at byte " + std::to_string(shift));
    std::vector<uint8_t> bx(shift + 4 * n), by(shift + 4 * n);
    std::memcpy(bx.data() + shift, x.data(), 4 * n);
    std::memcpy(by.data() + shift, y.data(), 4 * n);
    const Float32Bytes ux(bx.data() + shift), uy(by.data() + shift);
    expect_same(simd::lift_pair_chunk(ux, uy, n), lift_pair_chunk(x.data(), y.data(), n));
    const KldAccumulator got = simd::lift_kld_chunk(ux, uy, n, scale, scale);
    const KldAccumulator want = lift_kld_chunk(x.data(), y.data(), n, scale, scale);
    EXPECT_TRUE(same_bits(got.sum_plogpq, want.sum_plogpq));
  }
}

TEST_P(EveryTarget, PairLiftWithNanOrInfAnywhereGivesTheScalarBits) {
  std::mt19937 rng(11);
  const float specials[] = {NAN, INFINITY, -INFINITY};
  for (int64_t n : {1, 8, 13, 16384}) {
    for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
      for (float special : specials) {
        for (int side = 0; side < 2; ++side) {
          std::vector<float> x = hostile_values(rng, n), y = hostile_values(rng, n);
          (side == 0 ? x : y)[static_cast<std::size_t>(at)] = special;
          SCOPED_TRACE("n=" + std::to_string(n) + " at=" + std::to_string(at) +
                       " side=" + std::to_string(side) + " value=" + std::to_string(special));
          expect_same(simd::lift_pair_chunk(Float32Bytes(x.data()), Float32Bytes(y.data()), n),
                      lift_pair_chunk(x.data(), y.data(), n));
        }
      }
    }
  }
}

TEST_P(EveryTarget, KldLiftGivesTheScalarBits) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> value(-3.0f, 5.0f);
  const KldScale scales[] = {{-3.0f, 8.0f}, {0.0f, 0.0f}, {1.5f, 1e-3f}};
  for (int64_t n : kSizes) {
    std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
    for (float& e : x) e = value(rng);
    for (float& e : y) e = value(rng);
    for (const KldScale& sx : scales) {
      for (const KldScale& sy : scales) {
        SCOPED_TRACE("n=" + std::to_string(n));
        const KldAccumulator got =
            simd::lift_kld_chunk(Float32Bytes(x.data()), Float32Bytes(y.data()), n, sx, sy);
        const KldAccumulator want = lift_kld_chunk(x.data(), y.data(), n, sx, sy);
        EXPECT_TRUE(same_bits(got.sum_p, want.sum_p));
        EXPECT_TRUE(same_bits(got.sum_q, want.sum_q));
        EXPECT_TRUE(same_bits(got.sum_plogpq, want.sum_plogpq))
            << got.sum_plogpq << " vs " << want.sum_plogpq;
      }
    }
  }
}

// binary16 and bfloat16 sides read as bits give the bits of the same lifts over their decoded
// values, on either side or both, at any alignment, with NaN, inf and subnormals among them.
TEST_P(EveryTarget, LiftsRead16BitSidesAsTheirDecodedValues) {
  std::mt19937 rng(19);
  std::uniform_int_distribution<int> bits(0, 0xFFFF);
  // Finite: not the all-ones exponent (binary16 0x7C00, bfloat16 0x7F80).
  const auto finite = [](DType kind, int v) {
    const int exponent = kind == DType::kFloat16 ? 0x7C00 : 0x7F80;
    return (v & exponent) != exponent;
  };
  const auto values = [&](DType kind, int64_t n, bool finite_only) {
    std::vector<uint8_t> h(static_cast<std::size_t>(1 + 2 * n));  // from byte 1: unaligned
    for (int64_t i = 0; i < n; ++i) {
      int v = bits(rng);
      while (finite_only && !finite(kind, v)) v = bits(rng);
      h[static_cast<std::size_t>(1 + 2 * i)] = static_cast<uint8_t>(v);
      h[static_cast<std::size_t>(2 + 2 * i)] = static_cast<uint8_t>(v >> 8);
    }
    return h;
  };
  const auto decoded = [](DType kind, const std::vector<uint8_t>& h, int64_t n) {
    std::vector<float> f(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      f[static_cast<std::size_t>(i)] = kind == DType::kFloat16
                                           ? TypedBytes<DType::kFloat16>(h.data() + 1)[i]
                                           : TypedBytes<DType::kBFloat16>(h.data() + 1)[i];
    }
    return f;
  };
  const KldScale scale{-70000.0f, 140000.0f};
  for (DType kind : {DType::kFloat16, DType::kBFloat16}) {
    for (int64_t n : kSizes) {
      for (bool finite_only : {true, false}) {
        SCOPED_TRACE(std::string(kind == DType::kFloat16 ? "binary16" : "bfloat16") +
                     " n=" + std::to_string(n) + (finite_only ? " finite" : " any bits"));
        const std::vector<uint8_t> hx = values(kind, n, finite_only),
                                   hy = values(kind, n, finite_only);
        const std::vector<float> fx = decoded(kind, hx, n), fy = decoded(kind, hy, n);
        const ChunkSide bits_x{hx.data() + 1, kind}, bits_y{hy.data() + 1, kind};
        const ChunkSide float_x{reinterpret_cast<const uint8_t*>(fx.data())};
        const ChunkSide float_y{reinterpret_cast<const uint8_t*>(fy.data())};
        const std::pair<ChunkSide, ChunkSide> pairs[] = {
            {bits_x, float_y}, {float_x, bits_y}, {bits_x, bits_y}, {float_x, float_y}};
        const PairAccumulator want = lift_pair_chunk(fx.data(), fy.data(), n);
        for (auto [x, y] : pairs) {
          SCOPED_TRACE(std::string(x.dtype == kind ? "bits" : "float32") + " x, " +
                       (y.dtype == kind ? "bits" : "float32") + " y");
          expect_same(simd::lift_pair_chunk(x, y, n), want, !finite_only);
        }
        if (!finite_only) continue;  // the KLD pass runs on finite data only
        const KldAccumulator kld = lift_kld_chunk(fx.data(), fy.data(), n, scale, scale);
        for (auto [x, y] : pairs) {
          const KldAccumulator got = simd::lift_kld_chunk(x, y, n, scale, scale);
          EXPECT_TRUE(same_bits(got.sum_p, kld.sum_p));
          EXPECT_TRUE(same_bits(got.sum_q, kld.sum_q));
          EXPECT_TRUE(same_bits(got.sum_plogpq, kld.sum_plogpq));
        }
      }
    }
  }
}

TEST_P(EveryTarget, Float64KeysGiveTheScalarKeysAndBins) {
  std::mt19937_64 rng(23);
  std::array<double, kHistogramEdges.size()> edges{};
  for (std::size_t e = 0; e < edges.size(); ++e) edges[e] = kHistogramEdges[e];
  const double specials[] = {0.0, -0.0, NAN, INFINITY, 5e-324, 1e-7, 1.0, edges[3]};
  for (int64_t n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<double> e(static_cast<std::size_t>(n) + 1);
    for (std::size_t i = 0; i < e.size(); ++i) {
      e[i] = std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 80));
      if (i % 5 == 0) e[i] = specials[(i / 5) % std::size(specials)];
    }
    std::vector<uint64_t> key(static_cast<std::size_t>(n)), bin(static_cast<std::size_t>(n));
    // From one element in, so the loads are unaligned.
    simd::float64_keys(e.data() + 1, n, edges.data(), static_cast<int>(edges.size()), key.data(),
                       bin.data());
    int mismatches = 0;
    for (std::size_t i = 0; i < key.size(); ++i) {
      const double v = e[i + 1];
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      const uint64_t want = std::isnan(v) ? ~uint64_t{0} : (v == 0 ? 0 : bits);
      if ((key[i] != want || bin[i] != static_cast<uint64_t>(float64_histogram_bin(v))) &&
          ++mismatches <= 5) {
        ADD_FAILURE() << i << ": " << v;
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST_P(EveryTarget, ErrorKeysGiveTheScalarKeysAndBins) {
  std::mt19937 rng(17);
  const uint32_t edges[] = {magnitude_key(1e-7f), magnitude_key(1e-3f), magnitude_key(1.0f)};
  for (int64_t n : kSizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<float> x = hostile_values(rng, n + 1), y = hostile_values(rng, n);
    for (int64_t i = 0; i < n; i += 7) x[static_cast<std::size_t>(i)] = NAN;
    for (int64_t i = 3; i < n; i += 11) y[static_cast<std::size_t>(i)] = -INFINITY;
    for (int64_t i = 5; i < n; i += 13)
      x[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)];
    std::vector<uint32_t> out(4 * static_cast<std::size_t>(n) + 4);
    uint32_t *ak = out.data(), *rk = ak + n, *ab = rk + n, *rb = ab + n;
    // x from one float in, so its loads are unaligned.
    simd::error_keys(Float32Bytes(x.data() + 1), Float32Bytes(y.data()), n, edges, 3, ak, rk, ab,
                     rb);
    int mismatches = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float xi = x[static_cast<std::size_t>(i) + 1], yi = y[static_cast<std::size_t>(i)];
      const uint32_t want[] = {abs_error_key(xi, yi), relative_error_key(xi, yi)};
      const uint32_t got[] = {ak[i], rk[i]}, got_bin[] = {ab[i], rb[i]};
      for (int m = 0; m < 2; ++m) {
        // A NaN's payload is the hardware's choice: any NaN key for a NaN.
        const bool same = got[m] == want[m] || (got[m] > kInfKey && want[m] > kInfKey);
        if ((!same || got_bin[m] != error_bin(want[m], edges, 3)) && ++mismatches <= 5) {
          ADD_FAILURE() << i << " measure " << m << ": " << xi << ", " << yi;
        }
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

// Decodes every 16-bit pattern with `vector`, from an odd byte offset so no load is aligned, and
// checks each value against `scalar`'s bits (any NaN for a NaN when nan_payloads_may_differ).
void expect_every_16bit_pattern(void (*vector)(const uint8_t*, int64_t, float*),
                                float (*scalar)(uint16_t), bool nan_payloads_may_differ) {
  std::vector<uint8_t> bytes(1 + 2 * 65536);
  for (uint32_t h = 0; h < 65536; ++h) {
    bytes[1 + 2 * h] = static_cast<uint8_t>(h);
    bytes[2 + 2 * h] = static_cast<uint8_t>(h >> 8);
  }
  std::vector<float> out(65536);
  vector(bytes.data() + 1, 65536, out.data());
  int mismatches = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const float want = scalar(static_cast<uint16_t>(h));
    const bool same = same_bits(out[h], want) ||
                      (nan_payloads_may_differ && std::isnan(out[h]) && std::isnan(want));
    if (!same && ++mismatches <= 5) ADD_FAILURE() << "0x" << std::hex << h << ": " << out[h];
  }
  EXPECT_EQ(mismatches, 0);
}

TEST_P(EveryTarget, Fp16DecodeGivesTheScalarValueOfEveryPattern) {
  expect_every_16bit_pattern(simd::decode_fp16, decode_fp16, true);
}

TEST_P(EveryTarget, Bf16DecodeGivesTheScalarValueOfEveryPattern) {
  expect_every_16bit_pattern(simd::decode_bf16, decode_bf16, false);
}

TEST_P(EveryTarget, OneByteTypesDecodeToTheScalarValueOfEveryPattern) {
  // Every byte, twice and from an odd offset, through the chunk decode each one-byte type takes.
  std::vector<uint8_t> bytes(1 + 512 + 5);
  for (std::size_t i = 1; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  const int64_t n = static_cast<int64_t>(bytes.size()) - 1;
  for (DType t : {DType::kInt8, DType::kUndefined, DType::kUInt8, DType::kBool,
                  DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kHiFloat8}) {
    ElementSource src;
    src.data = bytes.data() + 1;
    src.dtype = t;
    src.count = n;
    std::vector<float> out(static_cast<std::size_t>(n));
    decode_elements(src, 0, n, out.data());
    int mismatches = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float want = decode_element(src.data, t, i);
      const float got = out[static_cast<std::size_t>(i)];
      const bool same = same_bits(got, want) || (std::isnan(got) && std::isnan(want));
      if (!same && ++mismatches <= 5) {
        ADD_FAILURE() << dtype_wire_name(t) << " byte " << int{src.data[i]} << ": " << got;
      }
    }
    EXPECT_EQ(mismatches, 0) << dtype_wire_name(t);
  }
}

TEST_P(EveryTarget, TransposeRows16MovesEachValueToItsChannelRun) {
  // From an odd byte: no row is aligned. Whole 16-row tiles, a tail, and blocks with padding
  // channels (fewer channels than c0); c0 = 4 takes the value-by-value path.
  std::vector<uint8_t> src(1 + 2 * 16 * 70);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  const uint8_t* rows_at = src.data() + 1;
  for (int64_t c0 : {int64_t{16}, int64_t{4}}) {
    for (int64_t channels : {c0, c0 / 2, int64_t{1}}) {
      for (int64_t rows : {0, 1, 15, 16, 17, 48, 70}) {
        const int64_t stride = rows + 3;  // the runs do not touch: untouched values stay 0xAAAA
        std::vector<uint16_t> dst(static_cast<std::size_t>(c0 * stride), 0xAAAA);
        simd::transpose_rows16(rows_at, rows, c0, channels, dst.data(), stride);
        int mismatches = 0;
        for (int64_t c = 0; c < c0; ++c) {
          for (int64_t r = 0; r < stride; ++r) {
            uint16_t want = 0xAAAA;
            if (c < channels && r < rows) std::memcpy(&want, rows_at + 2 * (r * c0 + c), 2);
            const uint16_t got = dst[static_cast<std::size_t>(c * stride + r)];
            if (got != want && ++mismatches <= 5) {
              ADD_FAILURE() << "c0 " << c0 << " channels " << channels << " rows " << rows
                            << ": channel " << c << " row " << r << " got " << got;
            }
          }
        }
        EXPECT_EQ(mismatches, 0);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Simd, EveryTarget, ::testing::ValuesIn(simd::runnable_targets()),
                         [](const auto& param_info) { return param_info.param; });

TEST(SimdTarget, UnknownNamesAreRefusedNamingTheCompiledTargets) {
  try {
    simd::limit_target("avx9000");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find(simd::compiled_targets()), std::string::npos);
  }
}

TEST(SimdTarget, Avx512IsAnotherNameForAvx3) {
  const std::vector<std::string> all = simd::runnable_targets();
  if (std::find(all.begin(), all.end(), "AVX3") == all.end()) GTEST_SKIP() << "no AVX-512 here";
  simd::limit_target("avx512");
  EXPECT_EQ(simd::chosen_target(), "AVX3");
  simd::limit_target(all.front());
}

}  // namespace
}  // namespace dumpcmp
