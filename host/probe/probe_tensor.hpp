#pragma once
// Tensor mode (docs/msprobe-compare.md §5.3): one row's two data files read as msprobe's compare
// reads them (.pt without torch, squeezed), and the six metric cells it writes for them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/mapped_file.hpp"

namespace dumpcmp {

// One data file's elements in C order, size-1 dimensions removed (numpy.squeeze).
struct ProbeArray {
  MappedFile file;
  DType dtype = DType::kUndefined;
  std::vector<int64_t> shape;  // squeezed; empty: 0-d
  int64_t numel = 0;
  const uint8_t* data = nullptr;  // into file, or into gathered for a strided tensor
  std::vector<uint8_t> gathered;
};

// Reads `path` (a torch.save file); throws Error(kInput) naming it for what msprobe cannot read
// (its path checks included: the .pt suffix, a regular readable file of at most 10 GiB, the
// allowed characters).
ProbeArray read_probe_array(const std::string& path);

// A metric cell: a Python float or one of msprobe's words ("unsupported", "N/A", "Nan", ...).
struct ProbeCell {
  std::optional<double> number;
  std::string word;
  std::string csv() const;  // as msprobe's CSV shows it
};

using ProbeMetrics = std::array<ProbeCell, 6>;  // Cosine ... Five Thousandths Err Ratio

// Every cell the same word: a row whose tensors are not compared ("unsupported",
// "shape unmatched", "N/A").
ProbeMetrics probe_metrics_all(const std::string& word);
// The chain of §5.3 from the empty check on: both arrays read.
ProbeMetrics probe_metrics(const ProbeArray& npu, const ProbeArray& bench);

}  // namespace dumpcmp
