// Layout conversions as index maps (docs/algorithms.md §6): the cross-check vectors, msaccucmp's
// dispatch, crop and messages, round trips through forward transforms written here as plain loops
// from the GE / msaccucmp formulas, and arrays produced by running the real msaccucmp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "layout/layout_plan.hpp"
#include "layout/materialize.hpp"

namespace dumpcmp {
namespace {

using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

static_assert(std::is_trivially_copyable_v<LayoutMap>, "LayoutMap is copied to the GPU by value");

constexpr float kPad = -1.0f;  // padding written by the forward transforms; real values are >= 1

int64_t prod(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Values 1, 2, 3... so that every element is distinct and none equals the padding.
Floats iota_values(int64_t n) {
  Floats v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

// Source indices of every restored element. source_index() and the incremental walk must agree,
// also for a walk that starts mid-tensor.
Ints indices(const LayoutMap& map) {
  Ints direct(static_cast<size_t>(map.count));
  for (int64_t i = 0; i < map.count; ++i) direct[i] = map.source_index(i);
  Ints walked(direct.size());
  fill_source_indices(map, 0, map.count, walked.data());
  EXPECT_EQ(direct, walked);
  if (map.count > 2) {
    const int64_t mid = map.count / 3;
    Ints rest(static_cast<size_t>(map.count - mid));
    fill_source_indices(map, mid, map.count - mid, rest.data());
    EXPECT_TRUE(std::equal(rest.begin(), rest.end(), direct.begin() + mid));
  }
  return direct;
}

TensorInfo tensor(Format format, Shape shape, Shape original, int32_t sub_format = 0) {
  TensorInfo t;
  t.format = format;
  t.shape = std::move(shape);
  t.original_shape = std::move(original);
  t.sub_format = sub_format;
  return t;
}

// x laid out with dims named by `from` (e.g. "NCHW"), re-laid out in the order `to`.
Floats permute(const Floats& x, const Shape& dims, const std::string& from, const std::string& to) {
  Shape to_dims;
  for (char c : to) to_dims.push_back(dims[from.find(c)]);
  Floats out(x.size());
  Ints coord(to.size());
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i);
    for (size_t k = to.size(); k-- > 0;) {
      coord[k] = rest % to_dims[k];
      rest /= to_dims[k];
    }
    int64_t src = 0;
    for (size_t k = 0; k < from.size(); ++k) src = src * dims[k] + coord[to.find(from[k])];
    out[i] = x[src];
  }
  return out;
}

// ---- Forward transforms (device layouts from host layouts), plain loops from the formulas ----

// NCHW -> NC1HWC0: x[n,c,h,w] at [n, c/C0, h, w, c%C0].
Floats to_nc1hwc0(const Floats& x, int64_t n, int64_t c, int64_t h, int64_t w, int64_t c0) {
  const int64_t c1 = ceil_div(c, c0);
  Floats out(static_cast<size_t>(n * c1 * h * w * c0), kPad);
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t ih = 0; ih < h; ++ih)
        for (int64_t iw = 0; iw < w; ++iw)
          out[(((in * c1 + ic / c0) * h + ih) * w + iw) * c0 + ic % c0] =
              x[((in * c + ic) * h + ih) * w + iw];
  return out;
}

// NCHW -> FRACTAL_Z (C1*H*W, No, Ni, C0): x[n,c,h,w] at [(c/C0*H + h)*W + w, n/Ni, n%Ni, c%C0].
Floats to_fractal_z(const Floats& x, int64_t n, int64_t c, int64_t h, int64_t w, int64_t ni,
                    int64_t c0) {
  const int64_t c1 = ceil_div(c, c0), no = ceil_div(n, ni);
  Floats out(static_cast<size_t>(c1 * h * w * no * ni * c0), kPad);
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t ih = 0; ih < h; ++ih)
        for (int64_t iw = 0; iw < w; ++iw) {
          const int64_t row = ((ic / c0) * h + ih) * w + iw;
          out[((row * no + in / ni) * ni + in % ni) * c0 + ic % c0] =
              x[((in * c + ic) * h + ih) * w + iw];
        }
  return out;
}

// ND (B, M, K) -> FRACTAL_NZ (B, C1, No, Ni, C0): x[b,m,k] at [b, k/C0, m/Ni, m%Ni, k%C0].
Floats to_fractal_nz(const Floats& x, int64_t b, int64_t m, int64_t k, int64_t ni, int64_t c0) {
  const int64_t c1 = ceil_div(k, c0), no = ceil_div(m, ni);
  Floats out(static_cast<size_t>(b * c1 * no * ni * c0), kPad);
  for (int64_t ib = 0; ib < b; ++ib)
    for (int64_t im = 0; im < m; ++im)
      for (int64_t ik = 0; ik < k; ++ik)
        out[(((ib * c1 + ik / c0) * no + im / ni) * ni + im % ni) * c0 + ik % c0] =
            x[(ib * m + im) * k + ik];
  return out;
}

// NCDHW -> NDC1HWC0: x[n,c,d,h,w] at [n, d, c/C0, h, w, c%C0].
Floats to_ndc1hwc0(const Floats& x, const Shape& ncdhw, int64_t c0) {
  const int64_t n = ncdhw[0], c = ncdhw[1], d = ncdhw[2], h = ncdhw[3], w = ncdhw[4];
  const int64_t c1 = ceil_div(c, c0);
  Floats out(static_cast<size_t>(n * d * c1 * h * w * c0), kPad);
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ic = 0; ic < c; ++ic)
      for (int64_t id = 0; id < d; ++id)
        for (int64_t ih = 0; ih < h; ++ih)
          for (int64_t iw = 0; iw < w; ++iw)
            out[((((in * d + id) * c1 + ic / c0) * h + ih) * w + iw) * c0 + ic % c0] =
                x[(((in * c + ic) * d + id) * h + ih) * w + iw];
  return out;
}

// NCHW -> FRACTAL_Z_C04 following GE format_transfer_nchw_fz_c04.cc step by step: pad N to a
// multiple of the cube and C to 4, transpose to (N', H, W, 4), view as (N', 4HW), pad the row to
// K1*cube, view as (N1, cube, K1, cube) and transpose (2, 0, 1, 3).
Floats to_fractal_z_c04(const Floats& x, int64_t n, int64_t c, int64_t h, int64_t w, int64_t cube,
                        Shape& shape) {
  const int64_t n_pad = ceil_div(n, cube) * cube;
  const int64_t z = 4 * h * w, k1 = ceil_div(z, cube), n1 = n_pad / cube;
  Floats rows(static_cast<size_t>(n_pad * k1 * cube), kPad);  // (N', K1*cube)
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t iw = 0; iw < w; ++iw)
        for (int64_t ic = 0; ic < c; ++ic)
          rows[in * k1 * cube + (ih * w + iw) * 4 + ic] = x[((in * c + ic) * h + ih) * w + iw];
  shape = {k1, n1, cube, cube};
  Floats out(rows.size());
  for (int64_t a = 0; a < n1; ++a)
    for (int64_t b = 0; b < cube; ++b)
      for (int64_t kk = 0; kk < k1; ++kk)
        for (int64_t d = 0; d < cube; ++d)
          out[((kk * n1 + a) * cube + b) * cube + d] = rows[((a * cube + b) * k1 + kk) * cube + d];
  return out;
}

