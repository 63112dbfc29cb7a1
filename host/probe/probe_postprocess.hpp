#pragma once
// msprobe's --config tensor post-processing (docs/msprobe-compare.md §5.3; msprobe's
// tensor_postprocess/processor.py): a YAML naming matrices by the data files they multiply, applied
// to each tensor pair after it is read and before it is compared. Its three parts run in this
// order on each side: right_matmul (value @ matrix), left_matmul (matrix @ value), then
// left_right_matmul's left and right matrices. A matrix that cannot be read or multiplied leaves
// the value as it was, with a warning, as msprobe leaves it.
#include <map>
#include <string>
#include <vector>

#include "probe/probe_array.hpp"

namespace dumpcmp {

struct ProbePostprocess {
  struct Matmul {
    bool left = false;                              // matrix @ value, else value @ matrix
    std::map<std::string, std::string> npu, bench;  // data file name -> matrix file
  };
  std::vector<Matmul> steps;          // in the order they apply
  std::vector<std::string> warnings;  // entries left out and unknown keys, as msprobe warns
};

// Reads the YAML (msprobe's load_yaml: a .yaml file yaml.safe_load reads; an empty file is no
// post-processing). Throws Error(kInput) naming the file for what msprobe cannot use.
ProbePostprocess read_probe_postprocess(const std::string& path);

// Applies the steps to a pair read from data files npu_name and bench_name; each matrix that
// fails adds a warning naming it and the data file.
void apply_probe_postprocess(const ProbePostprocess& config, const std::string& npu_name,
                             const std::string& bench_name, ProbeArray& npu, ProbeArray& bench,
                             std::vector<std::string>& warnings);

}  // namespace dumpcmp
