#include "stats/tensor_stats.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"
#include "core/text.hpp"
#include "io/dump_file_name.hpp"
#include "io/inventory.hpp"
#include "math/element_source.hpp"
#include "simd/decode_elements.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Elements decoded per step: the only buffer a tensor gets (256 KiB of float32).
constexpr int64_t kChunkElements = 64 * 1024;

// Everything the three NaN rules need, gathered in one pass.
struct Accumulator {
  int64_t count = 0, nan = 0, pos_inf = 0, neg_inf = 0;
  double sum = 0;          // finite elements
  double sum_sq = 0;       // finite elements
  double max = -kInf;      // elements that are not NaN (infinities included)
  double min = kInf;       // likewise
  bool first_nan = false;  // element 0 is NaN (CANN's AICPU writer starts max and min there)

  void add(double v) {
    if (count == 0) first_nan = std::isnan(v);
    ++count;
    if (std::isnan(v)) {
      ++nan;
      return;
    }
    max = std::max(max, v);
    min = std::min(min, v);
    if (std::isinf(v)) {
      ++(v > 0 ? pos_inf : neg_inf);
      return;
    }
    sum += v;
    sum_sq += v * v;
  }

  // A chunk's partial, added in chunk order (the same result for any thread count).
  void merge(const Accumulator& o) {
    if (o.count == 0) return;
    if (count == 0) first_nan = o.first_nan;
    count += o.count;
    nan += o.nan;
    pos_inf += o.pos_inf;
    neg_inf += o.neg_inf;
    sum += o.sum;
    sum_sq += o.sum_sq;
    max = std::max(max, o.max);
    min = std::min(min, o.min);
  }
};

// A decoded element as a double. The project's decoders give float32, exact for every type of 16
// bits or less; the wide integer types and float64 are read natively so that nothing rounds to
// float32 before the double accumulation (CANN's writers keep them in their own type).
// Three fp8 codes follow their formats rather than msaccucmp's readings, which the compare keeps:
// e4m3fn S.1111.111 is NaN (msaccucmp reads 480), e5m2 and hifloat8 negative infinities keep
// their sign (msaccucmp reads +inf).
double element_value(const uint8_t* d, DType t, int64_t i) {
  switch (t) {
    case DType::kDouble:
      return load_unaligned<double>(d + 8 * i);
    case DType::kInt32:
      return load_unaligned<int32_t>(d + 4 * i);
    case DType::kUInt32:
      return load_unaligned<uint32_t>(d + 4 * i);
    case DType::kInt64:
      return static_cast<double>(load_unaligned<int64_t>(d + 8 * i));
    case DType::kUInt64:
      return static_cast<double>(load_unaligned<uint64_t>(d + 8 * i));
    case DType::kFloat8E4M3FN:
      if ((d[i] & 0x7Fu) == 0x7Fu) return kNaN;
      break;
    case DType::kFloat8E5M2:
      if ((d[i] & 0x7Fu) == 0x7Cu) return (d[i] & 0x80u) ? -kInf : kInf;
      break;
    case DType::kHiFloat8:
      if (d[i] == 0xEFu) return -kInf;
      break;
    default:
      break;
  }
  return decode_element(d, t, i);
}

// The types decode_elements turns into exact float32 a chunk at a time (F16C for float16).
bool chunk_decodable(DType t) {
  switch (t) {
    case DType::kFloat:
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kBool:
    case DType::kUInt1:
      return true;
    default:
      return false;
  }
}

bool integral(DType t) {
  switch (t) {
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
    case DType::kBool:
    case DType::kUInt1:
      return true;
    default:
      return false;
  }
}

Accumulator accumulate(const uint8_t* data, DType dtype, int64_t count) {
  Accumulator total;
  std::vector<float> buffer;
  if (chunk_decodable(dtype))
    buffer.resize(static_cast<std::size_t>(std::min(count, kChunkElements)));
  ElementSource src;
  src.data = data;
  src.dtype = dtype;
  src.count = count;
  for (int64_t begin = 0; begin < count; begin += kChunkElements) {
    const int64_t n = std::min(kChunkElements, count - begin);
    Accumulator chunk;
    if (chunk_decodable(dtype)) {
      decode_elements(src, begin, n, buffer.data());
      for (int64_t i = 0; i < n; ++i) chunk.add(buffer[static_cast<std::size_t>(i)]);
    } else {
      for (int64_t i = 0; i < n; ++i) chunk.add(element_value(data, dtype, begin + i));
    }
    total.merge(chunk);
  }
  return total;
}

