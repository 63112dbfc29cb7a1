// The per-pair converters: msaccucmp's built-in convert_<SRC>_to_<DST>.py as index maps
// (docs/algorithms.md §6.3), with the same preconditions and failure texts, plus the extension
// pairs.
#include <initializer_list>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "layout/checked_math.hpp"
#include "layout/layout_messages.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {
namespace {

using Axis = LayoutSpec::Axis;
using layout_math::ceil_div;
using layout_math::mul;

struct ConvertIn {
  const Shape& from;
  const Shape& to;
  int64_t size;  // elements in the source buffer
  int group;     // >= 1
};

struct ConvertOut {
  LayoutSpec spec;
  Shape shape;
  std::string error;
};

using ConvertFn = bool (*)(const ConvertIn&, ConvertOut&);

// Python list indexing: negative counts from the end; false is an IndexError.
bool at(const Shape& s, int i, int64_t& out) {
  const int n = static_cast<int>(s.size());
  if (i < -n || i >= n) return false;
  out = s[static_cast<std::size_t>(i < 0 ? i + n : i)];
  return true;
}

bool fail(ConvertOut& out, std::string error) {
  out.error = std::move(error);
  return false;
}

// Length of x[:end] for len(x) == full, where the converters write end = None if full == want else
// want - full: a shorter target keeps `want` entries, a longer one keeps min(want - full, full)
// (the negative-slice caveat of docs/algorithms.md §6.3, reproduced).
int64_t pad_slice_len(int64_t full, int64_t want) {
  if (want == full) return full;
  const int64_t end = want - full;
  if (end < 0) return full + end > 0 ? full + end : 0;
  return end < full ? end : full;
}

Axis plain(int64_t dim, int64_t stride) { return Axis{dim, 0, 0, stride}; }
Axis tiled(int64_t dim, int64_t split, int64_t hi, int64_t lo) { return Axis{dim, split, hi, lo}; }

// Appends the named axes in the order the result layout spells them ("NHWC", "DHWCN"...).
void emit(ConvertOut& out, std::string_view order,
          std::initializer_list<std::pair<char, Axis>> axes) {
  for (char name : order) {
    for (const auto& [axis_name, axis] : axes) {
      if (axis_name != name) continue;
      out.spec.axes.push_back(axis);
      out.shape.push_back(axis.dim);
    }
  }
}

// Dims of `s` named by `order`, e.g. dims_of(to, "HWCN", "NCHW") gives (N, C, H, W) of an HWCN
// shape.
bool dims_of(const Shape& s, std::string_view order, std::string_view want, int64_t* out) {
  for (std::size_t k = 0; k < want.size(); ++k) {
    const std::size_t pos = order.find(want[k]);
    if (!at(s, static_cast<int>(pos), out[k])) return false;
  }
  return true;
}

// NC1HWC0 (N, C1, H, W, C0) -> NCHW/NHWC/HWCN with C' = C1 * C0 channels (no crop here).
bool from_nc1hwc0(const ConvertIn& in, ConvertOut& out, std::string_view order,
                  const std::string& short_rank) {
  if (in.from.size() < 5) return fail(out, short_rank);
  const int64_t n = in.from[0], c1 = in.from[1], h = in.from[2], w = in.from[3], c0 = in.from[4];
  if (n * c1 * h * w * c0 != in.size) {
    return fail(out, msg::cannot_reshape(in.size, msg::numpy_shape({n, c1, h, w, c0})));
  }
  const int64_t s_w = c0, s_h = w * s_w, s_c1 = h * s_h, s_n = c1 * s_c1;
  emit(out, order,
       {{'N', plain(n, s_n)},
        {'C', tiled(c1 * c0, c0, s_c1, 1)},
        {'H', plain(h, s_h)},
        {'W', plain(w, s_w)}});
  return true;
}

// FRACTAL_Z (C1*H*W, No, Ni, C0) -> NCHW/HWCN: H and W come from the target, the crop to (N, C) is
// part of the converter.
bool from_fractal_z(const ConvertIn& in, ConvertOut& out, std::string_view order) {
  int64_t nchw[4], no = 0, ni = 0, rows = 0, c0 = 0;
  if (!dims_of(in.to, order, "NCHW", nchw) || !at(in.from, 1, no) || !at(in.from, 2, ni) ||
      !at(in.from, 0, rows)) {
    return fail(out, msg::index_error());
  }
  const int64_t n = nchw[0], c = nchw[1], h = nchw[2], w = nchw[3];
  // H and W come from the target, the rest from the dump: their products are checked together
  // (found by fuzz_nano_dump: a wrapped product passed the size check).
  const int64_t hw = mul(h, w);
  if (hw == 0) return fail(out, msg::zero_division());
  if (!at(in.from, 3, c0)) return fail(out, msg::index_error());
  const int64_t c1 = hw > 0 ? rows / hw : -1;
  const Shape dims{c1, h, w, no, ni, c0};
  if (!layout_math::dims_fit(dims) || layout_math::product(dims) != in.size) {
    return fail(out, msg::cannot_reshape(in.size, msg::numpy_shape(dims)));
  }
  const int64_t s_ni = c0, s_no = ni * s_ni, s_w = no * s_no, s_h = w * s_w, s_c1 = h * s_h;
  emit(out, order,
       {{'N', tiled(pad_slice_len(no * ni, n), ni, s_no, s_ni)},
        {'C', tiled(pad_slice_len(c1 * c0, c), c0, s_c1, 1)},
        {'H', plain(h, s_h)},
        {'W', plain(w, s_w)}});
  return true;
}

// FRACTAL_NZ (..., C1, No, Ni, C0) -> ND/NCHW/NHWC (one converter for the three): rows = No * Ni,
// columns = C1 * C0, cropped to the target's last two dims.
bool from_fractal_nz(const ConvertIn& in, ConvertOut& out) {
  const std::size_t rank = in.to.size();
  if (rank == 0) return fail(out, msg::empty_reduce());
  int64_t batch = 1, rows = 1, cols = 0;
  if (rank == 1) {
    cols = in.to[0];
  } else if (rank == 2) {
    rows = in.to[0];
    cols = in.to[1];
  } else {
    for (std::size_t k = 0; k + 2 < rank; ++k) batch *= in.to[k];
    rows = in.to[rank - 2];
    cols = in.to[rank - 1];
  }
  int64_t c1 = 0, no = 0, ni = 0, c0 = 0;
  if (!at(in.from, -4, c1) || !at(in.from, -3, no) || !at(in.from, -2, ni) ||
      !at(in.from, -1, c0)) {
    return fail(out, msg::index_error());
  }
  if (mul(batch, c1 * no * ni * c0) != in.size) {
    return fail(out, msg::cannot_reshape(in.size, msg::numpy_shape({batch, c1, no, ni, c0})));
  }
  const int64_t s_no = ni * c0, s_c1 = no * s_no, s_b = c1 * s_c1;
  if (rank > 2) {
    out.spec.axes.push_back(plain(batch, s_b));
    out.shape.push_back(batch);
  }
  const Axis m = tiled(pad_slice_len(no * ni, rows), ni, s_no, c0);
  const Axis k = tiled(pad_slice_len(c1 * c0, cols), c0, s_c1, 1);
  out.spec.axes.push_back(m);
  out.spec.axes.push_back(k);
  out.shape.push_back(m.dim);
  out.shape.push_back(k.dim);
  return true;
}

// NDC1HWC0 (N, D, C1, H, W, C0) -> (N, C1*C0, D, H, W), channels cropped when `crop_c`.
void ndc1hwc0_axes(const ConvertIn& in, ConvertOut& out, bool crop_c) {
  const int64_t n = in.from[0], d = in.from[1], c1 = in.from[2], h = in.from[3], w = in.from[4];
  const int64_t c0 = in.from[5];
  const int64_t s_w = c0, s_h = w * s_w, s_c1 = h * s_h, s_d = c1 * s_c1, s_n = d * s_d;
  const int64_t c = crop_c ? pad_slice_len(c1 * c0, in.to[1]) : c1 * c0;
  emit(out, "NCDHW",
       {{'N', plain(n, s_n)},
        {'C', tiled(c, c0, s_c1, 1)},
        {'D', plain(d, s_d)},
        {'H', plain(h, s_h)},
        {'W', plain(w, s_w)}});
}

bool ndc1hwc0_to_ncdhw(const ConvertIn& in, ConvertOut& out) {
  if (in.from.size() < 6) return fail(out, msg::index_out_of_bounds_code());
  if (in.to.size() < 2) return fail(out, msg::index_error());
  if (in.from.size() > 6) return fail(out, msg::axes_mismatch());
  ndc1hwc0_axes(in, out, true);
  return true;
}

bool ndc1hwc0_to_nd(const ConvertIn& in, ConvertOut& out) {
  const std::size_t rank = in.from.size();
  if (rank < 6) {
    return fail(out, msg::too_few_values_to_unpack(6, rank));
  }
  if (rank > 6) return fail(out, msg::too_many_values_to_unpack(6));
  ndc1hwc0_axes(in, out, in.to.size() == 5);
  return true;
}

// A pure transpose of a 4-D tensor: from_order names the source axes, to_order the result's.
bool permute4(const ConvertIn& in, ConvertOut& out, std::string_view from_order,
              std::string_view to_order) {
  if (in.from.size() < 4) return fail(out, msg::index_error());
  const Shape dims(in.from.begin(), in.from.begin() + 4);
  if (dims[0] * dims[1] * dims[2] * dims[3] != in.size) {
    return fail(out, msg::cannot_reshape(in.size, msg::numpy_shape(dims)));
  }
  int64_t stride[4];
  stride[3] = 1;
  for (int k = 2; k >= 0; --k) stride[k] = stride[k + 1] * dims[static_cast<std::size_t>(k + 1)];
  for (char name : to_order) {
    const std::size_t pos = from_order.find(name);
    out.spec.axes.push_back(plain(dims[pos], stride[pos]));
    out.shape.push_back(dims[pos]);
  }
  return true;
}

// NCHW/NHWC/HWCN -> FRACTAL_Z with groups, msaccucmp's forward loop (docs/algorithms.md §6.3, last
// bullet): a gather whose padding positions read as zero.
bool to_fractal_z(const ConvertIn& in, ConvertOut& out, std::string_view from_order) {
  if (in.from.size() < 4) return fail(out, msg::index_error());
  const Shape dims(in.from.begin(), in.from.begin() + 4);
  if (dims[0] * dims[1] * dims[2] * dims[3] != in.size) {
    return fail(out, msg::cannot_reshape(in.size, msg::numpy_shape(dims)));
  }
  int64_t nchw[4];
  dims_of(dims, from_order, "NCHW", nchw);
  const int64_t n_total = nchw[0], c = nchw[1], h = nchw[2], w = nchw[3];
  const int64_t groups = in.group;
  const int64_t n_g = n_total / groups;
  if (c == 0 || n_g == 0) return fail(out, msg::zero_division());
  // lcm(x, 16) / x, without forming lcm(x, 16).
  const int64_t e_c = 16 / std::gcd(c, int64_t{16});
  const int64_t e_n = 16 / std::gcd(n_g, int64_t{16});
  const int64_t lcm_e = std::lcm(e_c, e_n);
  const int64_t e = lcm_e < groups ? lcm_e : groups;  // <= 16
  const int64_t ec = mul(e, c), en = mul(e, n_g);
  const int64_t rows = ec < 0 ? -1 : mul(mul(ceil_div(groups, e), ceil_div(ec, 16)), h * w);
  const int64_t n1 = en < 0 ? -1 : ceil_div(en, 16);
  if (rows < 0 || n1 < 0 || mul(rows, mul(n1, 256)) < 0) {
    return fail(out, "the FRACTAL_Z result is too large");
  }
  int64_t stride[4];
  stride[3] = 1;
  for (int k = 2; k >= 0; --k) stride[k] = stride[k + 1] * dims[static_cast<std::size_t>(k + 1)];
  int64_t s_nchw[4];
  for (int k = 0; k < 4; ++k) s_nchw[k] = stride[from_order.find("NCHW"[k])];
  const int64_t fz[4] = {rows, n1, 16, 16};
  int64_t s = 1;
  for (int k = 3; k >= 0; --k) {
    out.spec.axes.insert(out.spec.axes.begin(), plain(fz[k], s));
    s *= fz[k];
  }
  out.shape.assign(fz, fz + 4);
  out.spec.tail = LayoutTail::kToFractalZ;
  out.spec.tail_param = {rows, n1,     c,         h,         w,         n_g,
                         e,    groups, s_nchw[0], s_nchw[1], s_nchw[2], s_nchw[3]};
  return true;
}

// ---- Extensions (docs/algorithms.md §6.5; msaccucmp reports "Not supported" for these sources)
// ----

// NC1HWC0_C04 is NC1HWC0 with C0 = 4; C0 is read from the shape anyway.
bool from_nc1hwc0_c04(const ConvertIn& in, ConvertOut& out, std::string_view order) {
  if (in.from.size() != 5) return fail(out, "the dump shape must have 5 dims (N, C1, H, W, C0)");
  return from_nc1hwc0(in, out, order, "");
}

// FRACTAL_Z_C04 (K1, N1, Ni, K0), GE format_transfer_nchw_fz_c04.cc: C padded to 4, (H, W, 4)
// flattened to z, then (N, z) tiled as (z / K0, N / Ni, Ni, K0).
bool from_fractal_z_c04(const ConvertIn& in, ConvertOut& out, std::string_view order) {
  int64_t nchw[4];
  if (in.from.size() != 4) return fail(out, "the dump shape must have 4 dims (K1, N1, Ni, K0)");
  if (in.to.size() != 4 || !dims_of(in.to, order, "NCHW", nchw)) {
    return fail(out, "the target shape must have 4 dims");
  }
  const int64_t k1 = in.from[0], n1 = in.from[1], ni = in.from[2], k0 = in.from[3];
  const int64_t n = nchw[0], c = nchw[1], h = nchw[2], w = nchw[3];
  const int64_t z = mul(mul(4, h), w);
  if (c > 4 || k0 == 0 || k0 % 4 != 0 || n > n1 * ni || z < 0 || z > k1 * k0) {
    return fail(out, "the target shape " + msg::shape(in.to) + " does not fit the dump shape " +
                         msg::shape(in.from));
  }
  const int64_t s_nchw[4] = {c * h * w, h * w, w, 1};
  emit(out, order,
       {{'N', plain(n, s_nchw[0])},
        {'C', plain(c, s_nchw[1])},
        {'H', plain(h, s_nchw[2])},
        {'W', plain(w, s_nchw[3])}});
  out.spec.tail = LayoutTail::kFractalZC04;
  out.spec.tail_param = {n, c, h, w, n1, ni, k0, 0, 0, 0, 0, 0};
  return true;
}

// FRACTAL_Z_3D (D*C1*H*W, N1, Ni, C0), GE format_transfer_dhwcn_fracz3D.cc:
// element [((d*C1 + c/C0)*H + h)*W + w, n/Ni, n%Ni, c%C0] = DHWCN[d, h, w, c, n].
bool from_fractal_z_3d(const ConvertIn& in, ConvertOut& out, std::string_view order) {
  int64_t ncdhw[5];
  if (in.from.size() != 4) {
    return fail(out, "the dump shape must have 4 dims (D*C1*H*W, N1, Ni, C0)");
  }
  if (in.to.size() != 5 || !dims_of(in.to, order, "NCDHW", ncdhw)) {
    return fail(out, "the target shape must have 5 dims");
  }
  const int64_t n = ncdhw[0], c = ncdhw[1], d = ncdhw[2], h = ncdhw[3], w = ncdhw[4];
  const int64_t n1n0 = in.from[1] * in.from[2], c0 = in.from[3];
  const int64_t dhw = d * h * w;
  const int64_t c1 = dhw == 0 ? 0 : in.from[0] / dhw;
  if (dhw == 0 || c1 * dhw != in.from[0] || c > c1 * c0 || n > n1n0) {
    return fail(out, "the target shape " + msg::shape(in.to) + " does not fit the dump shape " +
                         msg::shape(in.from));
  }
  const int64_t s_w = n1n0 * c0, s_h = w * s_w, s_c1 = h * s_h, s_d = c1 * s_c1;
  emit(out, order,
       {{'N', plain(n, c0)},
        {'C', tiled(c, c0, s_c1, 1)},
        {'D', plain(d, s_d)},
        {'H', plain(h, s_h)},
        {'W', plain(w, s_w)}});
  return true;
}

// C1HWNCoC0 (C1, H, W, N, Co, C0) with Co == C0, GE format_transfer_c1hwncoc0_hwcn.cc: channel c
// sits on the diagonal co == c0 == c % C0 of block c / C0.
bool from_c1hwncoc0(const ConvertIn& in, ConvertOut& out, std::string_view order) {
  int64_t nchw[4];
  if (in.from.size() != 6) {
    return fail(out, "the dump shape must have 6 dims (C1, H, W, N, Co, C0)");
  }
  if (in.to.size() != 4 || !dims_of(in.to, order, "NCHW", nchw)) {
    return fail(out, "the target shape must have 4 dims");
  }
  const int64_t c1 = in.from[0], h = in.from[1], w = in.from[2], n = in.from[3];
  const int64_t co = in.from[4], c0 = in.from[5];
  const int64_t c = nchw[1];
  if (co != c0 || nchw[0] != n || nchw[2] != h || nchw[3] != w || c > c1 * c0) {
    return fail(out, "the target shape " + msg::shape(in.to) + " does not fit the dump shape " +
                         msg::shape(in.from));
  }
  const int64_t s_co = c0, s_n = co * s_co, s_w = n * s_n, s_h = w * s_w, s_c1 = h * s_h;
  emit(out, order,
       {{'N', plain(n, s_n)},
        {'C', tiled(c, c0, s_c1, s_co + 1)},
        {'H', plain(h, s_h)},
        {'W', plain(w, s_w)}});
  return true;
}

struct Converter {
  Format src;
  Format dst;
  bool extension;
  bool takes_group;  // msaccucmp's *_to_FRACTAL_Z converters take the 4th argument
  ConvertFn fn;
};

const Converter kConverters[] = {
    {Format::kFractalNZ, Format::kND, false, false, from_fractal_nz},
    {Format::kFractalNZ, Format::kNCHW, false, false, from_fractal_nz},
    {Format::kFractalNZ, Format::kNHWC, false, false, from_fractal_nz},
    {Format::kFractalZ, Format::kNCHW, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z(i, o, "NCHW"); }},
    {Format::kFractalZ, Format::kHWCN, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z(i, o, "HWCN"); }},
    {Format::kNC1HWC0, Format::kNCHW, false, false,
     [](const ConvertIn& i, ConvertOut& o) {
       return from_nc1hwc0(i, o, "NCHW", msg::index_out_of_bounds_code());
     }},
    {Format::kNC1HWC0, Format::kNHWC, false, false,
     [](const ConvertIn& i, ConvertOut& o) {
       return from_nc1hwc0(i, o, "NHWC", msg::index_error());
     }},
    {Format::kNC1HWC0, Format::kHWCN, false, false,
     [](const ConvertIn& i, ConvertOut& o) {
       return from_nc1hwc0(i, o, "HWCN", msg::index_error());
     }},
    {Format::kNDC1HWC0, Format::kNCDHW, false, false, ndc1hwc0_to_ncdhw},
    {Format::kNDC1HWC0, Format::kND, false, false, ndc1hwc0_to_nd},
    {Format::kHWCN, Format::kNCHW, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return permute4(i, o, "HWCN", "NCHW"); }},
    {Format::kHWCN, Format::kNHWC, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return permute4(i, o, "HWCN", "NHWC"); }},
    {Format::kHWCN, Format::kFractalZ, false, true,
     [](const ConvertIn& i, ConvertOut& o) { return to_fractal_z(i, o, "HWCN"); }},
    {Format::kNCHW, Format::kNHWC, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return permute4(i, o, "NCHW", "NHWC"); }},
    {Format::kNCHW, Format::kFractalZ, false, true,
     [](const ConvertIn& i, ConvertOut& o) { return to_fractal_z(i, o, "NCHW"); }},
    {Format::kNHWC, Format::kNCHW, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return permute4(i, o, "NHWC", "NCHW"); }},
    {Format::kNHWC, Format::kHWCN, false, false,
     [](const ConvertIn& i, ConvertOut& o) { return permute4(i, o, "NHWC", "HWCN"); }},
    {Format::kNHWC, Format::kFractalZ, false, true,
     [](const ConvertIn& i, ConvertOut& o) { return to_fractal_z(i, o, "NHWC"); }},
    {Format::kNC1HWC0_C04, Format::kNCHW, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_nc1hwc0_c04(i, o, "NCHW"); }},
    {Format::kNC1HWC0_C04, Format::kNHWC, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_nc1hwc0_c04(i, o, "NHWC"); }},
    {Format::kNC1HWC0_C04, Format::kHWCN, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_nc1hwc0_c04(i, o, "HWCN"); }},
    {Format::kFractalZ_C04, Format::kNCHW, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z_c04(i, o, "NCHW"); }},
    {Format::kFractalZ_C04, Format::kHWCN, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z_c04(i, o, "HWCN"); }},
    {Format::kFractalZ3D, Format::kNCDHW, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z_3d(i, o, "NCDHW"); }},
    {Format::kFractalZ3D, Format::kDHWCN, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_fractal_z_3d(i, o, "DHWCN"); }},
    {Format::kC1HWNCoC0, Format::kHWCN, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_c1hwncoc0(i, o, "HWCN"); }},
    {Format::kC1HWNCoC0, Format::kNCHW, true, false,
     [](const ConvertIn& i, ConvertOut& o) { return from_c1hwncoc0(i, o, "NCHW"); }},
};

