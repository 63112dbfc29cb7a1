#include "overflow/overflow_scan.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/timestamp.hpp"
#include "io/dump_file_name.hpp"
#include "io/dump_writer.hpp"
#include "io/inventory.hpp"
#include "math/element_source.hpp"
#include "overflow/overflow_messages.hpp"
#include "tensor/array_export.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kMagic = 0x5A5A5A5A;
constexpr uint64_t kOldLayoutSize = 2048;
constexpr uint64_t kInvalidId = 65535;

uint64_t u64_at(const uint8_t* d, uint64_t offset) { return load_unaligned<uint64_t>(d + offset); }
uint32_t u32_at(const uint8_t* d, uint64_t offset) { return load_unaligned<uint32_t>(d + offset); }

template <DType T>
void count_run(const uint8_t* data, int64_t n, TensorSpecials& s) {
  int64_t nan = 0, pos = 0, neg = 0, over = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (T == DType::kFloat16) {
      const uint16_t h = load_unaligned<uint16_t>(data + 2 * i) & 0x7fffu;
      nan += h > 0x7c00u;
      over += h >= 0x7bffu && h <= 0x7c00u;
    }
    const float v = decode_element(data, T, i);
    nan += T != DType::kFloat16 && std::isnan(v);
    pos += std::isinf(v) && v > 0;
    neg += std::isinf(v) && v < 0;
  }
  s.nan += nan;
  s.pos_inf += pos;
  s.neg_inf += neg;
  s.fp16_overflow += over;
}

float round_to_half(float f) { return decode_fp16(encode_fp16(f)); }

// numpy's str() of a scalar of `dtype`: the shortest digits that read back to the same value of
// that dtype, positional between 1e-4 and 1e16 with ".0" on integral values.
std::string scalar_text(double v, DType dtype) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (dtype == DType::kFloat16) v = round_to_half(static_cast<float>(v));
  if (dtype == DType::kFloat || dtype == DType::kBFloat16) v = static_cast<float>(v);
  auto same = [&](const char* text) {
    const double back = std::strtod(text, nullptr);
    if (dtype == DType::kFloat16) return round_to_half(static_cast<float>(back)) == v;
    if (dtype == DType::kFloat || dtype == DType::kBFloat16) return static_cast<float>(back) == v;
    return back == v;
  };
  char buf[64];
  const double a = std::fabs(v);
  const bool scientific = a != 0 && (a < 1e-4 || a >= 1e16);
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, scientific ? "%.*e" : "%.*g", scientific ? p - 1 : p, v);
    if (same(buf)) break;
  }
  std::string s = buf;
  if (!scientific && s.find('e') != std::string::npos) {
    // %g chose an exponent: the same shortest digits, positional (65504 in fp16 is "65500.0").
    char fixed[64];
    const auto r = std::to_chars(fixed, fixed + sizeof fixed, std::strtod(buf, nullptr),
                                 std::chars_format::fixed);
    s.assign(fixed, r.ptr);
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

struct DumpRef {
  std::string path;
  DumpFileName name;
};

std::vector<DumpRef> all_dumps(const std::string& dir) {
  std::vector<DumpRef> dumps;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    const std::string base = entry.path().filename().string();
    const std::optional<DumpFileName> name = parse_dump_file_name(base);
    if (name && name->kind == DumpNameKind::kOffline)
      dumps.push_back({entry.path().string(), *name});
  }
  if (ec) throw Error(ExitCode::kInput, dir + ": cannot read the directory");
  std::stable_sort(dumps.begin(), dumps.end(), [](const DumpRef& a, const DumpRef& b) {
    return a.name.timestamp != b.name.timestamp ? a.name.timestamp < b.name.timestamp
                                                : a.name.basename < b.name.basename;
  });
  return dumps;
}

std::string dtype_label(DType t) {
  const std::string_view name = dtype_numpy_name(t);
  return std::string(name.empty() ? dtype_wire_name(t) : name);
}

bool is_opdebug(const DumpRef& d) { return d.name.basename.rfind("Opdebug.Node_OpDebug.", 0) == 0; }

uint64_t field_number(const DumpFileName& name, size_t field) {
  if (field >= name.fields.size()) return 0;
  return std::strtoull(name.fields[field].c_str(), nullptr, 10);
}

