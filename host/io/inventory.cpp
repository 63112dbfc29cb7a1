#include "io/inventory.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "core/error.hpp"
#include "core/text.hpp"
#include "io/mapping_csv.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;

// Files msaccucmp skips by name when it lists a dump directory (dump.py _make_op_name_to_file_map).
constexpr std::string_view kConvertFailedListName = "convert_failed_file_list.txt";

// Sort keys msaccucmp substitutes for unusable fields (const_manager INVALID_THREAD_ID/SLICE_X).
constexpr uint64_t kInvalidThreadId = 2;
constexpr uint64_t kInvalidSliceX = 3;

// Op-name markers that make a directory "quant" (§3.3; QUANT_/DEQUANT_OP_NANE_SUFFIX_LIST).
constexpr std::string_view kQuantMarkers[] = {
    "_quant_layer", "_anti_quant_layer", "AscendQuant", "AscendWeightQuant", "AntiQuant",
    "_quant",       "_weight_quant",     "_anti_quant", "_dequant_layer",    "AscendDequant",
    "_dequant"};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

uint64_t digits_value(std::string_view s) {
  uint64_t value = 0;
  for (char c : s) {
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return UINT64_MAX;
    value = value * 10 + digit;
  }
  return value;
}

// Device-side writers name a file by its decimal path hash when the real name is too long; a
// converted one may also be "<digits>.npy" (dump.py _handle_one_file).
bool is_hashed_name(std::string_view name) {
  if (all_digits(name)) return true;
  return ends_with(name, ".npy") && all_digits(name.substr(0, name.size() - 4));
}

bool has_quant_marker(std::string_view key) {
  return std::any_of(std::begin(kQuantMarkers), std::end(kQuantMarkers),
                     [key](std::string_view m) { return key.find(m) != std::string_view::npos; });
}

bool counts_for_quant(DumpNameKind kind) {
  return kind == DumpNameKind::kOffline || kind == DumpNameKind::kNumpy;
}

HashMapping read_mapping(const fs::path& file, std::vector<std::string>& skipped) {
  HashMapping mapping;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return mapping;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    mapping.present = true;
    skipped.push_back(std::string(kMappingFileName) +
                      ": cannot be read; hashed names stay unresolved");
    return mapping;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_mapping_csv(text, skipped);
}

// field[4] as the FFTS+ sort uses it (get_ffts_timestamp): the timestamp of 5- and 9-field names.
uint64_t ffts_timestamp(const DumpFileName& name) {
  if (name.fields.size() <= 4) return 0;
  const std::string& text = name.fields[4];
  return text.size() == kTimestampDigits && all_digits(text) ? digits_value(text) : 0;
}

// Automatic mode: thread_id = field[-2].
uint64_t thread_id(const DumpFileName& name) {
  const std::vector<std::string>& f = name.fields;
  if (f.size() < 2 || !all_digits(f[f.size() - 2])) return kInvalidThreadId;
  return digits_value(f[f.size() - 2]);
}

// Manual mode: the last character of field 1, the lxslice digit (only one digit, as msaccucmp).
uint64_t slice_digit(const DumpFileName& name) {
  if (name.fields.size() < 2 || name.fields[1].empty()) return kInvalidSliceX;
  const char c = name.fields[1].back();
  return is_digit(c) ? static_cast<uint64_t>(c - '0') : kInvalidSliceX;
}

// msaccucmp sorts by timestamp, then (stable) by the FFTS+ key, so the FFTS+ key is primary.
// File name and path close the order where msaccucmp relies on os.listdir order.
void sort_files(TaskMode mode, std::vector<DumpEntry>& files) {
  auto sort_key = [mode](const DumpEntry& e) {
    uint64_t primary = 0;
    uint64_t timestamp = e.name.timestamp;
    if (mode == TaskMode::kFftsAutomatic) {
      primary = thread_id(e.name);
      timestamp = ffts_timestamp(e.name);
    } else if (mode == TaskMode::kFftsManual) {
      primary = slice_digit(e.name);
      timestamp = ffts_timestamp(e.name);
    }
    return std::tuple<uint64_t, uint64_t, const std::string&, const std::string&>(
        primary, timestamp, e.name.basename, e.path);
  };
  std::sort(files.begin(), files.end(), [&sort_key](const DumpEntry& a, const DumpEntry& b) {
    return sort_key(a) < sort_key(b);
  });
}