// DHWCN -> FRACTAL_Z_3D (D*C1*H*W, N1, 16, C0), GE format_transfer_dhwcn_fracz3D.cc.
Floats to_fractal_z_3d(const Floats& x, const Shape& dhwcn, int64_t c0, Shape& shape) {
  const int64_t d = dhwcn[0], h = dhwcn[1], w = dhwcn[2], c = dhwcn[3], n = dhwcn[4];
  const int64_t c1 = ceil_div(c, c0), n1n0 = ceil_div(n, 16) * 16;
  shape = {d * c1 * h * w, n1n0 / 16, 16, c0};
  Floats out(static_cast<size_t>(prod(shape)));
  size_t dst = 0;
  for (int64_t id = 0; id < d; ++id)
    for (int64_t ic1 = 0; ic1 < c1; ++ic1)
      for (int64_t ih = 0; ih < h; ++ih)
        for (int64_t iw = 0; iw < w; ++iw)
          for (int64_t in = 0; in < n1n0; ++in)
            for (int64_t ic0 = 0; ic0 < c0; ++ic0, ++dst) {
              const int64_t ic = ic1 * c0 + ic0;
              out[dst] =
                  (ic >= c || in >= n) ? kPad : x[(((id * h + ih) * w + iw) * c + ic) * n + in];
            }
  return out;
}

// HWCN -> C1HWNCoC0 (C1, H, W, N, C0, C0): channel c on the diagonal co == c0 == c % C0.
Floats to_c1hwncoc0(const Floats& x, const Shape& hwcn, int64_t c0, Shape& shape) {
  const int64_t h = hwcn[0], w = hwcn[1], c = hwcn[2], n = hwcn[3], c1 = ceil_div(c, c0);
  shape = {c1, h, w, n, c0, c0};
  Floats out(static_cast<size_t>(prod(shape)));
  size_t dst = 0;
  for (int64_t ic1 = 0; ic1 < c1; ++ic1)
    for (int64_t ih = 0; ih < h; ++ih)
      for (int64_t iw = 0; iw < w; ++iw)
        for (int64_t in = 0; in < n; ++in)
          for (int64_t co = 0; co < c0; ++co)
            for (int64_t ic0 = 0; ic0 < c0; ++ic0, ++dst) {
              const int64_t ic = ic1 * c0 + ic0;
              out[dst] = (co != ic0 || ic >= c) ? kPad : x[((ih * w + iw) * c + ic) * n + in];
            }
  return out;
}

// msaccucmp's *_to_FRACTAL_Z loop (docs/algorithms.md §6.3, last bullet) transcribed literally,
// including the unusual first term of the row index; x is NCHW, zeros where nothing is written.
Floats msaccucmp_to_fractal_z(const Floats& x, int64_t n, int64_t c, int64_t h, int64_t w,
                              int64_t groups, Shape& shape) {
  const int64_t n_g = n / groups;
  const int64_t e =
      std::min<int64_t>(std::lcm(std::lcm(c, 16) / c, std::lcm(n_g, 16) / n_g), groups);
  shape = {ceil_div(groups, e) * ceil_div(e * c, 16) * h * w, ceil_div(e * n_g, 16), 16, 16};
  Floats out(static_cast<size_t>(prod(shape)), 0.0f);
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t in = 0; in < n_g; ++in)
      for (int64_t ic = 0; ic < c; ++ic)
        for (int64_t ih = 0; ih < h; ++ih)
          for (int64_t iw = 0; iw < w; ++iw) {
            const int64_t dc = (g % e) * c + ic, dn = (g % e) * n_g + in;
            const int64_t row = (g / e) * (dc / 16) * h * w + (dc / 16) * h * w + ih * w + iw;
            out[((row * shape[1] + dn / 16) * 16 + dn % 16) * 16 + dc % 16] =
                x[(((g * n_g + in) * c + ic) * h + ih) * w + iw];
          }
  return out;
}

Floats restore(const LayoutPlan& plan, const Floats& source) {
  EXPECT_TRUE(plan.ok) << plan.note;
  EXPECT_EQ(plan.map.count, prod(plan.result_shape));
  indices(plan.map);
  return materialize(plan.map, source.data());
}

// ---- Cross-check vectors of docs/algorithms.md §6.3 (A = 0, 1, 2, ...) ----

TEST(LayoutCrossCheck, Nc1hwc0ToNchwAndNhwc) {
  LayoutPlan nchw = plan_npu_restore(tensor(Format::kNC1HWC0, {1, 2, 1, 2, 4}, {1, 5, 1, 2}));
  EXPECT_EQ(nchw.result_shape, (Shape{1, 5, 1, 2}));
  EXPECT_EQ(indices(nchw.map), (Ints{0, 4, 1, 5, 2, 6, 3, 7, 8, 12}));
  LayoutPlan nhwc =
      plan_conversion(Format::kNC1HWC0, {1, 2, 1, 2, 4}, Format::kNHWC, {1, 1, 2, 5}, 0);
  ASSERT_TRUE(nhwc.ok) << nhwc.note;
  EXPECT_EQ(nhwc.result_shape, (Shape{1, 1, 2, 5}));
  EXPECT_EQ(indices(nhwc.map), (Ints{0, 1, 2, 3, 8, 4, 5, 6, 7, 12}));
}

TEST(LayoutCrossCheck, FractalZToNchw) {
  LayoutPlan plan =
      plan_conversion(Format::kFractalZ, {4, 2, 2, 4}, Format::kNCHW, {3, 5, 1, 2}, 0);
  ASSERT_TRUE(plan.ok) << plan.note;
  EXPECT_EQ(plan.result_shape, (Shape{3, 5, 1, 2}));
  EXPECT_EQ(indices(plan.map), (Ints{0,  16, 1,  17, 2,  18, 3,  19, 32, 48, 4,  20, 5,  21, 6,
                                     22, 7,  23, 36, 52, 8,  24, 9,  25, 10, 26, 11, 27, 40, 56}));
}

