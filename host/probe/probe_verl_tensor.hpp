#pragma once
// The data files of a --consistent_check row as msprobe's PyTorch compare reads them
// (pt_compare.read_real_data, docs/msprobe-compare.md §4.8): a gathered side's files (q, k and v
// against qkv; gate and up against gate_up) concatenated as numpy does, the parameters along the
// first dimension, the outputs along the second, the inputs (the same tensor) the first file alone.
#include <optional>
#include <string>

#include "probe/probe_array.hpp"
#include "probe/probe_verl_match.hpp"

namespace dumpcmp {

// The array of one side of a row: `data_name` as the row holds it (names joined with ';'), read
// from `dir`. The gathered side (FSDP's NPU side, Megatron's bench side) whose names name a merged
// projection is split and concatenated; any other name is one file. Throws Error(kInput), as
// read_probe_array does, for a file that cannot be read (the row fails alone); nullopt with `why`
// where numpy's concatenate raises, which stops msprobe's whole compare of the pair.
std::optional<ProbeArray> read_verl_side(const std::string& dir, const std::string& data_name,
                                         bool gathered_side, VerlBackend backend, std::string& why);

// numpy.concatenate(parts, axis) of squeezed arrays, in numpy's result type; nullopt with `why`
// where numpy raises (dimensions that differ, an axis out of range, a 0-d part) or where dumpcmp
// does not reproduce it (complex parts of differing types).
std::optional<ProbeArray> concatenate_arrays(const std::vector<ProbeArray>& parts, int axis,
                                             std::string& why);

}  // namespace dumpcmp