// An op is FFTS+ when any of its files is; manual when any of those is a manual slice. msaccucmp
// keeps the mode of whichever file it listed last.
TaskMode op_mode(const std::vector<DumpEntry>& files) {
  bool automatic = false;
  for (const DumpEntry& e : files) {
    const TaskMode m = task_mode(e.name);
    if (m == TaskMode::kFftsManual) return m;
    if (m == TaskMode::kFftsAutomatic) automatic = true;
  }
  return automatic ? TaskMode::kFftsAutomatic : TaskMode::kNormal;
}

struct Listed {
  std::string name;
  bool regular_file = false;  // follows symlinks, like os.path.isfile
};

std::vector<Listed> list_directory(const std::string& dir) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw format_error(dir, "cannot access the dump directory (" + ec.message() + ")");
  }
  if (!fs::exists(status)) throw format_error(dir, "no such dump directory");
  if (!fs::is_directory(status)) throw format_error(dir, "not a directory");
  fs::directory_iterator it(dir, ec);
  if (ec) throw format_error(dir, "cannot open the dump directory (" + ec.message() + ")");
  std::vector<Listed> listed;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    // The entry's cached type avoids a stat per file on large directories.
    std::error_code type_ec;
    listed.push_back(Listed{it->path().filename().string(), it->is_regular_file(type_ec)});
  }
  if (ec) throw format_error(dir, "cannot list the dump directory (" + ec.message() + ")");
  // Sorted so that errors and ties do not depend on the file system's listing order.
  std::sort(listed.begin(), listed.end(),
            [](const Listed& a, const Listed& b) { return a.name < b.name; });
  return listed;
}

std::string not_a_dump_reason(std::string_view name) {
  if (ends_with(name, ".csv")) return "a .csv file (stats dump or table), not a dump";
  return "not a dump file name (op_type.op_name.task_id[.stream_id].timestamp[.task_type."
         "context_id.thread_id.device_id] or op_name.output_index.timestamp.{npy,pb,quant})";
}

}  // namespace

const DumpEntry& OpDumps::chosen() const {
  if (!is_ffts()) return files.back();
  // ffts_parser's fallback: stable sort by the text of field[4], take the last.
  const DumpEntry* best = &files.front();
  auto text = [](const DumpEntry& e) -> std::string_view {
    return e.name.fields.size() > 4 ? std::string_view(e.name.fields[4]) : std::string_view();
  };
  for (const DumpEntry& e : files) {
    if (text(e) >= text(*best)) best = &e;
  }
  return *best;
}

uint64_t OpDumps::latest_timestamp() const {
  const DumpFileName& last = files.back().name;
  return is_ffts() ? ffts_timestamp(last) : last.timestamp;
}