TEST(LayoutCrossCheck, FractalNzToNd) {
  LayoutPlan plan = plan_conversion(Format::kFractalNZ, {2, 2, 2, 4}, Format::kND, {3, 5}, 0);
  ASSERT_TRUE(plan.ok) << plan.note;
  EXPECT_EQ(plan.result_shape, (Shape{3, 5}));
  EXPECT_EQ(indices(plan.map), (Ints{0, 1, 2, 3, 16, 4, 5, 6, 7, 20, 8, 9, 10, 11, 24}));
}

TEST(LayoutCrossCheck, Ndc1hwc0ToNcdhw) {
  LayoutPlan plan =
      plan_conversion(Format::kNDC1HWC0, {1, 2, 2, 1, 1, 4}, Format::kNCDHW, {1, 6, 2, 1, 1}, 0);
  ASSERT_TRUE(plan.ok) << plan.note;
  EXPECT_EQ(plan.result_shape, (Shape{1, 6, 2, 1, 1}));
  EXPECT_EQ(indices(plan.map), (Ints{0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13}));
}

// ---- Arrays from the real msaccucmp ----
// Obtained by running Ascend/msprobe @ 8ff00da3 python/msprobe/msaccucmp (numpy 1.24) on binary
// dumps whose float32 payload is 0, 1, 2, ... (or 1, 2, 3, ... where noted): "restore" is
// ConvertSingleTensorFormat()(tensor) on the parsed dump (the NPU-vs-NPU path), "convert" is
// `msaccucmp.py convert -d <dump> -f <FMT> -o 0 [-s ...]` with the saved .npy flattened.

TEST(LayoutMsaccucmpRun, NpuRestoreConversions) {
  struct Case {
    Format format;
    Shape shape, original, expected_shape;
    Ints expected;
  };
  const Case cases[] = {
      {Format::kFractalZ, {4, 2, 2, 4}, {3, 5, 1, 2}, {3, 5, 1, 2}, {0,  16, 1,  17, 2,  18, 3, 19,
                                                                     32, 48, 4,  20, 5,  21, 6, 22,
                                                                     7,  23, 36, 52, 8,  24, 9, 25,
                                                                     10, 26, 11, 27, 40, 56}},
      // NHWC with a 4-D original shape goes NHWC -> NCHW and is then cropped against the NHWC dims.
      {Format::kNHWC,
       {1, 2, 3, 4},
       {1, 2, 3, 4},
       {1, 2, 2, 3},
       {0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21}},
      // The crop keeps min(A_d, T_d) on every axis once the first larger axis is found.
      {Format::kNC1HWC0,
       {1, 2, 2, 2, 4},
       {1, 5, 4, 1},
       {1, 5, 2, 1},
       {0, 8, 1, 9, 2, 10, 3, 11, 16, 24}},
      {Format::kHWCN,
       {1, 2, 3, 4},
       {3, 2, 1, 2},
       {3, 2, 1, 2},
       {0, 12, 4, 16, 1, 13, 5, 17, 2, 14, 6, 18}},
      {Format::kFractalNZ,
       {2, 2, 2, 4},
       {1, 3, 5},
       {1, 3, 5},
       {0, 1, 2, 3, 16, 4, 5, 6, 7, 20, 8, 9, 10, 11, 24}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(format_name(c.format));
    LayoutPlan plan = plan_npu_restore(tensor(c.format, c.shape, c.original));
    EXPECT_TRUE(plan.ok);
    EXPECT_EQ(plan.note, "");
    EXPECT_EQ(plan.result_shape, c.expected_shape);
    EXPECT_EQ(indices(plan.map), c.expected);
  }
}

TEST(LayoutMsaccucmpRun, NpuRestoreFallsBackToRawData) {
  struct Case {
    TensorInfo tensor;
    std::string note;  // the warning or error line msaccucmp logs
  };
  const LayoutOptions msaccucmp_only{false};
  const Case cases[] = {
      {tensor(Format::kFractalZ, {4, 2, 2, 4}, {3, 5, 1, 2}, 2),
       "Failed to execute 'convert' in 'convert_FRACTAL_Z_to_NCHW'. convert() takes 3 positional "
       "arguments "
       "but 4 were given"},
      {tensor(Format::kNC1HWC0_C04, {1, 1, 1, 2, 4}, {1, 3, 1, 2}),
       "Not supported from NC1HWC0_C04 to NCHW."},
      {tensor(Format::kND, {2, 4}, {1, 1, 2, 3}), "Not supported from ND to NCHW."},
      {tensor(Format::kFractalNZ, {2, 2, 2, 4}, {2, 3, 5}),
       "Failed to execute 'convert' in 'convert_FRACTAL_NZ_to_ND'. cannot reshape array of size 32 "
       "into shape "
       "(2,2,2,2,4)"},
      {tensor(Format::kNC1HWC0, {2, 2, 2, 4}, {1, 2, 3, 4}),
       "Failed to execute 'convert' in 'convert_NC1HWC0_to_NCHW'. 12"},
      {tensor(Format::kFractalZ3D, {2, 1, 16, 16}, {3, 5, 1, 2}),
       "Not supported from FRACTAL_Z_3D to NCHW."},
      // Own format kept: a 1-D or 5-D original shape converts nothing and crops nothing.
      {tensor(Format::kFractalNZ, {2, 2, 2, 4}, {5}), ""},
      {tensor(Format::kNDC1HWC0, {1, 2, 2, 1, 1, 4}, {1, 6, 2, 1, 1}), ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.note);
    LayoutPlan plan = plan_npu_restore(c.tensor, -1, msaccucmp_only);
    EXPECT_TRUE(plan.ok);
    EXPECT_EQ(plan.note, c.note);
    EXPECT_EQ(plan.result_shape, c.tensor.shape);
    EXPECT_TRUE(plan.map.identity);
    EXPECT_EQ(plan.map.count, prod(c.tensor.shape));
  }
}

TEST(LayoutMsaccucmpRun, ConvertCommand) {
  struct Case {
    TensorInfo tensor;
    Format dst;
    Shape s;  // -s
    Shape expected_shape;
    Ints expected;
  };
  const Case cases[] = {
      {tensor(Format::kFractalZ, {4, 2, 2, 4}, {}),
       Format::kHWCN,
       {1, 2, 5, 3},
       {1, 2, 5, 3},
       {0,  4,  8,  1,  5,  9,  2,  6,  10, 3,  7,  11, 32, 36, 40,
        16, 20, 24, 17, 21, 25, 18, 22, 26, 19, 23, 27, 48, 52, 56}},
      {tensor(Format::kFractalNZ, {2, 2, 2, 2, 4}, {}),
       Format::kND,
       {2, 3, 5},
       {2, 3, 5},
       {0,  1,  2,  3,  16, 4,  5,  6,  7,  20, 8,  9,  10, 11, 24,
        32, 33, 34, 35, 48, 36, 37, 38, 39, 52, 40, 41, 42, 43, 56}},
      {tensor(Format::kNDC1HWC0, {1, 2, 2, 1, 1, 4}, {1, 6, 2, 1, 1}),
       Format::kND,
       {},
       {1, 6, 2, 1, 1},
       {0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13}},
  };
  for (const Case& c : cases) {
    LayoutPlan plan = plan_convert_command(c.tensor, c.dst, c.s);
    ASSERT_TRUE(plan.ok) << plan.note;
    EXPECT_EQ(plan.result_shape, c.expected_shape);
    EXPECT_EQ(indices(plan.map), c.expected);
  }
  // FRACTAL_NZ (2, 3, 16, 16) -s 33,17: shape (33, 17); its first 34 elements.
  LayoutPlan nz =
      plan_convert_command(tensor(Format::kFractalNZ, {2, 3, 16, 16}, {}), Format::kNCHW, {33, 17});
  ASSERT_TRUE(nz.ok) << nz.note;
  EXPECT_EQ(nz.result_shape, (Shape{33, 17}));
  Ints first = indices(nz.map);
  first.resize(34);
  Ints expected(34);
  std::iota(expected.begin(), expected.begin() + 16, 0);
  expected[16] = 768;
  std::iota(expected.begin() + 17, expected.begin() + 33, 16);
  expected[33] = 784;
  EXPECT_EQ(first, expected);
}

TEST(LayoutMsaccucmpRun, ConvertCommandCropFailureKeepsConversion) {
  // FRACTAL_Z (4,2,2,4) -f NCHW -s 3,9,1,2: C = 9 > C1*C0 = 8 makes the built-in crop keep one
  // channel (slice end 9 - 8 = 1), and the later crop fails: msaccucmp saves (3, 1, 1, 2).
  LayoutPlan plan = plan_convert_command(tensor(Format::kFractalZ, {4, 2, 2, 4}, {}), Format::kNCHW,
                                         {3, 9, 1, 2});
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.result_shape, (Shape{3, 1, 1, 2}));
  EXPECT_EQ(indices(plan.map), (Ints{0, 16, 4, 20, 8, 24}));
  EXPECT_EQ(plan.result_format, Format::kFractalZ);
  EXPECT_EQ(plan.note.rfind("Failed to slice data from (3, 1, 1, 2) to (3, 9, 1, 2).", 0), 0u)
      << plan.note;
}

