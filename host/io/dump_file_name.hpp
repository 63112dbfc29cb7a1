#pragma once
// The dump file-name grammar of msaccucmp (docs/formats.md §3.2): which names are dumps, which op
// and output they belong to, and their timestamp. Pure string logic: nothing here touches the disk.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// One kind per naming pattern, chosen by suffix the way msaccucmp does (.npy, .pb, .quant, else
// offline). kStandard and kQuant are golden dumps of the original (unquantized/quantized) model.
enum class DumpNameKind { kOffline, kNumpy, kStandard /* .pb */, kQuant /* .quant */ };

// How the files of one op are ordered and picked (§3.4; msaccucmp dump_utils SortMode).
enum class TaskMode {
  kNormal,         // <= 5 fields, .npy, or a 9-field name whose task type is not FFTS+
  kFftsAutomatic,  // 9-field name, task type 4
  kFftsManual      // 9-field name, task type 4, "_lxslice" somewhere in the name
};

// Task type 4 (FFTSPLUS) in field 5 of a 9-field name; 0..3 are AICORE, AICPU, DEBUG, HCCL.
inline constexpr int kTaskTypeFftsPlus = 4;
inline constexpr int kMaxTaskType = 4;
// msaccucmp's TIMESTAMP_LENGTH: any other length makes the timestamp count as 0.
inline constexpr std::size_t kTimestampDigits = 16;

struct DumpFileName {
  DumpNameKind kind = DumpNameKind::kOffline;
  std::string basename;
  std::string op_type;    // field 0 of offline names; empty for .npy/.pb/.quant
  std::string op_name;    // field 1 of offline names; the key minus ".idx" for .npy/.pb/.quant
  std::string key;        // msaccucmp's map key (group 1): op_name, or "op_name.idx"
  int output_index = -1;  // .npy/.pb/.quant only
  // The timestamp field: the last field of 4-/5-field offline names, field 4 of 9-field names, the
  // field before the suffix of .npy/.pb/.quant names. (msaccucmp's NORMAL sort reads field[-1],
  // the device id, for 9-field names, and field[2] for .npy names with '.' in the op name: both
  // then count as 0 and the pick falls to listdir order. The real field is used here.)
  std::string timestamp_text;
  uint64_t timestamp = 0;           // 0 unless timestamp_text is exactly 16 digits
  std::vector<std::string> fields;  // basename split on '.'
  int task_type = -1;               // field 5 of 9-field names (saturated; may be out of 0..4)
};

// Parses a basename with the patterns of §3.2. Returns nullopt when the name is not a dump name.
// Deviation from msaccucmp: its offline pattern has no '$' anchor, so any name that starts like a
// dump is taken ("X.op.1.2.<ts>.csv" stats files, ".json", ".txt", ...). Here an offline name
// must be exactly op_type.op_name.task_id[.stream_id].timestamp (4 or 5 fields) or the 9-field
// FFTS+ form ...timestamp.task_type.context_id.thread_id.device_id, numeric fields digits only.
// The 6- to 8-field names the unanchored regex also admits are rejected: no writer makes them,
// and msaccucmp then reads field[-4] as the task type, which for 7 or 8 fields is the timestamp.
// The task type is not validated here: see has_valid_task_type().
std::optional<DumpFileName> parse_dump_file_name(std::string_view basename);

// msaccucmp accepts only "0".."4" in field 5 of a 9-field name (dump.py _check_task_type); other
// values are an INVALID_TASK_TYPE error that ends the directory scan. Shorter names always pass.
bool has_valid_task_type(const DumpFileName& name);

// NORMAL, or one of the FFTS+ modes for a 9-field name of task type 4.
TaskMode task_mode(const DumpFileName& name);

// "offline", ".npy", ".pb", ".quant": for messages.
std::string_view dump_name_kind_name(DumpNameKind kind);

// The op-name form used on lookup (DumpInfo.get_op_dump_file): '/' and '.' become '_'.
std::string normalize_op_name(std::string_view op_name);

// msaccucmp's handle_op_name on a file's key (never with -ffts):
//  * with a fusion JSON (-f) and "_lxslice" in the key: every "_lxslice<digits>" is removed;
//  * otherwise a "lxslice<digits>" that ends the key is cut together with the character before it,
//    then everything up to and including the character after the last "sgt_graph_<digits>" is cut
//    (when something follows it).
// Where msaccucmp would crash on a regex with no match (e.g. "_sgt_graph" not followed by a digit),
// the key is left unchanged.
std::string strip_slice_fields(std::string_view key, bool with_fusion_json);

// The key an op is filed under, or nullopt when msaccucmp drops the file: with -ffts the key
// stays as is; otherwise strip_slice_fields(), and the file is dropped if "_lxslice" remains.
std::optional<std::string> slice_op_key(std::string_view key, bool ffts, bool with_fusion_json);

}  // namespace dumpcmp
