#include "io/dump_file_name.hpp"

#include <algorithm>
#include <limits>

#include "core/text.hpp"

namespace dumpcmp {
namespace {

// Timestamps are [0-9]{1,255} in every pattern.
constexpr std::size_t kMaxTimestampDigits = 255;
constexpr std::string_view kNpySuffix = ".npy";
constexpr std::string_view kPbSuffix = ".pb";
constexpr std::string_view kQuantSuffix = ".quant";
constexpr std::string_view kLxsliceField = "_lxslice";
constexpr std::string_view kSgtField = "_sgt_graph";

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// [A-Za-z0-9_-], plus '.' where the .npy pattern allows it.
bool is_name_char(char c, bool allow_dot) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '-' ||
         (allow_dot && c == '.');
}

bool is_name(std::string_view s, bool allow_dot) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [allow_dot](char c) { return is_name_char(c, allow_dot); });
}

bool is_timestamp_field(std::string_view s) {
  return all_digits(s) && s.size() <= kMaxTimestampDigits;
}

// Digits to a number, saturating: field values only order files, they never index memory.
uint64_t digits_value(std::string_view s) {
  uint64_t value = 0;
  for (char c : s) {
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      return std::numeric_limits<uint64_t>::max();
    }
    value = value * 10 + digit;
  }
  return value;
}

int digits_to_int(std::string_view s) {
  const uint64_t value = digits_value(s);
  const auto max = static_cast<uint64_t>(std::numeric_limits<int>::max());
  return static_cast<int>(std::min(value, max));
}

std::vector<std::string> split_fields(std::string_view s) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    if (dot == std::string_view::npos) {
      fields.emplace_back(s.substr(start));
      return fields;
    }
    fields.emplace_back(s.substr(start, dot - start));
    start = dot + 1;
  }
}

void set_timestamp(DumpFileName& name, std::string_view text) {
  name.timestamp_text = std::string(text);
  name.timestamp = text.size() == kTimestampDigits ? digits_value(text) : 0;
}

// op_type.op_name.task_id[.stream_id].timestamp[.task_type.context_id.thread_id.device_id]
std::optional<DumpFileName> parse_offline(std::string_view basename) {
  DumpFileName name;
  name.kind = DumpNameKind::kOffline;
  name.fields = split_fields(basename);
  const std::vector<std::string>& f = name.fields;
  const std::size_t n = f.size();
  if (n != 4 && n != 5 && n != 9) return std::nullopt;
  if (!is_name(f[0], false) || !is_name(f[1], false)) return std::nullopt;
  for (std::size_t i = 2; i < n; ++i) {
    if (!all_digits(f[i])) return std::nullopt;
  }
  const std::size_t timestamp_index = n == 9 ? 4 : n - 1;
  if (!is_timestamp_field(f[timestamp_index])) return std::nullopt;
  name.basename = std::string(basename);
  name.op_type = f[0];
  name.op_name = f[1];
  name.key = f[1];
  set_timestamp(name, f[timestamp_index]);
  if (n == 9) name.task_type = digits_to_int(f[5]);
  return name;
}

// op_name.output_index.timestamp<suffix>; only .npy names may have '.' inside op_name.
std::optional<DumpFileName> parse_indexed(std::string_view basename, std::string_view suffix,
                                          DumpNameKind kind) {
  const std::string_view stem = basename.substr(0, basename.size() - suffix.size());
  const std::size_t ts_dot = stem.rfind('.');
  if (ts_dot == std::string_view::npos) return std::nullopt;
  const std::string_view timestamp = stem.substr(ts_dot + 1);
  const std::string_view key = stem.substr(0, ts_dot);
  const std::size_t idx_dot = key.rfind('.');
  if (idx_dot == std::string_view::npos) return std::nullopt;
  const std::string_view op_name = key.substr(0, idx_dot);
  const std::string_view index = key.substr(idx_dot + 1);
  const bool allow_dot = kind == DumpNameKind::kNumpy;
  if (!is_name(op_name, allow_dot) || !all_digits(index) || !is_timestamp_field(timestamp)) {
    return std::nullopt;
  }
  DumpFileName name;
  name.kind = kind;
  name.basename = std::string(basename);
  name.op_name = std::string(op_name);
  name.key = std::string(key);
  name.output_index = digits_to_int(index);
  set_timestamp(name, timestamp);
  name.fields = split_fields(basename);
  return name;
}