// The text std::ostream's default precision gives (printf "%.<digits>g"), read back.
double printed(double v, int digits) {
  if (digits <= 0 || !std::isfinite(v)) return v;
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return std::strtod(text, nullptr);
}

std::string shape_text(const Shape& shape, StatsFlavor flavor) {
  if (flavor == StatsFlavor::kMindSpore) return format_dims(shape, "(", ",", ")");
  return shape.empty() ? "-" : format_dims(shape, "", "x", "");
}

std::string dtype_text(DType t, StatsFlavor flavor) {
  std::string_view name = dtype_wire_name(t);
  // MindSpore names dtypes as numpy does; msaccucmp's numpy readings of DT_UNDEFINED (int8) and
  // DT_RESOURCE (int64) are not names of their own.
  if (flavor == StatsFlavor::kMindSpore && t != DType::kUndefined && t != DType::kResource &&
      !dtype_numpy_name(t).empty()) {
    name = dtype_numpy_name(t);
  }
  if (name.empty()) return "DT_" + std::to_string(static_cast<int32_t>(t));
  return std::string(name);
}

std::string io_text(TensorGroup group, StatsFlavor flavor) {
  const bool input = group == TensorGroup::kInput;
  if (flavor == StatsFlavor::kMindSpore) return input ? "input" : "output";
  return input ? "Input" : "Output";
}

// The op fields a stats file of this dump would carry.
struct OpIdentity {
  std::string op_type, op_name, task_id, stream_id;
  int64_t timestamp = 0;
  std::string format;  // from a per-tensor .npy name; empty: the tensor's own
  int slot = -1;       // a golden .npy/.pb/.quant name's output index; -1: the tensor's index
};

OpIdentity identity_of(const std::string& basename) {
  OpIdentity id;
  // An offline dump: the CANN stats file of it is "<basename>.csv" (docs/formats.md §6).
  if (const std::optional<CannStatsName> cann = parse_cann_stats_file_name(basename + ".csv")) {
    id.op_type = cann->op_type;
    id.op_name = cann->op_name;
    id.task_id = cann->task_id;
    id.stream_id = cann->stream_id;
    id.timestamp = cann->timestamp;
    return id;
  }
  // A golden op.idx.ts.{npy,pb,quant}: no op type, task or stream.
  if (const std::optional<DumpFileName> name = parse_dump_file_name(basename)) {
    id.op_type = name->op_type;
    id.op_name = name->op_name;
    id.timestamp = parse_natural(name->timestamp_text).value_or(0);
    if (name->kind != DumpNameKind::kOffline) id.slot = name->output_index;
    return id;
  }
  id.op_name = basename;
  return id;
}

// A per-tensor .npy name: type.name.task.stream.timestamp.(input|output).slot[.format].npy.
struct TensorNpyName {
  OpIdentity id;
  TensorGroup group = TensorGroup::kOutput;
};