LayoutPlan failed(const Shape& src_shape, Format src, std::string note) {
  LayoutPlan plan = identity_plan(src_shape, src);
  plan.ok = false;
  plan.note = std::move(note);
  return plan;
}

}  // namespace

LayoutPlan plan_format_convert(Format src, const Shape& src_shape, Format dst,
                               const Shape& dst_shape, int group, const LayoutOptions& options) {
  // common.get_format_string raises for a code outside msaccucmp's table, before any lookup.
  for (Format f : {src, dst}) {
    if (msg::ms_format_name(f).empty()) {
      return failed(src_shape, src, msg::format_code_not_supported(static_cast<int>(f)));
    }
  }
  const Converter* converter = nullptr;
  for (const Converter& c : kConverters) {
    if (c.src == src && c.dst == dst && (!c.extension || options.extensions)) converter = &c;
  }
  if (converter == nullptr) {
    LayoutPlan plan = failed(src_shape, src, msg::conversion_not_supported(src, dst));
    plan.note_logged_only = true;
    return plan;
  }
  const auto size = shape_element_count(src_shape);
  if (!size || !layout_math::dims_fit(src_shape)) {
    return failed(src_shape, src, "invalid dump shape " + msg::shape(src_shape));
  }
  if (!layout_math::dims_fit(dst_shape)) {
    return failed(src_shape, src, "invalid target shape " + msg::shape(dst_shape));
  }
  const auto wrap = [&](const std::string& reason) {
    if (converter->extension) {
      return "Cannot convert " + std::string(msg::ms_format_name(src)) + " to " +
             std::string(msg::ms_format_name(dst)) + ": " + reason + ".";
    }
    return msg::convert_failed(src, dst, reason);
  };
  if (group >= 2 && !converter->takes_group) {
    // msaccucmp passes the group to every converter once sub_format >= 2 (a quirk: grouped weights
    // never convert except to FRACTAL_Z); the extensions do not know grouped layouts either.
    return failed(src_shape, src,
                  wrap(converter->extension ? "grouped layouts (sub_format " +
                                                  std::to_string(group) + ") are not supported"
                                            : msg::convert_takes_no_group()));
  }
  ConvertOut out;
  if (!converter->fn(ConvertIn{src_shape, dst_shape, *size, group < 2 ? 1 : group}, out)) {
    return failed(src_shape, src, wrap(out.error));
  }
  LayoutPlan plan;
  plan.extension = converter->extension;
  plan.spec = std::move(out.spec);
  plan.result_shape = std::move(out.shape);
  plan.result_format = dst;
  if (!build_layout_map(plan.spec, plan.map)) {
    return failed(src_shape, src, wrap("the layout needs more than 8 axes"));
  }
  return plan;
}

}  // namespace dumpcmp