// First "lxslice<digits>" match as [begin, end), or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> first_lxslice(std::string_view s) {
  constexpr std::string_view kWord = "lxslice";
  for (std::size_t p = s.find(kWord); p != std::string_view::npos; p = s.find(kWord, p + 1)) {
    std::size_t end = p + kWord.size();
    while (end < s.size() && is_digit(s[end])) ++end;
    if (end > p + kWord.size()) return std::make_pair(p, end);
  }
  return std::nullopt;
}

// End of the last non-overlapping "sgt_graph_<digits>" match, or nullopt.
std::optional<std::size_t> last_sgt_graph_end(std::string_view s) {
  constexpr std::string_view kWord = "sgt_graph_";
  std::optional<std::size_t> last;
  std::size_t p = s.find(kWord);
  while (p != std::string_view::npos) {
    std::size_t end = p + kWord.size();
    while (end < s.size() && is_digit(s[end])) ++end;
    if (end > p + kWord.size()) {
      last = end;
      p = s.find(kWord, end);
    } else {
      p = s.find(kWord, p + 1);
    }
  }
  return last;
}

std::string remove_all_lxslice(std::string_view s) {
  std::string out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t p = s.find(kLxsliceField, pos);
    if (p == std::string_view::npos) break;
    std::size_t end = p + kLxsliceField.size();
    while (end < s.size() && is_digit(s[end])) ++end;
    if (end == p + kLxsliceField.size()) {  // no digits: not a match, keep the text
      out.append(s.substr(pos, end - pos));
    } else {
      out.append(s.substr(pos, p - pos));
    }
    pos = end;
  }
  out.append(s.substr(std::min(pos, s.size())));
  return out;
}

}  // namespace

std::optional<DumpFileName> parse_dump_file_name(std::string_view basename) {
  if (ends_with(basename, kNpySuffix)) {
    return parse_indexed(basename, kNpySuffix, DumpNameKind::kNumpy);
  }
  if (ends_with(basename, kPbSuffix)) {
    return parse_indexed(basename, kPbSuffix, DumpNameKind::kStandard);
  }
  if (ends_with(basename, kQuantSuffix)) {
    return parse_indexed(basename, kQuantSuffix, DumpNameKind::kQuant);
  }
  return parse_offline(basename);
}

bool has_valid_task_type(const DumpFileName& name) {
  if (name.kind != DumpNameKind::kOffline || name.fields.size() != 9) return true;
  const std::string& text = name.fields[5];
  return text.size() == 1 && text[0] >= '0' && text[0] <= '0' + kMaxTaskType;
}

TaskMode task_mode(const DumpFileName& name) {
  if (name.kind != DumpNameKind::kOffline || name.fields.size() != 9 ||
      name.task_type != kTaskTypeFftsPlus || name.fields[5].size() != 1) {
    return TaskMode::kNormal;
  }
  // msaccucmp looks for "_lxslice" in the whole file name, op type included.
  return contains(name.basename, kLxsliceField) ? TaskMode::kFftsManual : TaskMode::kFftsAutomatic;
}

std::string_view dump_name_kind_name(DumpNameKind kind) {
  switch (kind) {
    case DumpNameKind::kOffline:
      return "offline";
    case DumpNameKind::kNumpy:
      return ".npy";
    case DumpNameKind::kStandard:
      return ".pb";
    case DumpNameKind::kQuant:
      return ".quant";
  }
  return "unknown";
}

std::string normalize_op_name(std::string_view op_name) {
  std::string out(op_name);
  std::replace(out.begin(), out.end(), '/', '_');
  std::replace(out.begin(), out.end(), '.', '_');
  return out;
}

std::string strip_slice_fields(std::string_view key, bool with_fusion_json) {
  if (with_fusion_json && contains(key, kLxsliceField)) return remove_all_lxslice(key);
  if (!contains(key, kLxsliceField) && !contains(key, kSgtField)) return std::string(key);
  std::string name(key);
  if (contains(name, kLxsliceField)) {
    // Only a slice suffix is cut; "_lxslice" in the middle stays (and then drops the file).
    const auto match = first_lxslice(name);
    if (match && match->second == name.size() && match->first > 0) {
      name.resize(match->first - 1);
    }
  }
  if (contains(name, kSgtField)) {
    // The sgt prefix ends one character (the '_') after the last "sgt_graph_<N>".
    const auto end = last_sgt_graph_end(name);
    if (end && *end != name.size()) name.erase(0, *end + 1);
  }
  return name;
}

std::optional<std::string> slice_op_key(std::string_view key, bool ffts, bool with_fusion_json) {
  if (ffts) return std::string(key);
  std::string stripped = strip_slice_fields(key, with_fusion_json);
  if (contains(stripped, kLxsliceField)) return std::nullopt;
  return stripped;
}

}  // namespace dumpcmp