std::optional<TensorNpyName> parse_tensor_npy_name(std::string_view basename) {
  constexpr std::string_view kSuffix = ".npy";
  if (basename.size() <= kSuffix.size() ||
      basename.substr(basename.size() - kSuffix.size()) != kSuffix) {
    return std::nullopt;
  }
  const std::string stem(basename.substr(0, basename.size() - kSuffix.size()));
  std::vector<std::string> f;
  std::size_t start = 0;
  for (std::size_t dot = stem.find('.'); dot != std::string::npos; dot = stem.find('.', start)) {
    f.push_back(stem.substr(start, dot - start));
    start = dot + 1;
  }
  f.push_back(stem.substr(start));
  if (f.size() != 7 && f.size() != 8) return std::nullopt;
  if (f[0].empty() || f[1].empty() || (f[5] != "input" && f[5] != "output")) return std::nullopt;
  const std::optional<int64_t> task = parse_natural(f[2]);
  const std::optional<int64_t> stream = parse_natural(f[3]);
  const std::optional<int64_t> timestamp = parse_natural(f[4]);
  const std::optional<int64_t> slot = parse_natural(f[6], 9);
  if (!task || !stream || !timestamp || !slot) return std::nullopt;
  TensorNpyName name;
  name.id.op_type = f[0];
  name.id.op_name = f[1];
  name.id.task_id = f[2];
  name.id.stream_id = f[3];
  name.id.timestamp = *timestamp;
  name.id.slot = static_cast<int>(*slot);
  if (f.size() == 8) name.id.format = f[7];
  name.group = f[5] == "input" ? TensorGroup::kInput : TensorGroup::kOutput;
  return name;
}

StatsRow row_of(const DumpFile& dump, const TensorInfo& t, const OpIdentity& id,
                const TensorStatsOptions& options) {
  StatsRow row;
  row.op_type = id.op_type;
  row.op_name = id.op_name;
  row.task_id = id.task_id;
  row.stream_id = id.stream_id;
  row.timestamp = id.timestamp;
  row.io = io_text(t.group, options.flavor);
  row.slot = std::to_string(id.slot >= 0 ? id.slot : t.index);
  row.data_size = t.size;
  row.dtype = dtype_text(t.dtype, options.flavor);
  if (options.flavor == StatsFlavor::kCann) {
    row.format = id.format.empty() ? std::string(format_name(t.format)) : id.format;
    if (row.format.empty()) row.format = "-";
  }
  row.shape = shape_text(t.shape, options.flavor);
  const TensorStatistics s = tensor_statistics(dump.tensor_data(t), t.size, t.dtype, options);
  row.max = s.max;
  row.min = s.min;
  row.mean = s.mean;
  row.l2norm = s.l2norm;
  row.count = s.count;
  row.nan_count = s.nan_count;
  row.neg_inf_count = s.neg_inf_count;
  row.pos_inf_count = s.pos_inf_count;
  row.file = dump.path;
  return row;
}

struct Listing {
  std::vector<std::string> tensor_npy;  // per-tensor .npy names
  bool inventory_dumps = false;         // some name the inventory takes
};

Listing list_tensor_dumps(const std::string& dir) {
  Listing listing;
  std::error_code ec;
  const bool mapping = fs::is_regular_file(fs::path(dir) / "mapping.csv", ec);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const std::string name = it->path().filename().string();
    if (parse_tensor_npy_name(name)) {
      listing.tensor_npy.push_back(name);
      continue;
    }
    if (parse_dump_file_name(name)) {
      listing.inventory_dumps = true;
      continue;
    }
    // Hashed long names resolve through mapping.csv (io/inventory.hpp).
    std::string_view stem = name;
    if (stem.size() > 4 && stem.substr(stem.size() - 4) == ".npy") stem.remove_suffix(4);
    if (mapping && !stem.empty() &&
        std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      listing.inventory_dumps = true;
    }
  }
  if (ec) throw format_error(dir, "cannot list the directory: " + ec.message());
  std::sort(listing.tensor_npy.begin(), listing.tensor_npy.end());
  return listing;
}

// One unit of work: a dump file and what its name says.
struct Job {
  std::string path;
  std::string basename;     // the real name (mapping.csv resolved)
  bool tensor_npy = false;  // a per-tensor .npy, named `npy`
  TensorNpyName npy;
};

struct JobResult {
  std::vector<StatsRow> rows;
  std::optional<StatsProblem> problem;
};