// Nonzero (index, value) pairs of a FRACTAL_Z written by msaccucmp from values 1, 2, 3, ...
std::vector<std::pair<int64_t, float>> nonzero(const Floats& v) {
  std::vector<std::pair<int64_t, float>> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] != 0.0f) out.emplace_back(static_cast<int64_t>(i), v[i]);
  }
  return out;
}

TEST(LayoutMsaccucmpRun, ToFractalZWithGroups) {
  // convert -f FRACTAL_Z of NCHW (4,3,1,1) with sub_format 2, values 1..12.
  LayoutPlan g2 =
      plan_convert_command(tensor(Format::kNCHW, {4, 3, 1, 1}, {}, 2), Format::kFractalZ, {});
  EXPECT_EQ(g2.result_shape, (Shape{1, 1, 16, 16}));
  EXPECT_TRUE(g2.map.zero_fill);
  EXPECT_EQ(nonzero(restore(g2, iota_values(12))),
            (std::vector<std::pair<int64_t, float>>{{0, 1.f},
                                                    {1, 2.f},
                                                    {2, 3.f},
                                                    {16, 4.f},
                                                    {17, 5.f},
                                                    {18, 6.f},
                                                    {35, 7.f},
                                                    {36, 8.f},
                                                    {37, 9.f},
                                                    {51, 10.f},
                                                    {52, 11.f},
                                                    {53, 12.f}}));
  // HWCN (1,2,3,2), no group, values 1..12.
  LayoutPlan hwcn =
      plan_convert_command(tensor(Format::kHWCN, {1, 2, 3, 2}, {}), Format::kFractalZ, {});
  EXPECT_EQ(hwcn.result_shape, (Shape{2, 1, 16, 16}));
  EXPECT_EQ(nonzero(restore(hwcn, iota_values(12))),
            (std::vector<std::pair<int64_t, float>>{{0, 1.f},
                                                    {1, 3.f},
                                                    {2, 5.f},
                                                    {16, 2.f},
                                                    {17, 4.f},
                                                    {18, 6.f},
                                                    {256, 7.f},
                                                    {257, 9.f},
                                                    {258, 11.f},
                                                    {272, 8.f},
                                                    {273, 10.f},
                                                    {274, 12.f}}));
  // NCHW (6,32,1,1) with sub_format 3 (e = 3), values 1..192: twelve runs of 16 consecutive values,
  // (first index, first value).
  LayoutPlan g3 =
      plan_convert_command(tensor(Format::kNCHW, {6, 32, 1, 1}, {}, 3), Format::kFractalZ, {});
  EXPECT_EQ(g3.result_shape, (Shape{6, 1, 16, 16}));
  std::vector<std::pair<int64_t, float>> runs;
  const std::pair<int64_t, float> starts[] = {{0, 1},      {16, 33},    {256, 17},   {272, 49},
                                              {544, 65},   {560, 97},   {800, 81},   {816, 113},
                                              {1088, 129}, {1104, 161}, {1344, 145}, {1360, 177}};
  for (const auto& [index, value] : starts) {
    for (int k = 0; k < 16; ++k) runs.emplace_back(index + k, value + static_cast<float>(k));
  }
  EXPECT_EQ(nonzero(restore(g3, iota_values(192))), runs);
  // NCHW (24,24,1,1) with sub_format 3 (e = 2 < groups, so the literal first term of the row index
  // matters and group 2 overwrites group 0): a digest of msaccucmp's (6,1,16,16) result.
  LayoutPlan g3b =
      plan_convert_command(tensor(Format::kNCHW, {24, 24, 1, 1}, {}, 3), Format::kFractalZ, {});
  EXPECT_EQ(g3b.result_shape, (Shape{6, 1, 16, 16}));
  const auto pairs = nonzero(restore(g3b, iota_values(576)));
  int64_t sum_v = 0, sum_iv = 0, sum_iv2 = 0;
  int64_t per_row[6] = {};
  for (const auto& [i, v] : pairs) {
    const auto value = static_cast<int64_t>(v);
    sum_v += value;
    sum_iv += i * value;
    sum_iv2 += (i % 997) * value * value;
    ++per_row[i / 256];
  }
  EXPECT_EQ(pairs.size(), 448u);
  EXPECT_EQ(sum_v, 154336);
  EXPECT_EQ(sum_iv, 59204416);
  EXPECT_EQ(sum_iv2, 21957430496);
  EXPECT_EQ((Ints(per_row, per_row + 6)), (Ints{128, 128, 192, 0, 0, 0}));
}

