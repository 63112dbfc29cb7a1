// docs/msprobe-compare.md §5.3: read_pt_data (torch.load, then bfloat16 and float8 to float32,
// then numpy.squeeze), read_npy_data (np.load, numpy.squeeze) and the FileChecker both pass the
// path through.
#include "probe/probe_array.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/text.hpp"
#include "io/dump_file.hpp"
#include "io/torch_pt.hpp"
#include "math/element_decode.hpp"
#include "simd/probe_decode.hpp"

namespace dumpcmp {
namespace {

constexpr uint64_t kMaxDataFileBytes = uint64_t{10} << 30;  // FileCheckConst's limit for .pt

bool allowed_path_characters(const std::string& path) {
  for (const char c : path) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == ':' || c == '/' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// FileChecker(path, FILE, READ_ABLE, suffix).common_check().
void check_data_path(const std::string& path, const std::string& suffix) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw format_error(path, "the data file does not exist");
  if (!S_ISREG(st.st_mode)) throw format_error(path, "the data file is not a regular file");
  if (::access(path.c_str(), R_OK) != 0) throw format_error(path, "the data file is not readable");
  if (path.size() < suffix.size() ||
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    throw format_error(path, "the data file does not end with " + suffix);
  if (!allowed_path_characters(path))
    throw format_error(path,
                       "the path has characters msprobe refuses (allowed: a-z A-Z 0-9 _ . : / -)");
  if (static_cast<uint64_t>(st.st_size) > kMaxDataFileBytes)  // .pt and .npy alike
    throw format_error(path, "the data file is larger than msprobe's 10 GiB limit");
}

// Whether one element decodes to float64 here (complex: its real part, as numpy's astype(float));
// the rest are not compared.
bool decodable(DType t) {
  switch (t) {
    case DType::kComplex64:
    case DType::kComplex128:
    case DType::kFloat:
    case DType::kDouble:
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2:
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
      return true;
    default:
      return false;
  }
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void shape_into(ProbeArray& a, const std::vector<int64_t>& shape, bool squeeze) {
  a.numel = 1;
  for (const int64_t d : shape) {
    a.numel *= d;
    if (d != 1 || !squeeze) a.shape.push_back(d);
  }
}

// np.load(allow_pickle=False): numpy's own dtypes only.
ProbeArray read_numpy_array(const std::string& path, bool squeeze) {
  const DumpFile file = read_npy_file(path);
  const TensorInfo& t = file.outputs.at(0);
  if (!decodable(t.dtype))
    throw format_error(path, "holds a " + std::string(dtype_numpy_name(t.dtype)) +
                                 " array, which is not compared");
  ProbeArray a;
  a.bytes = file.bytes;
  a.dtype = t.dtype;
  shape_into(a, t.shape, squeeze);
  a.data = file.tensor_data(t);
  return a;
}

// torch.load, then bfloat16 and float8 widened (later, exactly) and .numpy().
ProbeArray read_torch_array(const std::string& path, bool squeeze) {
  auto file = std::make_shared<MappedFile>(MappedFile::open(path));
  const TorchTensor t = parse_torch_tensor(file->data(), file->size(), path);
  if (!decodable(t.dtype))
    throw format_error(path, "holds a " + t.dtype_name + " tensor, which is not compared");
  ProbeArray a;
  a.bytes = file;
  a.dtype = t.dtype;
  shape_into(a, t.shape, squeeze);
  const std::size_t item = dtype_storage_size(t.dtype);
  if (t.contiguous() || a.numel == 0) {
    a.data = t.storage + static_cast<std::size_t>(t.storage_offset) * item;
    return a;
  }
  // A strided view: its elements gathered into C order.
  a.gathered.resize(static_cast<std::size_t>(a.numel) * item);
  std::vector<int64_t> index(t.shape.size(), 0);
  for (int64_t i = 0; i < a.numel; ++i) {
    int64_t at = t.storage_offset;
    for (std::size_t d = 0; d < index.size(); ++d) at += index[d] * t.strides[d];
    std::memcpy(&a.gathered[static_cast<std::size_t>(i) * item],
                t.storage + static_cast<std::size_t>(at) * item, item);
    for (std::size_t d = index.size(); d-- > 0;) {
      if (++index[d] < t.shape[d]) break;
      index[d] = 0;
    }
  }
  a.data = a.gathered.data();
  return a;
}

}  // namespace

ProbeArray read_probe_array(const std::string& path, ProbeDataFormat format) {
  check_data_path(path, format == ProbeDataFormat::kTorch ? ".pt" : ".npy");
  return format == ProbeDataFormat::kTorch ? read_torch_array(path, true)
                                           : read_numpy_array(path, true);
}

ProbeArray probe_array_view(const uint8_t* data, DType dtype, const std::vector<int64_t>& shape) {
  ProbeArray a;
  a.dtype = dtype;
  a.data = data;
  shape_into(a, shape, true);
  return a;
}

ProbeArray read_probe_matrix(const std::string& path) {
  if (ends_with(path, ".npy")) {
    check_data_path(path, ".npy");
    return read_numpy_array(path, false);
  }
  if (!ends_with(path, ".pt") && !ends_with(path, ".pth"))
    throw format_error(path, "unsupported tensor file format (.npy, .pt or .pth)");
  check_data_path(path, ends_with(path, ".pt") ? ".pt" : ".pth");
  ProbeArray a = read_torch_array(path, false);
  switch (a.dtype) {  // tensor.numpy() has no such dtype
    case DType::kBFloat16:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2:
      throw format_error(path, "holds a " + std::string(dtype_numpy_name(a.dtype)) +
                                   " tensor, which numpy cannot hold");
    default:
      return a;
  }
}

void zero_rows_from(ProbeArray& a, int64_t rows) {
  if (a.shape.empty() || a.numel == 0) return;
  const std::size_t item = dtype_storage_size(a.dtype);
  const std::size_t row_bytes = static_cast<std::size_t>(a.numel / a.shape[0]) * item;
  const std::size_t keep = static_cast<std::size_t>(std::clamp<int64_t>(rows, 0, a.shape[0]));
  if (a.gathered.empty()) a.gathered.assign(a.data, a.data + a.shape[0] * row_bytes);
  std::fill(a.gathered.begin() + static_cast<std::ptrdiff_t>(keep * row_bytes), a.gathered.end(),
            uint8_t{0});
  a.data = a.gathered.data();
}

std::optional<int64_t> integer_element(const ProbeArray& a, int64_t i) {
  const uint8_t* p = a.data + static_cast<std::size_t>(i) * dtype_storage_size(a.dtype);
  switch (a.dtype) {
    case DType::kBool:
      return *p != 0;
    case DType::kUInt8:
      return *p;
    case DType::kInt8:
      return load<int8_t>(p);
    case DType::kInt16:
      return load<int16_t>(p);
    case DType::kUInt16:
      return load<uint16_t>(p);
    case DType::kInt32:
      return load<int32_t>(p);
    case DType::kUInt32:
      return load<uint32_t>(p);
    case DType::kInt64:
    case DType::kUInt64:
      return load<int64_t>(p);
    default:
      return std::nullopt;
  }
}

std::optional<std::pair<double, double>> complex_element(const ProbeArray& a, int64_t i) {
  const uint8_t* p = a.data + static_cast<std::size_t>(i) * dtype_storage_size(a.dtype);
  if (a.dtype == DType::kComplex64)
    return std::pair<double, double>{load<float>(p), load<float>(p + 4)};
  if (a.dtype == DType::kComplex128)
    return std::pair<double, double>{load<double>(p), load<double>(p + 8)};
  return std::nullopt;
}

std::optional<int64_t> integer_sum(const ProbeArray& a) {
  switch (a.dtype) {  // the dtypes torch's sum().item() gives an integer for here
    case DType::kBool:
    case DType::kUInt8:
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kInt64:
      break;
    default:
      return std::nullopt;
  }
  int64_t sum = 0;
  for (int64_t i = 0; i < a.numel; ++i) sum += *integer_element(a, i);
  return sum;
}

void widen_to_double(const ProbeArray& a, int64_t begin, int64_t count, double* out) {
  simd::decode_to_double(
      a.dtype, a.data + static_cast<std::size_t>(begin) * dtype_storage_size(a.dtype), count, out);
}

}  // namespace dumpcmp