JobResult run_job(const Job& job, const TensorStatsOptions& options) {
  JobResult result;
  try {
    const DumpFile dump = read_dump_file(job.path);
    if (job.tensor_npy) {
      TensorInfo as_named = dump.outputs.at(0);
      as_named.group = job.npy.group;
      result.rows.push_back(row_of(dump, as_named, job.npy.id, options));
      result.rows.back().line = 1;
    } else {
      result.rows = stats_rows_of_dump(dump, job.basename, options);
    }
    if (std::string damage = damaged_problem(dump); !damage.empty()) {
      result.rows.clear();
      throw Error(ExitCode::kInput, damage);
    }
  } catch (const std::exception& e) {
    result.problem = StatsProblem{job.path, 0, std::string("not read: ") + e.what()};
  }
  return result;
}

}  // namespace

std::string_view stats_nan_rule_name(StatsNanRule rule) {
  switch (rule) {
    case StatsNanRule::kCannAicpu:
      return "cann-aicpu";
    case StatsNanRule::kCannRuntime:
      return "cann-runtime";
    case StatsNanRule::kPropagate:
      return "propagate";
  }
  return "";
}

std::optional<StatsNanRule> parse_stats_nan_rule(std::string_view text) {
  for (StatsNanRule rule :
       {StatsNanRule::kCannAicpu, StatsNanRule::kCannRuntime, StatsNanRule::kPropagate}) {
    if (text == stats_nan_rule_name(rule)) return rule;
  }
  return std::nullopt;
}

StatsNanRule TensorStatsOptions::rule() const {
  if (nan_rule) return *nan_rule;
  return flavor == StatsFlavor::kCann ? StatsNanRule::kCannAicpu : StatsNanRule::kPropagate;
}

bool stats_dtype_supported(DType dtype) {
  switch (dtype) {
    case DType::kFloat:
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kDouble:
    case DType::kFloat8E4M3FN:
    case DType::kFloat8E5M2:
    case DType::kHiFloat8:
      return true;
    default:
      return integral(dtype);
  }
}

TensorStatistics tensor_statistics(const uint8_t* data, uint64_t bytes, DType dtype,
                                   const TensorStatsOptions& options) {
  TensorStatistics out;
  if (!stats_dtype_supported(dtype)) return out;
  // Every stored element, as the device's writer counts them: bytes / element size (uint1: 8 a
  // byte); a partial trailing element is not read.
  const auto item = static_cast<uint64_t>(dtype_storage_size(dtype));
  const auto count = static_cast<int64_t>(dtype == DType::kUInt1 ? bytes * 8 : bytes / item);
  const Accumulator a = accumulate(data, dtype, count);
  out.count = a.count;
  out.nan_count = a.nan;
  out.neg_inf_count = a.neg_inf;
  out.pos_inf_count = a.pos_inf;
  if (a.count == 0) return out;

  const StatsNanRule rule = options.rule();
  const bool any_nan = a.nan > 0;
  const bool both_inf = a.pos_inf > 0 && a.neg_inf > 0;
  const double finite_mean =
      a.count > a.nan + a.pos_inf + a.neg_inf
          ? a.sum / static_cast<double>(a.count - a.nan - a.pos_inf - a.neg_inf)
          : kNaN;
  double max = a.max, min = a.min, mean = finite_mean;
  switch (rule) {
    case StatsNanRule::kCannAicpu:
      if (a.first_nan) max = min = kNaN;
      if (a.pos_inf > 0 && a.neg_inf == 0) {
        mean = kInf;
      } else if (a.neg_inf > 0 && a.pos_inf == 0) {
        mean = -kInf;
      } else if (any_nan || both_inf) {
        mean = kNaN;
      }
      break;
    case StatsNanRule::kCannRuntime:
    case StatsNanRule::kPropagate:
      // The two differ only in max and min: NaN when every element is (runtime), or any (numpy).
      if (rule == StatsNanRule::kCannRuntime ? a.nan == a.count : any_nan) max = min = kNaN;
      if (any_nan || both_inf) {
        mean = kNaN;
      } else if (a.pos_inf > 0) {
        mean = kInf;
      } else if (a.neg_inf > 0) {
        mean = -kInf;
      }
      break;
  }
  // numpy's norm: NaN with any NaN, else inf with any infinity (no writer of the CANN rules has
  // an l2norm column; the same rule serves all three).
  const double l2norm = any_nan ? kNaN : (a.pos_inf + a.neg_inf > 0 ? kInf : std::sqrt(a.sum_sq));

  // CANN's writers print integer maxima and minima in their own type (every digit); MindSpore
  // prints every statistic as a double.
  const int digits = options.significant_digits;
  const bool exact_extrema = options.flavor == StatsFlavor::kCann && integral(dtype);
  out.max = exact_extrema ? max : printed(max, digits);
  out.min = exact_extrema ? min : printed(min, digits);
  out.mean = printed(mean, digits);
  out.l2norm = printed(l2norm, digits);
  return out;
}