// msaccucmp's section for one Opdebug file: the record lines, the dump of the flagged task and
// a line per tensor (the tensors are also written as .npy next to the summary).
std::string opdebug_section(int number, const DumpRef& debug, const std::vector<DumpRef>& dumps,
                            const std::string& output_dir) {
  std::vector<std::string> lines;
  const DumpFile file = read_dump_file(debug.path);
  std::vector<OverflowRecord> records;
  for (const TensorInfo& t : file.outputs) {
    std::string json;
    const std::vector<OverflowRecord> r =
        parse_opdebug(file.tensor_data(t), t.size, debug.path, &json);
    records.insert(records.end(), r.begin(), r.end());
    if (!json.empty()) {
      write_file_atomically(
          output_dir + "/" + debug.name.basename + ".output." + std::to_string(t.index) + ".json",
          json);
    }
  }
  for (const OverflowRecord& r : records) {
    lines.push_back(" [" + r.type + "][TaskId:" + std::to_string(r.task_id) +
                    "][StreamId:" + std::to_string(r.stream_id) + "][Status:" + r.status + "]");
  }
  lines.push_back(" [timestamp:" + debug.name.timestamp_text + "]");
  const DumpRef* match = nullptr;
  if (!records.empty()) {
    const OverflowRecord& r = records.back();
    for (const DumpRef& d : dumps) {
      if (is_opdebug(d) || field_number(d.name, 2) != r.task_id) continue;
      if (d.name.fields.size() >= 5 && field_number(d.name, 3) != r.stream_id) continue;
      if (d.name.fields.size() == 9 && r.context_id >= 0 &&
          field_number(d.name, 6) != static_cast<uint64_t>(r.context_id)) {
        continue;
      }
      match = &d;
      break;
    }
  }
  if (match) {
    const DumpFile dump = read_dump_file(match->path);
    for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
      for (const TensorInfo& t : dump.group(g)) {
        const std::string npy = match->name.basename + "." + std::string(tensor_group_name(g)) +
                                "." + std::to_string(t.index) + ".npy";
        lines.push_back(" " + npy);
        const int64_t n = shape_element_count(t.shape).value_or(0);
        if (!dtype_is_decodable(t.dtype) || n <= 0 ||
            static_cast<uint64_t>(n) * dtype_storage_size(t.dtype) > t.size) {
          lines.push_back(" -[Format: " + std::string(format_name(t.format)) + "] (no data)");
          continue;
        }
        LayoutMap map;
        map.count = n;
        const ExportedArray array = export_array(dump.tensor_data(t), t.dtype, map);
        write_npy(output_dir + "/" + npy, array.dtype, t.shape, array.data, array.bytes);
        double lo = INFINITY, hi = -INFINITY, sum = 0;
        bool nan = false;
        for (int64_t i = 0; i < n; ++i) {
          const double v = decode_element(dump.tensor_data(t), t.dtype, i);
          nan = nan || std::isnan(v);
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          sum += v;
        }
        const DType shown = numpy_array_dtype(t.dtype);
        const std::string dtype(dtype_numpy_name(shown));
        // numpy's mean of a float16 array is float16 (float32 accumulation).
        const double mean = sum / static_cast<double>(n);
        lines.push_back(" -[Format: " + std::string(format_name(t.format)) + "] [Shape: " +
                        format_dims(t.shape, "(", ", ", t.shape.size() == 1 ? ",)" : ")") +
                        "] [Dtype: " + dtype + "] [Max: " + scalar_text(nan ? NAN : hi, shown) +
                        "] [Min: " + scalar_text(nan ? NAN : lo, shown) +
                        "] [Mean: " + scalar_text(nan ? NAN : mean, shown) + "]");
      }
    }
    lines.insert(lines.begin(), "[" + match->name.op_type + "] " + dump.op_name);
  }
  lines.insert(lines.begin(), "=================================================[" +
                                  std::to_string(number) +
                                  "]==================================================");
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i) text += (i ? "\n" : "") + lines[i];
  return text;
}

}  // namespace

TensorSpecials count_specials(const DumpFile& file, const TensorInfo& t) {
  TensorSpecials s;
  const std::size_t width = dtype_storage_size(t.dtype);
  if (width == 0) return s;
  const int64_t n = std::min<int64_t>(shape_element_count(t.shape).value_or(0),
                                      static_cast<int64_t>(t.size / width));
  s.elements = n;
  const uint8_t* d = file.tensor_data(t);
  switch (t.dtype) {
    case DType::kFloat16:
      count_run<DType::kFloat16>(d, n, s);
      break;
    case DType::kFloat:
      count_run<DType::kFloat>(d, n, s);
      break;
    case DType::kBFloat16:
      count_run<DType::kBFloat16>(d, n, s);
      break;
    case DType::kDouble:
      count_run<DType::kDouble>(d, n, s);
      break;
    case DType::kFloat8E4M3FN:
      count_run<DType::kFloat8E4M3FN>(d, n, s);
      break;
    case DType::kFloat8E5M2:
      count_run<DType::kFloat8E5M2>(d, n, s);
      break;
    case DType::kHiFloat8:
      count_run<DType::kHiFloat8>(d, n, s);
      break;
    default:
      break;
  }
  return s;
}

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// One "key": value line of msaccucmp's json.dumps(indent=4).
void json_field(std::string& out, int indent, const std::string& key, const std::string& value,
                bool last) {
  out += std::string(static_cast<size_t>(indent), ' ') + "\"" + key + "\": " + value +
         (last ? "\n" : ",\n");
}