TEST(LayoutMsaccucmpRun, FractalNzShapeCheckMessages) {
  struct Case {
    Shape dump, target;
    const char* message;
  };
  const Case cases[] = {
      {{2, 2, 2, 4},
       {5, 8},
       "The target shape (5, 8) is invalid. The recommended shape is (4, 8)."},
      {{2, 2, 2, 2, 4},
       {3, 4, 8},
       "The target shape (3, 4, 8) is invalid, the recommended shape is (2, 4, 8)."},
      {{2, 2, 2, 4}, {}, "The format before transfer is FRACTAL_NZ. Please enter a valid shape."},
      {{2, 3, 16, 16},
       {32, 17},
       "The target shape (32, 17) is invalid. The recommended shape is (48, 32)."},
  };
  for (const Case& c : cases) {
    LayoutPlan convert =
        plan_convert_command(tensor(Format::kFractalNZ, c.dump, {}), Format::kND, c.target);
    EXPECT_FALSE(convert.ok);
    EXPECT_EQ(convert.note, c.message);
    // Compare mode checks the same way (to NCHW: to ND, a rank > 2 length mismatch is only
    // reshaped).
    LayoutPlan compare =
        plan_shape_conversion(Format::kFractalNZ, c.dump, Format::kNCHW, c.target, 0);
    EXPECT_FALSE(compare.ok);
    EXPECT_EQ(compare.note, c.message);
  }
}

// ---- FRACTAL_NZ shape check (docs/algorithms.md §6.4) boundaries ----

TEST(LayoutNzShapeCheck, Boundaries) {
  const Shape dump{2, 3, 16, 16};  // recommended (48, 32)
  for (const Shape& ok : {Shape{48, 32}, Shape{33, 17}, Shape{48, 17}, Shape{33, 32}}) {
    EXPECT_TRUE(plan_shape_conversion(Format::kFractalNZ, dump, Format::kND, ok, 0).ok)
        << shape_to_string(ok);
  }
  for (const Shape& bad :
       {Shape{32, 17}, Shape{33, 16}, Shape{49, 32}, Shape{48, 33}, Shape{1, 48, 32}}) {
    EXPECT_FALSE(plan_shape_conversion(Format::kFractalNZ, dump, Format::kNCHW, bad, 0).ok)
        << shape_to_string(bad);
  }
  // A 1-D target passes the column test and then indexes target[-2]: Python's IndexError.
  EXPECT_EQ(plan_shape_conversion(Format::kFractalNZ, {1, 1, 16, 16}, Format::kNCHW, {16}, 0).note,
            "list index out of range");
  // FRACTAL_NZ -> ND with rank > 2 and a length that does not fit: reshape only, with a warning.
  LayoutPlan reshape =
      plan_shape_conversion(Format::kFractalNZ, {2, 2, 2, 4}, Format::kND, {3, 3, 5}, 0);
  EXPECT_TRUE(reshape.ok);
  EXPECT_TRUE(reshape.map.identity);
  EXPECT_EQ(reshape.note,
            "Cannot convert FRACTAL_NZ to ND, the reason is the length of array is not equal to "
            "the length of "
            "dest shape.");
}

// ---- Padding crop (docs/algorithms.md §6.2) ----

struct CropResult {
  bool ok;
  Shape shape;
  Ints index;
  std::string error;
};

CropResult crop(const Shape& a, const Shape& t) {
  LayoutPlan plan = identity_plan(a, Format::kND);
  CropResult r;
  r.ok = apply_padding_crop(plan, t, r.error);
  r.shape = plan.result_shape;
  r.index = indices(plan.map);
  return r;
}

TEST(LayoutCrop, Rank4KeepsLeadingEntriesWithMinOnLaterAxes) {
  const CropResult r = crop({1, 8, 2, 2}, {1, 5, 4, 1});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.shape, (Shape{1, 5, 2, 1}));
  EXPECT_EQ(r.index, (Ints{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}));
}

TEST(LayoutCrop, LowRanksArePaddedToFour) {
  const CropResult r2 = crop({3, 6}, {3, 5});
  ASSERT_TRUE(r2.ok);
  EXPECT_EQ(r2.shape, (Shape{3, 5, 1, 1}));
  EXPECT_EQ(r2.index, (Ints{0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16}));
  const CropResult r3 = crop({2, 1, 3}, {2, 1, 2});
  ASSERT_TRUE(r3.ok);
  EXPECT_EQ(r3.shape, (Shape{2, 1, 2, 1}));
  EXPECT_EQ(r3.index, (Ints{0, 1, 3, 4}));
}

TEST(LayoutCrop, Rank5) {
  const CropResult r = crop({2, 1, 1, 2, 3}, {1, 1, 1, 2, 2});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.shape, (Shape{1, 1, 1, 2, 2}));
  EXPECT_EQ(r.index, (Ints{0, 1, 3, 4}));
}

TEST(LayoutCrop, Rank6AndAboveNeverCropped) {
  const CropResult r = crop({1, 1, 1, 1, 2, 4}, {1, 1, 1, 1, 2, 3});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.shape, (Shape{1, 1, 1, 1, 2, 4}));
  EXPECT_EQ(r.index.size(), 8u);
  // ...but the smaller-axis check still runs.
  const CropResult bad = crop({1, 1, 1, 1, 2, 4}, {1, 1, 1, 1, 3, 3});
  EXPECT_FALSE(bad.ok);
}

TEST(LayoutCrop, EqualSizesWithOnesAreNotCropped) {
  const CropResult r = crop({1, 8}, {2, 4});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.shape, (Shape{1, 8}));
  // Equal sizes without ones go through the scan: 2 < 4 first.
  const CropResult bad = crop({2, 4}, {4, 2});
  EXPECT_FALSE(bad.ok);
}

TEST(LayoutCrop, FirstSmallerAxisIsAnError) {
  const CropResult r = crop({1, 4, 2, 2}, {1, 5, 1, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "Due to the different shapes on the left and right,the left dump data(1, 4, 2, 2) can "
            "not be compared "
            "to the right dump data(1, 5, 1, 1). Please check the batch of the dump data or the "
            "shape may be "
            "changed due to optimization.");
  EXPECT_EQ(r.shape, (Shape{1, 4, 2, 2}));  // plan unchanged
}

TEST(LayoutCrop, LowerRankResultOnlyComparesNonUnitDims) {
  const CropResult ok = crop({3, 5}, {1, 1, 3, 5});
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.shape, (Shape{3, 5}));
  const CropResult bad = crop({3, 5}, {1, 3, 4, 5});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("data(3, 5) can not be compared to the right dump data(3, 4, 5)"),
            std::string::npos);
}