Inventory Inventory::scan(const std::string& dir, const ScanOptions& options) {
  const std::vector<Listed> listed = list_directory(dir);
  Inventory inventory;
  inventory.path_ = dir;
  const HashMapping mapping = read_mapping(fs::path(dir) / kMappingFileName, inventory.skipped_);

  std::map<std::string, std::vector<DumpEntry>> files_by_key;
  std::optional<DumpNameKind> kind;
  std::string first_file;
  for (const auto& [name, regular_file] : listed) {
    if (name == kMappingFileName || name == kConvertFailedListName) {
      inventory.skipped_.push_back(name + ": msaccucmp bookkeeping file");
      continue;
    }
    if (!regular_file) {
      inventory.skipped_.push_back(name + ": not a regular file (subdirectories are not scanned)");
      continue;
    }
    std::string real_name = name;
    if (is_hashed_name(name)) {
      if (!mapping.present) {
        inventory.skipped_.push_back(name + ": hashed name but there is no mapping.csv");
        continue;
      }
      const auto found = mapping.names.find(name);
      if (found == mapping.names.end() || found->second.empty()) {
        inventory.skipped_.push_back(name + ": hashed name not listed in mapping.csv");
        continue;
      }
      real_name = found->second;
    }
    const std::string path = (fs::path(dir) / name).string();
    std::optional<DumpFileName> parsed = parse_dump_file_name(real_name);
    if (!parsed) {
      const std::string via = real_name == name ? "" : " (mapping.csv name " + real_name + ")";
      inventory.skipped_.push_back(name + via + ": " + not_a_dump_reason(real_name));
      continue;
    }
    std::optional<std::string> key = slice_op_key(parsed->key, options.ffts, options.fusion_json);
    if (!key) {
      inventory.skipped_.push_back(name + ": FFTS+ slice name kept only with -ffts");
      continue;
    }
    if (!has_valid_task_type(*parsed)) {
      // msaccucmp raises INVALID_TASK_TYPE here, which ends the whole compare.
      throw format_error(path, "invalid task type '" + parsed->fields[5] +
                                   "' in field 6 of the file name (expected 0 to 4)");
    }
    if (counts_for_quant(parsed->kind) && has_quant_marker(*key)) inventory.quant_ = true;
    if (!kind) {
      kind = parsed->kind;
      first_file = name;
    } else if (*kind != parsed->kind) {
      throw format_error(dir, "mixes " + std::string(dump_name_kind_name(*kind)) + " and " +
                                  std::string(dump_name_kind_name(parsed->kind)) + " dump files (" +
                                  first_file + ", " + name +
                                  "); a dump directory must hold one kind");
    }
    files_by_key[*key].push_back(DumpEntry{path, std::move(*parsed)});
  }
  if (!kind) {
    throw format_error(dir, "no dump files in the directory (" + std::to_string(listed.size()) +
                                " entries ignored)");
  }
  inventory.file_kind_ = *kind;
  for (auto& [key, files] : files_by_key) {
    OpDumps op;
    op.op_name = key;
    op.mode = op_mode(files);
    op.files = std::move(files);
    sort_files(op.mode, op.files);
    inventory.ops_.push_back(std::move(op));
  }
  inventory.index_ops();
  return inventory;
}

Inventory Inventory::single_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) throw format_error(path, "no such dump file");
  if (fs::is_directory(status)) throw format_error(path, "is a directory, not a dump file");
  if (!fs::is_regular_file(status)) throw format_error(path, "not a regular file");
  const std::string base = fs::path(path).filename().string();
  std::optional<DumpFileName> parsed = parse_dump_file_name(base);
  DumpFileName name;
  if (parsed) {
    name = std::move(*parsed);
  } else {
    name.kind = ends_with(base, ".npy")     ? DumpNameKind::kNumpy
                : ends_with(base, ".pb")    ? DumpNameKind::kStandard
                : ends_with(base, ".quant") ? DumpNameKind::kQuant
                                            : DumpNameKind::kOffline;
    name.basename = base;
    name.op_name = base;
    name.key = base;
  }
  Inventory inventory;
  inventory.path_ = path;
  inventory.file_kind_ = name.kind;
  inventory.quant_ = counts_for_quant(name.kind) && has_quant_marker(name.key);
  OpDumps op;
  op.op_name = name.key;
  op.files.push_back(DumpEntry{path, std::move(name)});
  op.mode = op_mode(op.files);
  inventory.ops_.push_back(std::move(op));
  inventory.index_ops();
  return inventory;
}

DumpNameKind Inventory::kind() const {
  if (file_kind_ != DumpNameKind::kNumpy) return file_kind_;
  return quant_ ? DumpNameKind::kQuant : DumpNameKind::kStandard;
}

const OpDumps* Inventory::find(std::string_view op_name, int output_index) const {
  std::string key = normalize_op_name(op_name);
  if (output_index >= 0) key += "." + std::to_string(output_index);
  return find_key(key);
}

const OpDumps* Inventory::find_key(std::string_view key) const {
  const auto it = by_key_.find(std::string(key));
  return it == by_key_.end() ? nullptr : &ops_[it->second];
}

void Inventory::index_ops() {
  // compare_rule.py sorts groups by latest timestamp with a stable sort over dict order; the key
  // breaks ties here instead (ops_ arrives sorted by key, and stable_sort keeps that).
  std::stable_sort(ops_.begin(), ops_.end(), [](const OpDumps& a, const OpDumps& b) {
    return a.latest_timestamp() < b.latest_timestamp();
  });
  by_key_.clear();
  for (std::size_t i = 0; i < ops_.size(); ++i) by_key_.emplace(ops_[i].op_name, i);
}

}  // namespace dumpcmp
