#pragma once
// What a dump directory holds: op key -> its dump files, ordered and picked the way msaccucmp does
// (docs/formats.md §3.2-§3.4; MP dump_parse/dump.py DumpInfo, dump_utils.py, compare_rule.py).
// Only file names are read (and mapping.csv); dump contents are never opened here.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/dump_file_name.hpp"

namespace dumpcmp {

struct DumpEntry {
  std::string path;   // the file on disk (a hashed name stays hashed here)
  DumpFileName name;  // parsed from the real name (mapping.csv resolves hashed names)
};

struct OpDumps {
  std::string op_name;  // the map key: offline op name, or "op_name.idx" for .npy/.pb/.quant
  TaskMode mode = TaskMode::kNormal;
  // Sorted per §3.4: NORMAL by timestamp; FFTS+ automatic by thread id then timestamp; FFTS+ manual
  // by the slice digit (last char of field 1) then timestamp. Remaining ties: by file name, where
  // msaccucmp keeps os.listdir order (arbitrary).
  std::vector<DumpEntry> files;

  bool is_ffts() const { return mode != TaskMode::kNormal; }
  // NORMAL: the last file, i.e. the latest. FFTS+ (merging slices is the reader's job): the file
  // with the greatest field[4] compared as text, the fallback of msaccucmp's ffts_parser.
  const DumpEntry& chosen() const;
  // The timestamp of the last file in §3.4 order; the NPU-vs-NPU group order key. For FFTS+ ops
  // that is the highest thread/slice, not necessarily the newest file, as in compare_rule.py.
  uint64_t latest_timestamp() const;
};

// Command-line switches that change how file op names become keys (§3.2, dump.handle_op_name).
struct ScanOptions {
  bool ffts = false;         // -ffts: keep _lxslice / sgt_graph names as they are
  bool fusion_json = false;  // -f given: "_lxslice<N>" is removed everywhere in the name
};

class Inventory {
 public:
  // Lists `dir` (not recursively; subdirectories are ignored). Throws Error(kInput) naming the
  // path when the directory cannot be read, holds no dump file, mixes kinds (offline, .npy, .pb,
  // .quant), or a 9-field name has a task type outside 0..4.
  static Inventory scan(const std::string& dir, const ScanOptions& options = {});
  // One file given instead of a directory: a one-op inventory. A name that does not parse is kept
  // under its basename (kind by suffix), since single-file compare ignores names.
  static Inventory single_file(const std::string& path);

  const std::string& path() const { return path_; }
  // msaccucmp's dump type after _judge_dump_type: a .npy directory is kQuant when is_quant(),
  // else kStandard. file_kind() is the files' own kind (kNumpy for .npy).
  DumpNameKind kind() const;
  DumpNameKind file_kind() const { return file_kind_; }
  // §3.3: an offline or .npy op key contains a quantization marker (_quant, AscendQuant, ...).
  // Stays false for .pb/.quant directories, as in msaccucmp.
  bool is_quant() const { return quant_; }
  bool has_npy() const { return file_kind_ == DumpNameKind::kNumpy; }
  // NPU-vs-NPU group order: ascending latest_timestamp(), ties by op key (msaccucmp: listdir
  // order, i.e. arbitrary).
  const std::vector<OpDumps>& ops() const { return ops_; }
  // Lookup as DumpInfo.get_op_dump_file: the name is normalised ('/', '.' -> '_') and
  // ".output_index" is appended when output_index >= 0.
  const OpDumps* find(std::string_view op_name, int output_index = -1) const;
  // Exact lookup by map key.
  const OpDumps* find_key(std::string_view key) const;
  // "name: reason" for every directory entry (and mapping.csv row) that was ignored.
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  void index_ops();

  std::string path_;
  DumpNameKind file_kind_ = DumpNameKind::kOffline;
  bool quant_ = false;
  std::vector<OpDumps> ops_;
  std::unordered_map<std::string, std::size_t> by_key_;
  std::vector<std::string> skipped_;
};

}  // namespace dumpcmp