TEST(LayoutCrop, OnlyLeadingAxisCroppedStaysIdentity) {
  LayoutPlan plan = plan_npu_restore(tensor(Format::kNC1HWC0, {2, 1, 1, 1, 4}, {1, 4, 1, 1}));
  EXPECT_EQ(plan.result_shape, (Shape{1, 4, 1, 1}));
  EXPECT_TRUE(plan.map.identity);
  EXPECT_EQ(plan.map.count, 4);
}

// ---- Dispatch rules and messages ----

TEST(LayoutDispatch, GenericRules) {
  // ND source, non-4-D NCHW and src == dst are reshapes.
  for (const auto& [src, shape, dst] :
       {std::tuple{Format::kND, Shape{2, 3, 4}, Format::kNCHW},
        std::tuple{Format::kNCHW, Shape{6, 4}, Format::kNHWC},
        std::tuple{Format::kNC1HWC0, Shape{1, 1, 2, 2, 16}, Format::kNC1HWC0}}) {
    LayoutPlan plan = plan_shape_conversion(src, shape, dst, {1, 2, 3, 4}, 0);
    EXPECT_TRUE(plan.ok);
    EXPECT_TRUE(plan.map.identity);
    EXPECT_EQ(plan.result_shape, shape);
  }
  // The fusion path skips conversions to ND except from FRACTAL_NZ and NDC1HWC0; the flat data is
  // then cropped against the golden's flat data (msaccucmp run: NC1HWC0 [1,1,2,2,16] vs a (4,16)
  // ND golden compares 64 elements), and a longer tensor is cut to the golden's length.
  LayoutPlan skipped = plan_conversion(Format::kNC1HWC0, {1, 1, 2, 2, 4}, Format::kND, {2, 8}, 0);
  EXPECT_TRUE(skipped.ok) << skipped.note;
  EXPECT_EQ(skipped.result_shape, (Shape{16}));
  EXPECT_TRUE(skipped.map.identity);
  LayoutPlan longer = plan_conversion(Format::kND, {4, 4}, Format::kND, {3, 5}, 0);
  EXPECT_TRUE(longer.ok) << longer.note;
  EXPECT_EQ(longer.result_shape, (Shape{15, 1, 1, 1}));
  EXPECT_EQ(longer.map.count, 15);
}

TEST(LayoutDispatch, Messages) {
  EXPECT_EQ(
      plan_format_convert(Format::kFractalZ3D, {2, 1, 16, 16}, Format::kNCHW, {3, 5, 1, 2}, 0).note,
      "Not supported from FRACTAL_Z_3D to NCHW.");
  EXPECT_EQ(plan_format_convert(Format::kFractalZ3D, {2, 1, 16, 16}, Format::kNCDHW,
                                {3, 5, 1, 1, 2}, 0, LayoutOptions{false})
                .note,
            "Not supported from FRACTAL_Z_3D to NCDHW.");
  EXPECT_EQ(plan_format_convert(Format::kNC, {2, 3}, Format::kND, {2, 3}, 0).note,
            "The format(35) does not support.");
  EXPECT_EQ(plan_format_convert(Format::kNC1HWC0, {2, 2, 2, 4}, Format::kNHWC, {}, 0).note,
            "Failed to execute 'convert' in 'convert_NC1HWC0_to_NHWC'. list index out of range");
  EXPECT_EQ(
      plan_format_convert(Format::kFractalZ, {4, 2, 2, 4}, Format::kNCHW, {3, 5, 0, 2}, 0).note,
      "Failed to execute 'convert' in 'convert_FRACTAL_Z_to_NCHW'. integer division or modulo by "
      "zero");
  EXPECT_EQ(plan_format_convert(Format::kNDC1HWC0, {1, 2, 2, 1, 4}, Format::kND, {}, 0).note,
            "Failed to execute 'convert' in 'convert_NDC1HWC0_to_ND'. not enough values to unpack "
            "(expected 6, "
            "got 5)");
  EXPECT_EQ(plan_format_convert(Format::kNCHW, {1, 2, 3, 4, 2}, Format::kNHWC, {}, 0).note,
            "Failed to execute 'convert' in 'convert_NCHW_to_NHWC'. cannot reshape array of size "
            "48 into shape "
            "(1,2,3,4)");
  EXPECT_EQ(plan_format_convert(Format::kFractalNZ, {2, 2, 2, 4}, Format::kND, {}, 0).note,
            "Failed to execute 'convert' in 'convert_FRACTAL_NZ_to_ND'. reduce() of empty iterable "
            "with no initial "
            "value");
  const LayoutPlan failed =
      plan_format_convert(Format::kFractalZ3D, {2, 1, 16, 16}, Format::kNCHW, {}, 0);
  EXPECT_FALSE(failed.ok);
  EXPECT_TRUE(failed.map.identity);
  EXPECT_EQ(failed.result_shape, (Shape{2, 1, 16, 16}));
}

TEST(LayoutDispatch, ExtensionsAreMarkedAndSwitchable) {
  const TensorInfo c04 = tensor(Format::kNC1HWC0_C04, {1, 1, 1, 2, 4}, {1, 3, 1, 2});
  LayoutPlan on = plan_npu_restore(c04);
  EXPECT_TRUE(on.extension);
  EXPECT_EQ(on.result_shape, (Shape{1, 3, 1, 2}));
  EXPECT_EQ(indices(on.map), (Ints{0, 4, 1, 5, 2, 6}));
  LayoutPlan off = plan_npu_restore(c04, -1, LayoutOptions{false});
  EXPECT_FALSE(off.extension);
  EXPECT_TRUE(off.map.identity);
  // A 5-D original shape sends FRACTAL_Z_3D to NCDHW, or to DHWCN when only that layout fits.
  LayoutPlan ncdhw = plan_npu_restore(tensor(Format::kFractalZ3D, {2, 1, 16, 16}, {3, 5, 2, 1, 1}));
  EXPECT_EQ(ncdhw.result_format, Format::kNCDHW);
  LayoutPlan dhwcn = plan_npu_restore(tensor(Format::kFractalZ3D, {2, 1, 16, 16}, {2, 1, 1, 5, 3}));
  EXPECT_EQ(dhwcn.result_format, Format::kDHWCN) << dhwcn.note;
  // Short payload: nothing reshapes.
  LayoutPlan short_payload =
      plan_npu_restore(tensor(Format::kNC1HWC0, {1, 2, 1, 2, 4}, {1, 5, 1, 2}), 10);
  EXPECT_TRUE(short_payload.map.identity);
  EXPECT_EQ(short_payload.map.count, 10);
  EXPECT_EQ(short_payload.note, "cannot reshape array of size 10 into shape (1,2,1,2,4)");
}

