#pragma once
// `--hdf5 FILE` with --tree: the whole run in one HDF5 file (docs/trees.md). `/leaves/<stem>/
// results` is each compared leaf's result table (copied from its `<stem>_result_<ts>.h5`, the
// layout of docs/hdf5.md) with the leaf's device, graph, model_id and step as attributes;
// `/trends/<graph>/<metric>` holds every metric as float64 [tensor x step x device] (NaN where a
// leaf or tensor is missing), with the axes in `tensors`, `steps` and `devices`.
#include <string>
#include <vector>

#include "tree/tree_compare.hpp"

namespace dumpcmp {

// The per-leaf HDF5 file next to a leaf's result CSV ("<stem>_result_<ts>.h5").
std::string leaf_hdf5_name(const std::string& result_csv);

// Written as FILE.partial and renamed; throws Error(kInput) naming a file that cannot be read or
// written.
void write_tree_hdf5(const std::string& path, const std::string& out_dir,
                     const std::vector<TreeJob>& jobs, const std::vector<LeafOutcome>& outcomes);

}  // namespace dumpcmp
