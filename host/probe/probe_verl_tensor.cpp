#include "probe/probe_verl_tensor.hpp"

#include <cstring>

#include "core/text.hpp"
#include "probe/numpy_type.hpp"
#include "probe/probe_text.hpp"

namespace dumpcmp {
namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

// Element i of `a` stored at `out` as `to`, which holds it exactly or as numpy's astype rounds it.
void convert_element(const ProbeArray& a, int64_t i, DType to, uint8_t* out) {
  const NumpyKind kind = numpy_type(to).kind;
  if (kind == NumpyKind::kFloat) {
    double v = 0;
    widen_to_double(a, i, 1, &v);
    if (to == DType::kDouble) {
      std::memcpy(out, &v, sizeof v);
    } else {
      const float f = static_cast<float>(v);
      std::memcpy(out, &f, sizeof f);
    }
    return;
  }
  const int64_t v = *integer_element(a, i);
  std::memcpy(out, &v, dtype_storage_size(to));  // little-endian: the low bytes
}

}  // namespace

std::optional<ProbeArray> concatenate_arrays(const std::vector<ProbeArray>& parts, int axis,
                                             std::string& why) {
  const ProbeArray& first = parts.front();
  const size_t ndim = first.shape.size();
  if (ndim == 0) {
    why = "zero-dimensional arrays cannot be concatenated";
    return std::nullopt;
  }
  if (static_cast<size_t>(axis) >= ndim) {
    why = "axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
          std::to_string(ndim);
    return std::nullopt;
  }
  NumpyType type = numpy_type(first.dtype);
  std::vector<int64_t> shape = first.shape;
  for (size_t p = 1; p < parts.size(); ++p) {
    const ProbeArray& a = parts[p];
    if (a.shape.size() != ndim) {
      why =
          "all the input arrays must have same number of dimensions, but the array at index 0 "
          "has " +
          std::to_string(ndim) + " dimension(s) and the array at index " + std::to_string(p) +
          " has " + std::to_string(a.shape.size()) + " dimension(s)";
      return std::nullopt;
    }
    for (size_t d = 0; d < ndim; ++d) {
      if (static_cast<int>(d) != axis && a.shape[d] != first.shape[d]) {
        why =
            "all the input array dimensions except for the concatenation axis must match "
            "exactly, but along dimension " +
            std::to_string(d) +
            ", the array at index 0 has "
            "size " +
            std::to_string(first.shape[d]) + " and the array at index " + std::to_string(p) +
            " has size " + std::to_string(a.shape[d]);
        return std::nullopt;
      }
    }
    shape[axis] += a.shape[axis];
    type = promote(type, numpy_type(a.dtype));
  }
  const DType to = dtype_of(type);
  bool same = true;
  for (const ProbeArray& a : parts) same = same && a.dtype == to;
  if (!same && (type.kind == NumpyKind::kComplex || type.kind == NumpyKind::kBool ||
                to == DType::kFloat16)) {
    why = "a concatenation of " + std::string(dtype_numpy_name(first.dtype)) +
          " and other types, "
          "which dumpcmp does not reproduce";
    return std::nullopt;
  }

  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < ndim; ++d) inner *= shape[d];
  ProbeArray out;
  out.dtype = to;
  out.shape = shape;
  out.numel = outer * shape[axis] * inner;
  const size_t size = dtype_storage_size(to);
  out.gathered.resize(static_cast<size_t>(out.numel) * size);
  uint8_t* dst = out.gathered.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const ProbeArray& a : parts) {
      const int64_t block = a.shape[axis] * inner;
      if (same) {
        std::memcpy(dst, a.data + static_cast<size_t>(o * block) * size,
                    static_cast<size_t>(block) * size);
        dst += static_cast<size_t>(block) * size;
      } else {
        for (int64_t j = 0; j < block; ++j, dst += size) convert_element(a, o * block + j, to, dst);
      }
    }
  }
  out.data = out.gathered.data();
  return out;
}

std::optional<ProbeArray> read_verl_side(const std::string& dir, const std::string& data_name,
                                         bool gathered_side, VerlBackend backend,
                                         std::string& why) {
  const bool merged = backend == VerlBackend::kFsdp
                          ? data_name.find(".q_proj.") != std::string::npos ||
                                data_name.find(".gate_proj.") != std::string::npos
                          : data_name.find(".gate_up_proj.") != std::string::npos;
  if (!gathered_side || !merged) return read_probe_array(dir + data_name, ProbeDataFormat::kTorch);
  std::vector<std::string> names;
  for (const std::string_view name : split(data_name, ';')) names.emplace_back(name);
  if (data_name.find(".input.") != std::string::npos)
    return read_probe_array(dir + names.front(), ProbeDataFormat::kTorch);
  std::vector<ProbeArray> parts;
  for (const std::string& name : names)
    parts.push_back(read_probe_array(dir + name, ProbeDataFormat::kTorch));
  const int axis = data_name.find(".parameters.") != std::string::npos ? 0 : 1;
  std::optional<ProbeArray> out = concatenate_arrays(parts, axis, why);
  if (!out) {
    std::string shapes;
    for (size_t i = 0; i < parts.size(); ++i)
      shapes += (i ? ", " : "") + shape_text(parts[i].shape);
    why = "numpy.concatenate of " + data_name + " along axis " + std::to_string(axis) +
          " (squeezed shapes " + shapes + "): " + why;
  }
  return out;
}

}  // namespace dumpcmp