// ---- Round trips: forward transform here, inverse through the map, random shapes ----

class LayoutRoundTrip : public ::testing::Test {
 protected:
  std::mt19937 rng_{20240611};
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
};

TEST_F(LayoutRoundTrip, Nc1hwc0AndC04) {
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t n = pick(1, 3), c = pick(1, 37), h = pick(1, 4), w = pick(1, 4);
    const int64_t c0 = iter % 2 ? 16 : pick(2, 8);
    const Floats x = iota_values(n * c * h * w);
    const Floats dev = to_nc1hwc0(x, n, c, h, w, c0);
    const Shape dump{n, ceil_div(c, c0), h, w, c0};
    const Shape nchw{n, c, h, w};
    SCOPED_TRACE(shape_to_string(dump));
    for (const char* order : {"NCHW", "NHWC", "HWCN"}) {
      const Format dst = order[1] == 'C'   ? Format::kNCHW
                         : order[0] == 'N' ? Format::kNHWC
                                           : Format::kHWCN;
      const Floats want = permute(x, nchw, "NCHW", order);
      Shape target;
      for (const char* p = order; *p; ++p) target.push_back(nchw[std::string("NCHW").find(*p)]);
      EXPECT_EQ(restore(plan_conversion(Format::kNC1HWC0, dump, dst, target, 0), dev), want)
          << order;
      LayoutPlan ext = plan_conversion(Format::kNC1HWC0_C04, dump, dst, target, 0);
      EXPECT_TRUE(ext.extension);
      EXPECT_EQ(restore(ext, dev), want) << order;
    }
    EXPECT_EQ(restore(plan_npu_restore(tensor(Format::kNC1HWC0, dump, nchw)), dev), x);
  }
}

TEST_F(LayoutRoundTrip, FractalZ) {
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t n = pick(1, 40), c = pick(1, 40), h = pick(1, 3), w = pick(1, 3);
    const int64_t ni = iter % 2 ? 16 : pick(1, 8), c0 = iter % 2 ? 16 : pick(1, 8);
    const Floats x = iota_values(n * c * h * w);
    const Floats dev = to_fractal_z(x, n, c, h, w, ni, c0);
    const Shape dump{ceil_div(c, c0) * h * w, ceil_div(n, ni), ni, c0};
    SCOPED_TRACE(shape_to_string(dump));
    EXPECT_EQ(
        restore(plan_conversion(Format::kFractalZ, dump, Format::kNCHW, {n, c, h, w}, 0), dev), x);
    EXPECT_EQ(
        restore(plan_conversion(Format::kFractalZ, dump, Format::kHWCN, {h, w, c, n}, 0), dev),
        permute(x, {n, c, h, w}, "NCHW", "HWCN"));
  }
}

TEST_F(LayoutRoundTrip, FractalNz) {
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t b = iter % 3 ? pick(1, 3) : 1, m = pick(1, 40), k = pick(1, 40);
    const int64_t ni = iter % 2 ? 16 : pick(1, 16), c0 = iter % 2 ? 16 : pick(1, 16);
    const Floats x = iota_values(b * m * k);
    const Floats dev = to_fractal_nz(x, b, m, k, ni, c0);
    Shape dump{ceil_div(k, c0), ceil_div(m, ni), ni, c0};
    Shape target{m, k};
    if (iter % 3) {
      dump.insert(dump.begin(), b);
      target.insert(target.begin(), b);
    }
    SCOPED_TRACE(shape_to_string(dump) + " -> " + shape_to_string(target));
    for (Format dst : {Format::kND, Format::kNCHW, Format::kNHWC}) {
      EXPECT_EQ(restore(plan_format_convert(Format::kFractalNZ, dump, dst, target, 0), dev), x);
    }
    if (ni == 16 && c0 == 16) {  // the 6.4 check allows less than one 16-tile of padding
      EXPECT_EQ(restore(plan_conversion(Format::kFractalNZ, dump, Format::kND, target, 0), dev), x);
    }
  }
}

TEST_F(LayoutRoundTrip, Ndc1hwc0) {
  for (int iter = 0; iter < 30; ++iter) {
    const Shape ncdhw{pick(1, 2), pick(1, 37), pick(1, 3), pick(1, 3), pick(1, 3)};
    const int64_t c0 = iter % 2 ? 16 : pick(2, 8);
    const Floats x = iota_values(prod(ncdhw));
    const Floats dev = to_ndc1hwc0(x, ncdhw, c0);
    const Shape dump{ncdhw[0], ncdhw[2], ceil_div(ncdhw[1], c0), ncdhw[3], ncdhw[4], c0};
    SCOPED_TRACE(shape_to_string(dump));
    EXPECT_EQ(restore(plan_conversion(Format::kNDC1HWC0, dump, Format::kNCDHW, ncdhw, 0), dev), x);
    EXPECT_EQ(restore(plan_conversion(Format::kNDC1HWC0, dump, Format::kND, ncdhw, 0), dev), x);
  }
}

TEST_F(LayoutRoundTrip, Permutations) {
  const std::pair<const char*, const char*> pairs[] = {
      {"HWCN", "NCHW"}, {"HWCN", "NHWC"}, {"NCHW", "NHWC"}, {"NHWC", "NCHW"}, {"NHWC", "HWCN"}};
  const auto format_of = [](const std::string& s) {
    Format f = Format::kND;
    parse_format(s, f);
    return f;
  };
  for (int iter = 0; iter < 10; ++iter) {
    const Shape dims{pick(1, 4), pick(1, 4), pick(1, 4), pick(1, 4)};
    const Floats x = iota_values(prod(dims));
    for (const auto& [from, to] : pairs) {
      const Floats want = permute(x, dims, from, to);
      Shape target;
      for (const char* p = to; *p; ++p) target.push_back(dims[std::string(from).find(*p)]);
      LayoutPlan plan = plan_conversion(format_of(from), dims, format_of(to), target, 0);
      EXPECT_EQ(plan.result_shape, target);
      EXPECT_EQ(restore(plan, x), want) << from << "->" << to;
    }
  }
}

