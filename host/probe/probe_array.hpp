#pragma once
// One data file of a tensor-mode dump (docs/msprobe-compare.md §5.3) as msprobe's compare reads it:
// a torch.save file read without torch, size-1 dimensions removed, its elements widened to float64
// a block at a time.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.hpp"

namespace dumpcmp {

// One data file's elements in C order, size-1 dimensions removed (numpy.squeeze).
struct ProbeArray {
  std::shared_ptr<const void> bytes;  // keeps `data` alive
  DType dtype = DType::kUndefined;
  std::vector<int64_t> shape;  // squeezed; empty: 0-d
  int64_t numel = 0;
  const uint8_t* data = nullptr;  // into file, or into gathered for a strided tensor
  std::vector<uint8_t> gathered;
};

// How a dump's data files are read: torch.load (PyTorch dumps) or np.load (MindSpore dumps).
enum class ProbeDataFormat { kTorch, kNumpy };

// Reads `path`; throws Error(kInput) naming it for what msprobe cannot read (its path checks
// included: the .pt or .npy suffix, a regular readable file of at most 10 GiB, the allowed
// characters) and for a dtype it does not compare (a string or object array).
ProbeArray read_probe_array(const std::string& path, ProbeDataFormat format);

// A tensor already in memory (a run's, compared as it runs: probe_live) as msprobe's compare holds
// a data file's: `shape` with its size-1 dimensions removed. `data` is not read here.
ProbeArray probe_array_view(const uint8_t* data, DType dtype, const std::vector<int64_t>& shape);

// A matrix of --config's post-processing (tensor_postprocess's _load_tensor_as_numpy): np.load of
// a .npy file, torch.load of a .pt or .pth file then .numpy(), its shape as it is. Throws
// Error(kInput) naming the file as read_probe_array does, and for a bfloat16 or float8 tensor,
// which .numpy() refuses.
ProbeArray read_probe_matrix(const std::string& path);

// msprobe's clean-up of a grouped op's output (clean_single_tensor): every row from `rows` on along
// the first (squeezed) dimension becomes zeros, in a copy; a 0-d or empty array is left alone.
void zero_rows_from(ProbeArray& a, int64_t rows);

// Element i of a bool or integer array as int64 (a uint64 as its bit pattern); nullopt for
// another dtype.
std::optional<int64_t> integer_element(const ProbeArray& a, int64_t i);

// Element i of a complex array as (real, imaginary); nullopt for another dtype.
std::optional<std::pair<double, double>> complex_element(const ProbeArray& a, int64_t i);

// The sum of an integer or bool array (torch's sum().item()); nullopt for another dtype.
std::optional<int64_t> integer_sum(const ProbeArray& a);

// count elements of `a` from `begin` as float64: numpy's astype(float) (bfloat16 and float8
// exactly, as msprobe first converts them to float32; complex: the real part).
void widen_to_double(const ProbeArray& a, int64_t begin, int64_t count, double* out);

}  // namespace dumpcmp
