#pragma once
// ProbeArrays made from values and read back, for the tests of msprobe's array code.
#include <cstring>
#include <utility>
#include <vector>

#include "probe/probe_array.hpp"

namespace dumpcmp {

template <typename T>
ProbeArray array_of(DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  ProbeArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.numel = static_cast<int64_t>(values.size());
  a.gathered.resize(values.size() * sizeof(T));
  std::memcpy(a.gathered.data(), values.data(), a.gathered.size());
  a.data = a.gathered.data();
  return a;
}

template <typename T>
std::vector<T> values_of(const ProbeArray& a) {
  std::vector<T> out(static_cast<std::size_t>(a.numel));
  std::memcpy(out.data(), a.data, out.size() * sizeof(T));
  return out;
}

}  // namespace dumpcmp