TEST_F(LayoutRoundTrip, FractalZC04) {
  for (int iter = 0; iter < 30; ++iter) {
    const int64_t n = pick(1, 40), c = pick(1, 4), h = pick(1, 5), w = pick(1, 5);
    const int64_t cube = iter % 3 ? 16 : 32;
    const Floats x = iota_values(n * c * h * w);
    Shape dump;
    const Floats dev = to_fractal_z_c04(x, n, c, h, w, cube, dump);
    SCOPED_TRACE(shape_to_string(dump));
    LayoutPlan plan = plan_conversion(Format::kFractalZ_C04, dump, Format::kNCHW, {n, c, h, w}, 0);
    EXPECT_TRUE(plan.extension);
    EXPECT_EQ(restore(plan, dev), x);
    EXPECT_EQ(
        restore(plan_conversion(Format::kFractalZ_C04, dump, Format::kHWCN, {h, w, c, n}, 0), dev),
        permute(x, {n, c, h, w}, "NCHW", "HWCN"));
    EXPECT_EQ(restore(plan_npu_restore(tensor(Format::kFractalZ_C04, dump, {n, c, h, w})), dev), x);
  }
}

TEST_F(LayoutRoundTrip, FractalZ3d) {
  for (int iter = 0; iter < 30; ++iter) {
    const Shape dhwcn{pick(1, 3), pick(1, 3), pick(1, 3), pick(1, 37), pick(1, 37)};
    const int64_t c0 = iter % 2 ? 16 : pick(2, 8);
    const Floats x = iota_values(prod(dhwcn));
    Shape dump;
    const Floats dev = to_fractal_z_3d(x, dhwcn, c0, dump);
    SCOPED_TRACE(shape_to_string(dump));
    EXPECT_EQ(restore(plan_conversion(Format::kFractalZ3D, dump, Format::kDHWCN, dhwcn, 0), dev),
              x);
    const Shape ncdhw{dhwcn[4], dhwcn[3], dhwcn[0], dhwcn[1], dhwcn[2]};
    EXPECT_EQ(restore(plan_conversion(Format::kFractalZ3D, dump, Format::kNCDHW, ncdhw, 0), dev),
              permute(x, dhwcn, "DHWCN", "NCDHW"));
  }
}

TEST_F(LayoutRoundTrip, C1hwncoc0) {
  for (int iter = 0; iter < 30; ++iter) {
    const Shape hwcn{pick(1, 3), pick(1, 3), pick(1, 37), pick(1, 5)};
    const int64_t c0 = iter % 2 ? 16 : pick(2, 8);
    const Floats x = iota_values(prod(hwcn));
    Shape dump;
    const Floats dev = to_c1hwncoc0(x, hwcn, c0, dump);
    SCOPED_TRACE(shape_to_string(dump));
    EXPECT_EQ(restore(plan_conversion(Format::kC1HWNCoC0, dump, Format::kHWCN, hwcn, 0), dev), x);
    const Shape nchw{hwcn[3], hwcn[2], hwcn[0], hwcn[1]};
    EXPECT_EQ(restore(plan_conversion(Format::kC1HWNCoC0, dump, Format::kNCHW, nchw, 0), dev),
              permute(x, hwcn, "HWCN", "NCHW"));
    // The NPU path tries NCHW first, then the HWCN reading of the original shape.
    EXPECT_EQ(restore(plan_npu_restore(tensor(Format::kC1HWNCoC0, dump, hwcn)), dev), x);
  }
}

TEST_F(LayoutRoundTrip, ToFractalZMatchesMsaccucmpLoopAndInverts) {
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t groups = iter % 4 == 0 ? 1 : pick(2, 5);
    // Channel and group sizes with large powers of two make e < groups, where groups collide.
    const bool aligned = iter % 2 == 1;
    const int64_t n = groups * (aligned ? 8 * pick(1, 2) : pick(1, 20));
    const int64_t c = aligned ? 8 * pick(1, 5) : pick(1, 40), h = pick(1, 2), w = pick(1, 3);
    const Floats x = iota_values(n * c * h * w);
    Shape fz_shape;
    const Floats want = msaccucmp_to_fractal_z(x, n, c, h, w, groups, fz_shape);
    SCOPED_TRACE("n=" + std::to_string(n) + " c=" + std::to_string(c) +
                 " g=" + std::to_string(groups));
    const int group = static_cast<int>(groups);
    LayoutPlan nchw =
        plan_format_convert(Format::kNCHW, {n, c, h, w}, Format::kFractalZ, {}, group);
    EXPECT_EQ(nchw.result_shape, fz_shape);
    EXPECT_EQ(restore(nchw, x), want);
    LayoutPlan nhwc =
        plan_format_convert(Format::kNHWC, {n, h, w, c}, Format::kFractalZ, {}, group);
    EXPECT_EQ(restore(nhwc, permute(x, {n, c, h, w}, "NCHW", "NHWC")), want);
    LayoutPlan hwcn =
        plan_format_convert(Format::kHWCN, {h, w, c, n}, Format::kFractalZ, {}, group);
    EXPECT_EQ(restore(hwcn, permute(x, {n, c, h, w}, "NCHW", "HWCN")), want);
    if (groups == 1) {
      EXPECT_EQ(
          restore(plan_conversion(Format::kFractalZ, fz_shape, Format::kNCHW, {n, c, h, w}, 0),
                  want),
          x);
    }
  }
}

TEST(LayoutTail, CropComposesWithTails) {
  // A crop on top of a second-stage conversion selects the leading entries of the converted array.
  const Floats x = iota_values(4 * 3 * 2 * 2);
  LayoutPlan plan = plan_format_convert(Format::kNCHW, {4, 3, 2, 2}, Format::kFractalZ, {}, 0);
  ASSERT_EQ(plan.result_shape, (Shape{4, 1, 16, 16}));
  const Floats full = restore(plan, x);
  std::string error;
  ASSERT_TRUE(apply_padding_crop(plan, {2, 1, 16, 3}, error)) << error;
  EXPECT_EQ(plan.result_shape, (Shape{2, 1, 16, 3}));
  Floats want;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t a = 0; a < 16; ++a)
      for (int64_t b = 0; b < 3; ++b) want.push_back(full[(r * 16 + a) * 16 + b]);
  EXPECT_EQ(restore(plan, x), want);
}

TEST(LayoutMap, IdentityIsFlaggedAndCheap) {
  const LayoutPlan plan = identity_plan({2, 3, 4}, Format::kND);
  EXPECT_TRUE(plan.map.identity);
  EXPECT_EQ(plan.map.count, 24);
  EXPECT_EQ(plan.map.source_index(17), 17);
  // A transpose is not the identity, and splits of uncropped axes are resolved into plain axes.
  const LayoutPlan nz =
      plan_format_convert(Format::kFractalNZ, {2, 2, 2, 4}, Format::kND, {4, 8}, 0);
  EXPECT_FALSE(nz.map.identity);
  for (int k = 0; k < nz.map.rank; ++k) EXPECT_EQ(nz.map.split[k], 0);
  EXPECT_LE(nz.map.rank, kLayoutMaxAxes);
}

}  // namespace
}  // namespace dumpcmp