std::string json_string(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

std::vector<OverflowRecord> parse_opdebug(const uint8_t* d, uint64_t size, const std::string& where,
                                          std::string* json) {
  std::vector<OverflowRecord> out;
  if (size >= 24 && u32_at(d, 0) == kMagic) {
    const uint32_t version = u32_at(d, 4);
    static const char* const kAccTypes[] = {"AIC", "AIV", "AICPU", "SDMA"};
    const uint32_t acc = u32_at(d, 12);
    if (acc > 3)
      throw Error(ExitCode::kInput, where + ": invalid overflow type " + std::to_string(acc));
    static const std::vector<std::string> kAic = {
        "model_id", "stream_id", "task_id", "task_type", "context_id", "thread_id",
        "pc_start", "para_base", "core_id", "block_id",  "status"};
    static const std::vector<std::string> kSdma = {
        "model_id",  "stream_id", "task_id",  "task_type",  "context_id",
        "thread_id", "src_addr",  "dst_addr", "channel_id", "status"};
    static const std::vector<std::string> kAicpu = {"model_id",  "stream_id",  "task_id",
                                                    "task_type", "context_id", "cpu_id",
                                                    "thread_id", "status"};
    const std::vector<std::string>& names = acc <= 1 ? kAic : (acc == 2 ? kAicpu : kSdma);
    const bool status_list = acc <= 1 && version == 1;
    const uint64_t data = 24;
    if (size < data + 8 * (names.size() + (status_list ? 3 : 0))) {
      throw Error(ExitCode::kInput, where + ": the overflow record is truncated");
    }
    OverflowRecord r;
    r.type = kAccTypes[acc];
    std::string fields;
    for (size_t k = 0; k < names.size(); ++k) {
      const uint64_t v = u64_at(d, data + 8 * k);
      std::string text = std::to_string(v);
      if (names[k] == "pc_start" || names[k] == "para_base" || names[k] == "src_addr" ||
          names[k] == "dst_addr") {
        text = json_string(hex(v));
      }
      if (names[k] == "stream_id") r.stream_id = v;
      if (names[k] == "task_id") r.task_id = v;
      if (names[k] == "context_id") r.context_id = v == kInvalidId ? -1 : static_cast<int64_t>(v);
      if (names[k] == "thread_id") r.thread_id = v == kInvalidId ? -1 : static_cast<int64_t>(v);
      if (names[k] == "status") {
        if (status_list) {
          r.status = "[";
          text = "[\n";
          for (int j = 0; j < 4; ++j) {
            const std::string item =
                std::to_string(u64_at(d, data + 8 * (k + static_cast<size_t>(j))));
            r.status += (j ? ", " : "") + item;
            text += "                " + item + (j < 3 ? ",\n" : "\n");
          }
          r.status += "]";
          text += "            ]";
        } else {
          if (v == 0) throw Error(ExitCode::kInput, where + ": the overflow status is 0");
          r.status = text;
        }
      }
      json_field(fields, 12, names[k], text, k + 1 == names.size());
    }
    if (json) {
      std::string j = "{\n";
      json_field(j, 4, "magic", json_string(hex(kMagic)), false);
      json_field(j, 4, "version", std::to_string(version), false);
      j += "    \"acc_list\": {\n";
      json_field(j, 8, "valid", std::to_string(u32_at(d, 8)), false);
      json_field(j, 8, "acc_type", json_string(r.type), false);
      json_field(j, 8, "rsv", std::to_string(u32_at(d, 16)), false);
      json_field(j, 8, "data_len", std::to_string(u32_at(d, 20)), false);
      j += "        \"data\": {\n" + fields + "        }\n    }\n}";
      *json = j;
    }
    out.push_back(std::move(r));
    return out;
  }
  if (size != kOldLayoutSize) {
    throw Error(ExitCode::kInput, where + ": " + std::to_string(size) +
                                      " bytes is neither overflow record layout (magic 0x5A5A5A5A, "
                                      "or 2048 bytes)");
  }
  // DHA Atomic Add at 0, L2 Atomic Add at 128, AI Core at 256: (model, stream, task, ...) u64;
  // statuses at 512, 768 and 1024 + 16.
  const struct {
    const char* name;
    uint64_t info, status;
  } kinds[] = {{"DHA Atomic Add", 0, 512}, {"L2 Atomic Add", 128, 768}, {"AI Core", 256, 1040}};
  if (json) {
    std::string j = "{\n";
    for (const auto& k : kinds) {
      j += "    \"" + std::string(k.name) + "\": {\n";
      static const char* const kNames[] = {"model_id", "stream_id", "task_id", "task_type"};
      for (int f = 0; f < 4; ++f) {
        json_field(j, 8, kNames[f], std::to_string(u64_at(d, k.info + 8 * f)), false);
      }
      json_field(j, 8, "pc_start", json_string(hex(u64_at(d, k.info + 32))), false);
      json_field(j, 8, "para_base", json_string(hex(u64_at(d, k.info + 40))), false);
      if (k.info == 256) {
        json_field(j, 8, "kernel_code", json_string(hex(u64_at(d, 1024))), false);
        json_field(j, 8, "block_idx", std::to_string(u64_at(d, 1032)), false);
      }
      json_field(j, 8, "status", std::to_string(u64_at(d, k.status)), true);
      j += k.info == 256 ? "    }\n" : "    },\n";
    }
    *json = j + "}";
  }
  for (const auto& k : kinds) {
    const uint64_t status = u64_at(d, k.status);
    if (status == 0) continue;
    OverflowRecord r;
    r.type = k.name;
    r.stream_id = u64_at(d, k.info + 8);
    r.task_id = u64_at(d, k.info + 16);
    r.status = std::to_string(status);
    out.push_back(std::move(r));
  }
  if (out.empty()) throw Error(ExitCode::kInput, where + ": no overflow status is set");
  return out;
}

std::string analyse_overflow(const OverflowOptions& o, std::string& summary_path) {
  if (!fs::is_directory(o.dump_dir)) {
    throw Error(ExitCode::kInput, msg::overflow_dump_dir_invalid(o.dump_dir));
  }
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  const std::vector<DumpRef> dumps = all_dumps(o.dump_dir);
  std::string text;

  // msaccucmp's part: the Opdebug files, oldest first, the first top_n.
  int number = 0;
  for (const DumpRef& d : dumps) {
    if (!is_opdebug(d) || number >= o.top_n) continue;
    try {
      text += opdebug_section(++number, d, dumps, o.output_dir) + "\n";
    } catch (const Error& e) {
      text += "=================================================[" + std::to_string(number) +
              "]==================================================\n " + e.what() + "\n";
    }
  }

  // The scan of every dump, in data order, counted on all cores.
  std::vector<const DumpRef*> data;
  for (const DumpRef& d : dumps) {
    if (!is_opdebug(d)) data.push_back(&d);
  }
  std::vector<std::string> found(data.size());
  std::vector<char> flagged(data.size(), 0);
#pragma omp parallel for schedule(dynamic)
  for (size_t i = 0; i < data.size(); ++i) {
    try {
      const DumpFile file = read_dump_file(data[i]->path);
      std::string lines;
      for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
        for (const TensorInfo& t : file.group(g)) {
          const TensorSpecials s = count_specials(file, t);
          if (!s.any()) continue;
          lines += "  " + std::string(tensor_group_name(g)) + ":" + std::to_string(t.index) + " " +
                   dtype_label(t.dtype) + " " + shape_to_string(t.shape) + " NaN " +
                   std::to_string(s.nan) + ", +Inf " + std::to_string(s.pos_inf) + ", -Inf " +
                   std::to_string(s.neg_inf);
          if (t.dtype == DType::kFloat16) {
            lines += ", fp16 overflow (|x| >= 65504) " + std::to_string(s.fp16_overflow);
          }
          lines += " of " + std::to_string(s.elements) + "\n";
        }
      }
      // Counted on zeros where the file lost bytes while it was read: not its counts.
      if (const std::string damage = damaged_problem(file); !damage.empty()) {
        throw Error(ExitCode::kInput, damage);
      }
      if (!lines.empty()) {
        flagged[i] = 1;
        found[i] = "[" + data[i]->name.op_type + "] " + data[i]->name.op_name +
                   " [timestamp:" + data[i]->name.timestamp_text + "] " + data[i]->name.basename +
                   "\n" + lines;
      }
    } catch (const Error& e) {
      flagged[i] = 1;
      found[i] = data[i]->name.basename + ": cannot be read: " + e.what() + "\n";
    }
  }
  const int64_t total = std::count(flagged.begin(), flagged.end(), 1);
  text += "[dumpcmp] NaN / Inf / fp16 overflow in " + std::to_string(total) + " of " +
          std::to_string(data.size()) + " dump files; the first " +
          std::to_string(std::min<int64_t>(total, o.scan_first)) + ":\n";
  int64_t shown = 0;
  for (size_t i = 0; i < data.size() && shown < o.scan_first; ++i) {
    if (!flagged[i]) continue;
    text += "[" + std::to_string(++shown) + "] " + found[i];
  }
  summary_path = o.output_dir + "/overflow_summary_" + local_timestamp() + ".txt";
  write_file_atomically(summary_path, text);
  return text;
}

}  // namespace dumpcmp
