#include "probe/probe_matmul.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "math/element_decode.hpp"
#include "probe/numpy_type.hpp"

namespace dumpcmp {
namespace {

// Both operands' leading (batch) dimensions broadcast; nullopt where numpy cannot.
std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a,
                                              const std::vector<int64_t>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t x = i + a.size() >= n ? a[i + a.size() - n] : 1;
    const int64_t y = i + b.size() >= n ? b[i + b.size() - n] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// The offset, in matrices, of batch index `flat` (over `batch`) in an operand whose leading
// dimensions are `dims` (right-aligned to batch; a dimension of 1 broadcasts).
int64_t batch_offset(int64_t flat, const std::vector<int64_t>& batch,
                     const std::vector<int64_t>& dims) {
  int64_t offset = 0, stride = 1;
  for (std::size_t i = batch.size(); i-- > 0;) {
    const int64_t index = flat % batch[i];
    flat /= batch[i];
    const std::size_t from_end = batch.size() - 1 - i;
    if (from_end < dims.size()) {
      const int64_t d = dims[dims.size() - 1 - from_end];
      if (d != 1) offset += index * stride;
      stride *= d;
    }
  }
  return offset;
}

std::vector<double> as_doubles(const ProbeArray& a) {
  std::vector<double> out(static_cast<std::size_t>(a.numel));
  widen_to_double(a, 0, a.numel, out.data());
  return out;
}

std::vector<uint64_t> as_integers(const ProbeArray& a) {
  std::vector<uint64_t> out(static_cast<std::size_t>(a.numel));
  for (int64_t i = 0; i < a.numel; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<uint64_t>(*integer_element(a, i));
  return out;
}

}  // namespace

std::optional<ProbeArray> numpy_matmul(const ProbeArray& a, const ProbeArray& b, std::string& why) {
  if (a.shape.empty() || b.shape.empty()) {
    why = "matmul: a 0-d operand";
    return std::nullopt;
  }
  const NumpyType ta = numpy_type(a.dtype), tb = numpy_type(b.dtype);
  if (ta.kind == NumpyKind::kComplex || tb.kind == NumpyKind::kComplex) {
    why = "matmul of complex tensors is not reproduced by dumpcmp";
    return std::nullopt;
  }
  // A 1-D left operand is a row, a 1-D right one a column; their dimension is removed again.
  std::vector<int64_t> as = a.shape, bs = b.shape;
  const bool a_vector = as.size() == 1, b_vector = bs.size() == 1;
  if (a_vector) as.insert(as.begin(), 1);
  if (b_vector) bs.push_back(1);
  const int64_t n = as[as.size() - 2], k = as.back(), m = bs.back();
  if (bs[bs.size() - 2] != k) {
    why = "matmul: core dimensions differ (" + std::to_string(k) + " and " +
          std::to_string(bs[bs.size() - 2]) + ")";
    return std::nullopt;
  }
  const std::vector<int64_t> a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  const std::optional<std::vector<int64_t>> batch = broadcast(a_batch, b_batch);
  if (!batch) {
    why = "matmul: the leading dimensions do not broadcast";
    return std::nullopt;
  }
  ProbeArray out;
  out.dtype = dtype_of(promote(ta, tb));
  out.shape = *batch;
  if (!a_vector) out.shape.push_back(n);
  if (!b_vector) out.shape.push_back(m);
  int64_t batches = 1;
  for (const int64_t d : *batch) batches *= d;
  out.numel = batches * n * m;
  out.gathered.resize(static_cast<std::size_t>(out.numel) * dtype_storage_size(out.dtype));

  const NumpyKind kind = numpy_type(out.dtype).kind;
  const bool floats = kind == NumpyKind::kFloat;
  const std::vector<double> ad = floats ? as_doubles(a) : std::vector<double>();
  const std::vector<double> bd = floats ? as_doubles(b) : std::vector<double>();
  const std::vector<uint64_t> ai = floats ? std::vector<uint64_t>() : as_integers(a);
  const std::vector<uint64_t> bi = floats ? std::vector<uint64_t>() : as_integers(b);
  // A block of output rows at a time: each row of b is read once per block and its products
  // added, in k order, to every row of the block (the inner loop runs along contiguous rows, in
  // vector code); blocks run on all cores. Each element is still summed in k order from zero.
  constexpr int64_t kBlock = 16;
  const std::size_t bytes = dtype_storage_size(out.dtype), width = static_cast<std::size_t>(m);
  const bool logical = kind == NumpyKind::kBool;
  const int64_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(dynamic)
  for (int64_t task = 0; task < batches * blocks; ++task) {
    const int64_t t = task / blocks, i0 = task % blocks * kBlock, i1 = std::min(n, i0 + kBlock);
    const auto rows = static_cast<std::size_t>(i1 - i0);
    const auto a0 = static_cast<std::size_t>(batch_offset(t, *batch, a_batch) * n * k + i0 * k);
    const auto b0 = static_cast<std::size_t>(batch_offset(t, *batch, b_batch) * k * m);
    const auto uk = static_cast<std::size_t>(k);
    uint8_t* dst = out.gathered.data() + static_cast<std::size_t>((t * n + i0) * m) * bytes;
    if (floats) {
      std::vector<double> sum(rows * width, 0.0);
      for (std::size_t p = 0; p < uk; ++p) {
        const double* row = bd.data() + b0 + p * width;
        for (std::size_t i = 0; i < rows; ++i) {
          const double x = ad[a0 + i * uk + p];
          double* s = sum.data() + i * width;
          for (std::size_t j = 0; j < width; ++j) s[j] += x * row[j];
        }
      }
      for (std::size_t e = 0; e < sum.size(); ++e) {
        if (out.dtype == DType::kFloat16) {
          const uint16_t h = encode_fp16(static_cast<float>(sum[e]));
          std::memcpy(dst + e * bytes, &h, bytes);
        } else if (out.dtype == DType::kFloat) {
          const float f = static_cast<float>(sum[e]);
          std::memcpy(dst + e * bytes, &f, bytes);
        } else {
          std::memcpy(dst + e * bytes, &sum[e], bytes);
        }
      }
      continue;
    }
    std::vector<uint64_t> sum(rows * width, 0);  // integers wrap (modulo 2^64, then the result's)
    for (std::size_t p = 0; p < uk; ++p) {
      const uint64_t* row = bi.data() + b0 + p * width;
      for (std::size_t i = 0; i < rows; ++i) {
        const uint64_t x = ai[a0 + i * uk + p];
        uint64_t* s = sum.data() + i * width;
        for (std::size_t j = 0; j < width; ++j)
          s[j] = logical ? (s[j] | (x & row[j] & 1u)) : s[j] + x * row[j];
      }
    }
    for (std::size_t e = 0; e < sum.size(); ++e) std::memcpy(dst + e * bytes, &sum[e], bytes);
  }
  out.data = out.gathered.data();
  return out;
}

}  // namespace dumpcmp
