#pragma once
// FFTS+ ops dumped as several slice files, one per thread (automatic mode) or per _lxslice
// (manual mode): the dump they stand for, as msaccucmp's ffts_parser builds it (docs/formats.md
// §3.4 "FFTS+ slices"). The slices' outputs are concatenated along each output's cut axis from the
// first slice's attr JSON; the inputs are the first slice's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/dump_file.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {

struct OpDump {
  std::shared_ptr<const DumpFile> file;
  // The first slice's slice_instance_num is not the number of slice files (msaccucmp's
  // ffts_file_check); the merged dump is still compared.
  bool slice_count_mismatch = false;
};

// The dump an op's files stand for: the chosen file (OpDumps::chosen) for a normal op, a single
// slice or slices without a cut axis; otherwise the merged slices, an in-memory DumpFile whose path
// is msaccucmp's "DIR/type.name.task.stream.*" and whose ffts_slices lists the slice files. Throws
// Error(kInput) naming the file and the problem when a file cannot be read or the slices do not fit
// together.
OpDump read_op_dump(const OpDumps& op);

// Merges slice files given in merge order (the first is the base); `path` names the result. What
// the executor calls to rebuild a merged dump the plan refers to. Throws as read_op_dump.
DumpFile merge_ffts_slices(const std::string& path, const std::vector<std::string>& slices);
// The same on slices already read (at least one; the fuzz target's entry).
DumpFile merge_ffts_dumps(const std::string& path, std::vector<DumpFile> slices);

// The op name msaccucmp shows for an NPU-vs-NPU op: the dump's own op_name when its first attr
// holds JSON that Python reads as true (any FFTS+ slice does); empty otherwise (the file's key is
// shown).
std::string attr_op_name(const DumpFile& file);

// How `convert` shapes the tensors of an automatic-mode slice (a true threadMode), as
// dump_data_parser does: input_tensor_slice / output_tensor_slice[thread] (higher - lower per dim)
// for the thread id in the file name's second-last field. nullopt for other dumps. Throws
// Error(kInput) naming the file when the name has no thread id or the attr lacks that entry.
std::optional<std::vector<Shape>> ffts_thread_shapes(const DumpFile& file, TensorGroup group);

// Whether msaccucmp marks the dump's tensors FFTS+ (is_ffts): merged slices, or a first attr whose
// JSON is a non-empty object with a non-null threadMode.
bool is_ffts_dump(const DumpFile& file);

}  // namespace dumpcmp