std::vector<StatsRow> stats_rows_of_dump(const DumpFile& dump, const std::string& basename,
                                         const TensorStatsOptions& options) {
  const OpIdentity id = identity_of(basename);
  std::vector<StatsRow> rows;
  std::size_t line = 0;
  for (TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
    for (const TensorInfo& t : dump.group(g)) {
      rows.push_back(row_of(dump, t, id, options));
      rows.back().line = ++line;
    }
  }
  return rows;
}

bool is_tensor_dump_directory(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  try {
    const Listing listing = list_tensor_dumps(dir);
    return listing.inventory_dumps || !listing.tensor_npy.empty();
  } catch (const Error&) {
    return false;
  }
}

StatsTable stats_from_tensor_dumps(const std::string& dir, const TensorStatsOptions& options) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw format_error(dir, "not a directory of tensor dumps");
  const Listing listing = list_tensor_dumps(dir);
  if (!listing.inventory_dumps && listing.tensor_npy.empty()) {
    throw format_error(dir,
                       "holds no tensor dump (no dump file the inventory takes, no "
                       "<op type>.<op name>.<task id>.<stream id>.<timestamp>.<input|output>."
                       "<slot>[.<format>].npy)");
  }
  std::vector<Job> jobs;
  if (listing.inventory_dumps) {
    const Inventory inventory = Inventory::scan(dir);
    for (const OpDumps& op : inventory.ops()) {
      const DumpEntry& entry = op.chosen();
      jobs.push_back(Job{entry.path, entry.name.basename, false, {}});
    }
  }
  std::vector<Job> npy_jobs;
  for (const std::string& name : listing.tensor_npy) {
    npy_jobs.push_back(
        Job{(fs::path(dir) / name).string(), name, true, *parse_tensor_npy_name(name)});
  }
  std::stable_sort(npy_jobs.begin(), npy_jobs.end(), [](const Job& a, const Job& b) {
    const OpIdentity& x = a.npy.id;
    const OpIdentity& y = b.npy.id;
    const int gx = a.npy.group == TensorGroup::kInput ? 0 : 1;
    const int gy = b.npy.group == TensorGroup::kInput ? 0 : 1;
    return std::tie(x.timestamp, x.op_name, gx, x.slot) <
           std::tie(y.timestamp, y.op_name, gy, y.slot);
  });
  for (Job& job : npy_jobs) jobs.push_back(std::move(job));

  // Files are read and reduced on all cores; each job's rows land in its own slot, so the table
  // is the same for any thread count.
  std::vector<JobResult> results(jobs.size());
  const auto n = static_cast<int64_t>(jobs.size());
  const int threads = options.threads > 0 ? options.threads : omp_get_num_procs();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t i = 0; i < n; ++i) {
    results[static_cast<std::size_t>(i)] = run_job(jobs[static_cast<std::size_t>(i)], options);
  }
  StatsTable table;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    JobResult& r = results[i];
    if (r.problem) {
      table.problems.push_back(std::move(*r.problem));
      continue;
    }
    for (StatsRow& row : r.rows) table.rows.push_back(std::move(row));
    table.files.push_back(jobs[i].path);
  }
  return table;
}

StatsFlavor stats_flavor_of(const StatsTable& table) {
  if (table.rows.empty()) return StatsFlavor::kCann;
  const StatsRow& row = table.rows.front();
  if (row.io == "Input" || row.io == "Output" || row.dtype.rfind("DT_", 0) == 0) {
    return StatsFlavor::kCann;
  }
  return StatsFlavor::kMindSpore;
}

}  // namespace dumpcmp
