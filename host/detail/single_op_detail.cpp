// The files of single-operator detail mode (docs/algorithms.md §5; msaccucmp's detail_writer.py),
// written in one streaming pass: element values are decoded through the layout maps, the error is
// computed in numpy's promoted dtype (fp16 - fp16 stays fp16), and each max_line block of rows is
// formatted and written by its own thread.
#include "detail/single_op_detail.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "convert/array_export.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "detail/numpy_select.hpp"
#include "fusion/fusion_rule.hpp"
#include "io/dump_writer.hpp"
#include "layout/materialize.hpp"
#include "math/element_decode.hpp"
#include "math/element_source.hpp"

namespace dumpcmp {

std::string DetailRequest::file_prefix() const {
  std::string name = op_name;
  std::replace(name.begin(), name.end(), '/', '_');
  return name + (input ? "_input_" : "_output_") + std::to_string(index);
}

std::string DetailRequest::tensor_id() const {
  return op_name + (input ? ":input:" : ":output:") + std::to_string(index);
}

namespace {

constexpr size_t kMaxFileName = 255;  // msaccucmp's LINUX_FILE_NAME_MAX_LEN
constexpr const char* kMappingFile = "simple_op_mapping.csv";

// ---- numbers ---------------------------------------------------------------------------------

// The dtype numpy computes |x - y| and |x - y| / |y| in, for the array dtypes msaccucmp holds.
enum class Arith { kBool, kHalf, kFloat, kDouble, kInt };

enum class Kind { kBool, kHalf, kFloat, kDouble, kSmallInt /* 8 bit */, kMidInt /* 16 */, kBigInt };

Kind kind_of(DType t) {
  switch (t) {
    case DType::kBool:
      return Kind::kBool;
    case DType::kFloat16:
      return Kind::kHalf;
    case DType::kFloat:
    case DType::kBFloat16:  // widened to float32 when parsed
      return Kind::kFloat;
    case DType::kDouble:
    case DType::kFloat8E4M3FN:  // decoded to Python floats
    case DType::kFloat8E5M2:
    case DType::kHiFloat8:
    case DType::kComplex64:
    case DType::kComplex128:
      return Kind::kDouble;
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kUInt1:
    case DType::kUndefined:
      return Kind::kSmallInt;
    case DType::kInt16:
    case DType::kUInt16:
      return Kind::kMidInt;
    default:
      return Kind::kBigInt;
  }
}

// numpy's promotion for the pairs that occur (bool promotes to the other side).
Arith promote(DType a, DType b) {
  Kind x = kind_of(a), y = kind_of(b);
  if (x == Kind::kBool && y == Kind::kBool) return Arith::kBool;
  if (x == Kind::kBool) x = y;
  if (y == Kind::kBool) y = x;
  auto is_int = [](Kind k) {
    return k == Kind::kSmallInt || k == Kind::kMidInt || k == Kind::kBigInt;
  };
  if (is_int(x) && is_int(y)) return Arith::kInt;
  if (x == Kind::kDouble || y == Kind::kDouble) return Arith::kDouble;
  if (!is_int(x) && !is_int(y)) {  // two floats: the wider
    return x == Kind::kFloat || y == Kind::kFloat ? Arith::kFloat : Arith::kHalf;
  }
  const Kind f = is_int(x) ? y : x, i = is_int(x) ? x : y;  // a float and an int
  if (f == Kind::kHalf && i == Kind::kSmallInt) return Arith::kHalf;
  if (i == Kind::kBigInt) return Arith::kDouble;
  return Arith::kFloat;
}

float round_half(float f) { return decode_fp16(encode_fp16(f)); }

struct ErrorPair {
  double abs, rel;
};

ErrorPair errors(Arith arith, double x, double y) {
  switch (arith) {
    case Arith::kHalf: {
      const float a = std::fabs(round_half(static_cast<float>(x) - static_cast<float>(y)));
      return {a, round_half(a / std::fabs(static_cast<float>(y)))};
    }
    case Arith::kFloat: {
      const float a = std::fabs(static_cast<float>(x) - static_cast<float>(y));
      return {a, a / std::fabs(static_cast<float>(y))};
    }
    case Arith::kInt: {
      const double a = std::fabs(x - y);  // int arithmetic, exact below 2^53
      return {a, a / std::fabs(y)};       // true_divide: float64
    }
    case Arith::kDouble: {
      const double a = std::fabs(x - y);
      return {a, a / std::fabs(y)};
    }
    case Arith::kBool:
      break;
  }
  return {NAN, NAN};
}

double sanitized(double v) { return std::isfinite(v) ? v : 0.0; }

// Element i of one side, exactly as its numpy array holds it.
double value_at(const DetailSide& side, int64_t i) {
  const int64_t s = side.map.identity ? i : side.map.source_index(i);
  if (s < 0) return 0.0;
  const uint8_t* d = side.data;
  switch (side.dtype) {
    case DType::kDouble:
      return load_unaligned<double>(d + 8 * s);
    case DType::kComplex128:
      return load_unaligned<double>(d + 16 * s);
    case DType::kInt64:
      return static_cast<double>(load_unaligned<int64_t>(d + 8 * s));
    case DType::kUInt64:
      return static_cast<double>(load_unaligned<uint64_t>(d + 8 * s));
    case DType::kInt32:
      return load_unaligned<int32_t>(d + 4 * s);
    case DType::kUInt32:
      return load_unaligned<uint32_t>(d + 4 * s);
    default:
      return decode_element(d, side.dtype, s);
  }
}

// ---- text ------------------------------------------------------------------------------------

// Python's '%.6f' (to_chars is correctly rounded like printf; NaN never prints a sign).
void append_fixed(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  char buf[512];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 6);
  out.append(buf, r.ptr);
}

std::string fixed(double v) {
  std::string s;
  append_fixed(s, v);
  return s;
}

void append_int(std::string& out, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Coordinates: the row-major multi-index of the shape padded with 1s to 4 dims, space-joined.
class Coordinates {
 public:
  Coordinates(const Shape& shape, int64_t start) : dims_(shape) {
    if (dims_.size() < 4) dims_.resize(4, 1);
    at_.assign(dims_.size(), 0);
    for (size_t k = dims_.size(); k-- > 0;) {
      if (dims_[k] > 0) {
        at_[k] = start % dims_[k];
        start /= dims_[k];
      }
    }
  }
  void append(std::string& out) const {
    for (size_t k = 0; k < at_.size(); ++k) {
      if (k) out += ' ';
      append_int(out, at_[k]);
    }
  }
  void next() {
    for (size_t k = at_.size(); k-- > 0;) {
      if (++at_[k] < dims_[k]) return;
      at_[k] = 0;
    }
  }

 private:
  Shape dims_;
  std::vector<int64_t> at_;
};

void append_bool(std::string& out, double v) { out += v != 0.0 ? "True" : "False"; }

struct Ranked {
  double key;
  int64_t index;
};
// Larger error first; ties by the larger index, as msaccucmp's sort of (error, Index) in reverse.
// (Which of several equal errors make the cut is left to numpy's argpartition there; here the
// same rule decides, so the result is deterministic.)
bool ranks_before(const Ranked& a, const Ranked& b) {
  return a.key > b.key || (a.key == b.key && a.index > b.index);
}

// The N best of a stream, kept as a heap whose top is the worst kept.
class TopN {
 public:
  explicit TopN(size_t n) : n_(n) {}
  void offer(double key, int64_t index) {
    if (n_ == 0) return;
    const Ranked r{key, index};
    if (heap_.size() < n_) {
      heap_.push_back(r);
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    } else if (ranks_before(r, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), ranks_before);
      heap_.back() = r;
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    }
  }
  void merge(const TopN& other) {
    for (const Ranked& r : other.heap_) offer(r.key, r.index);
  }
  std::vector<Ranked> sorted() const {
    std::vector<Ranked> out = heap_;
    std::sort(out.begin(), out.end(), ranks_before);
    return out;
  }

 private:
  size_t n_;
  std::vector<Ranked> heap_;
};

struct MinMax {
  double min_abs = INFINITY, max_abs = -INFINITY, min_rel = INFINITY, max_rel = -INFINITY;
  void add(double a, double r) {
    min_abs = std::min(min_abs, a);
    max_abs = std::max(max_abs, a);
    min_rel = std::min(min_rel, r);
    max_rel = std::max(max_rel, r);
  }
  void merge(const MinMax& o) {
    min_abs = std::min(min_abs, o.min_abs);
    max_abs = std::max(max_abs, o.max_abs);
    min_rel = std::min(min_rel, o.min_rel);
    max_rel = std::max(max_rel, o.max_rel);
  }
};

// ---- files -----------------------------------------------------------------------------------

// msaccucmp's naming: a name of 255 characters or more becomes
// "<dump file with '/' and '.' -> '_'>_<type>_<k>[_<start>]<suffix>" (or a uuid3 when that is
// still too long), recorded in simple_op_mapping.csv as "new,old".
class FileNames {
 public:
  FileNames(const DetailRequest& request, const DetailPair& pair)
      : request_(request), dump_file_(pair.dump_file) {}

  std::string path(const std::string& name, const std::string& suffix, int64_t start = -1) {
    std::string chosen = name;
    if (name.size() >= kMaxFileName) {
      std::string base = dump_file_;
      std::replace(base.begin(), base.end(), '/', '_');
      std::replace(base.begin(), base.end(), '.', '_');
      chosen = base + (request_.input ? "_input_" : "_output_") + std::to_string(request_.index);
      if (start >= 0) chosen += "_" + std::to_string(start);
      chosen += suffix;
      if (chosen.size() >= kMaxFileName) {
        std::string uuid = uuid3_dns(name);
        uuid.erase(std::remove(uuid.begin(), uuid.end(), '-'), uuid.end());
        chosen = uuid + suffix;
      }
      mapping_ += chosen + "," + name + "\n";
    }
    paths_.push_back(request_.output_dir + "/" + chosen);
    return paths_.back();
  }
  const std::vector<std::string>& paths() const { return paths_; }

  void save_mapping() const {
    if (mapping_.empty()) return;
    const std::string path = request_.output_dir + "/" + kMappingFile;
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (!f || std::fwrite(mapping_.data(), 1, mapping_.size(), f) != mapping_.size()) {
      if (f) std::fclose(f);
      throw Error(ExitCode::kInput, path + ": cannot write the name mapping");
    }
    std::fclose(f);
  }

 private:
  const DetailRequest& request_;
  std::string dump_file_;
  std::string mapping_;
  std::vector<std::string> paths_;  // every output named so far
};

// delete_old_detail_result_files: <prefix>_summary.txt and <prefix>_*.csv / .npy, and the long
// names simple_op_mapping.csv records for them.
void delete_old_files(const DetailRequest& request) {
  namespace fs = std::filesystem;
  const std::string prefix = request.file_prefix();
  auto ours = [&](const std::string& name) {
    if (name == prefix + "_summary.txt") return true;
    if (name.rfind(prefix + "_", 0) != 0) return false;
    const auto ends = [&](const char* s) {
      const size_t n = std::strlen(s);
      return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
    };
    return ends(".csv") || ends(".npy");
  };
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(request.output_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != kMappingFile && ours(name)) fs::remove(entry.path(), ec);
  }
  const std::string mapping = request.output_dir + "/" + kMappingFile;
  std::FILE* f = std::fopen(mapping.c_str(), "rb");
  if (!f) return;
  std::string text, kept;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    const size_t comma = line.find(',');
    if (comma != std::string::npos && ours(line.substr(comma + 1))) {
      fs::remove(request.output_dir + "/" + line.substr(0, comma), ec);
    } else if (!line.empty()) {
      kept += line + "\n";
    }
  }
  fs::remove(mapping, ec);
  if (!kept.empty()) {
    AtomicFile out(mapping);
    out.write(kept);
    out.commit();
  }
}

// <prefix>.npy: the NPU tensor after conversion, as msaccucmp's array.
void write_npu_array(const std::string& path, const DetailSide& side, const Shape& shape,
                     std::vector<std::string>& warnings) {
  const ExportedArray array = export_array(side.data, side.dtype, side.map);
  try {
    write_npy(path, array.dtype, shape, array.data, array.bytes);
  } catch (const Error& e) {
    warnings.push_back(path + ": " + e.what());
  }
}

std::string header_line(const DetailPair& pair) {
  return "Index," + pair.format + ",NPUDump,GroundTruth,AbsoluteError,RelativeError\n";
}

// The per-element row of detail_writer._write_one_detail.
void append_row(std::string& out, int64_t index, const Coordinates& at, double x, double y,
                const ErrorPair& e, bool boolean) {
  append_int(out, index);
  out += ',';
  at.append(out);
  out += ',';
  if (boolean) {
    append_bool(out, x);
    out += "\t,";
    append_bool(out, y);
    out += "\t,-\t,-\n";
    return;
  }
  append_fixed(out, x);
  out += "\t,";
  append_fixed(out, y);
  out += "\t,";
  append_fixed(out, std::isinf(e.abs) ? NAN : e.abs);  // inf is sanitised to NaN first
  if (!std::isfinite(e.rel)) {
    out += "\t,-\n";
    return;
  }
  out += "\t,";
  append_fixed(out, e.rel);
  out += "\t\n";
}

// A top-N line: every number '%.6f' then "nan" and "inf" replaced by '-' (msaccucmp's TopN).
std::string top_line(int64_t index, const Shape& shape, double x, double y, const ErrorPair& e,
                     bool boolean) {
  std::string line;
  append_int(line, index);
  line += ',';
  Coordinates(shape, index).append(line);
  line += ',';
  if (boolean) {
    append_bool(line, x);
    line += "\t,";
    append_bool(line, y);
  } else {
    append_fixed(line, x);
    line += "\t,";
    append_fixed(line, y);
  }
  line += "\t,";
  append_fixed(line, std::isinf(e.abs) ? NAN : e.abs);
  line += "\t,";
  append_fixed(line, std::isinf(e.rel) ? NAN : e.rel);
  line += "\t\n";
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (line.compare(i, 3, "nan") == 0 || line.compare(i, 3, "inf") == 0) {
      out += '-';
      i += 3;
    } else {
      out += line[i++];
    }
  }
  return out;
}

// The cells of _show_top_n's console table: the CSV lines split at commas, cells trimmed.
TopTable top_table(const char* title, const std::string& header,
                   const std::vector<std::string>& lines) {
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    size_t begin = 0;
    for (;;) {
      const size_t comma = line.find(',', begin);
      std::string cell =
          line.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
      const size_t b = cell.find_first_not_of(" \t\n");
      const size_t e = cell.find_last_not_of(" \t\n");
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      if (comma == std::string::npos) return cells;
      begin = comma + 1;
    }
  };
  TopTable table{title, {split(header)}};
  for (const std::string& l : lines) table.rows.push_back(split(l));
  return table;
}

}  // namespace

void remove_single_op_detail_files(const DetailRequest& request) {
  delete_old_files(request);
  std::error_code ec;
  std::filesystem::remove(request.output_dir + "/" + request.file_prefix() + ".npy", ec);
}

DetailSummary write_single_op_detail(const DetailRequest& request, const DetailPair& pair) {
  const int64_t n = pair.mine.map.count;
  if (pair.golden.map.count != n) {
    throw Error(ExitCode::kInput, "[" + request.op_name + "] the two tensors hold " +
                                      std::to_string(n) + " and " +
                                      std::to_string(pair.golden.map.count) + " elements");
  }
  std::error_code ec;
  std::filesystem::create_directories(request.output_dir, ec);
  delete_old_files(request);
  FileNames names(request, pair);
  const std::string prefix = request.file_prefix();
  DetailSummary result;
  write_npu_array(names.path(prefix + ".npy", ".npy"), pair.mine, pair.shape, result.warnings);

  const Arith arith = promote(pair.mine.dtype, pair.golden.dtype);
  const bool boolean = arith == Arith::kBool;
  const int64_t max_line = std::max<int64_t>(1, request.max_line);
  // msaccucmp writes one (header-only) file for an empty tensor.
  const int64_t files = n == 0 ? 1 : (n + max_line - 1) / max_line;
  // "if len < top_n: top_n = len - 1" (sic); argpartition(-0)[-0:] then takes every element.
  int64_t top_n = n < request.top_n ? std::max<int64_t>(0, n - 1) : request.top_n;
  if (top_n == 0 && !boolean) top_n = n;
  // Up to this size the errors are kept to choose the top-N rows exactly as numpy does among
  // equal errors; beyond it a bounded heap decides (ties by the larger index).
  constexpr int64_t kExactTopN = 8 << 20;
  const bool exact = !boolean && n <= kExactTopN;
  std::vector<double> kept_abs(exact ? static_cast<size_t>(n) : 0);
  std::vector<double> kept_rel(exact ? static_cast<size_t>(n) : 0);

  std::vector<std::string> paths(static_cast<size_t>(files));
  for (int64_t f = 0; f < files; ++f) {
    paths[static_cast<size_t>(f)] =
        names.path(prefix + "_" + std::to_string(f * max_line) + ".csv", ".csv", f * max_line);
  }
  const std::string header = header_line(pair);
  std::vector<TopN> top_abs(static_cast<size_t>(files), TopN(static_cast<size_t>(top_n)));
  std::vector<TopN> top_rel(static_cast<size_t>(files), TopN(static_cast<size_t>(top_n)));
  std::vector<MinMax> ranges(static_cast<size_t>(files));
  std::vector<std::string> failures(static_cast<size_t>(files));

#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t f = 0; f < files; ++f) {
    const auto slot = static_cast<size_t>(f);
    try {
      const int64_t begin = f * max_line, end = std::min(n, begin + max_line);
      std::unique_ptr<AtomicFile> out;
      if (!request.ignore_result) {
        out = std::make_unique<AtomicFile>(paths[slot]);
        out->write(header);
      }
      std::string text;
      text.reserve(1 << 20);
      Coordinates at(pair.shape, begin);
      for (int64_t i = begin; i < end; ++i, at.next()) {
        const double x = value_at(pair.mine, i), y = value_at(pair.golden, i);
        const ErrorPair e = boolean ? ErrorPair{NAN, NAN} : errors(arith, x, y);
        if (!boolean) {
          ranges[slot].add(sanitized(e.abs), sanitized(e.rel));
          if (exact) {
            kept_abs[static_cast<size_t>(i)] = sanitized(e.abs);
            kept_rel[static_cast<size_t>(i)] = sanitized(e.rel);
          } else {
            top_abs[slot].offer(sanitized(e.abs), i);
            top_rel[slot].offer(sanitized(e.rel), i);
          }
        }
        if (out) {
          append_row(text, i, at, x, y, e, boolean);
          if (text.size() >= (1u << 20) - 256) {
            out->write(text);
            text.clear();
          }
        }
      }
      if (out) {
        out->write(text);
        out->commit();
      }
    } catch (const std::exception& e) {
      failures[slot] = e.what();
    }
  }
  for (const std::string& failure : failures) {
    if (!failure.empty()) throw Error(ExitCode::kInput, failure);
  }

  MinMax range;
  for (size_t f = 1; f < ranges.size(); ++f) ranges.front().merge(ranges[f]);
  range = ranges.front();
  for (size_t f = 1; f < top_abs.size(); ++f) {
    top_abs.front().merge(top_abs[f]);
    top_rel.front().merge(top_rel[f]);
  }

  // Summary (the min/max of the sanitised errors; NaN when nothing was compared).
  const bool any = n > 0 && !boolean;
  std::string summary = "TotalCount:" + std::to_string(n) + "\nNPUDump:" + pair.my_ops +
                        "\nGroundTruth:" + pair.golden_ops + "\nFormat:" + pair.format + "\n";
  summary += "MinAbsoluteError:" + fixed(any ? range.min_abs : NAN) + "\n";
  summary += "MaxAbsoluteError:" + fixed(any ? range.max_abs : NAN) + "\n";
  summary += "MinRelativeError:" + fixed(any ? range.min_rel : NAN) + "\n";
  summary += "MaxRelativeError:" + fixed(any ? range.max_rel : NAN) + "\n";
  if (boolean) {
    for (size_t p; (p = summary.find("nan")) != std::string::npos;) summary.replace(p, 3, "-");
  }
  AtomicFile summary_file(names.path(prefix + "_summary.txt", "_summary.txt"));
  summary_file.write(summary);
  summary_file.commit();

  // Top-N: the bool path takes the first N elements, as msaccucmp does; otherwise the rows
  // np.argpartition picks, in the order Python's sort gives them (numpy_select.hpp).
  auto top_lines = [&](const TopN& top, const std::vector<double>& kept, bool absolute) {
    std::vector<std::string> lines;
    std::vector<int64_t> picked;
    if (boolean) {
      for (int64_t i = 0; i < top_n; ++i) picked.push_back(i);
    } else if (exact && top_n > 0) {
      std::vector<SortKey> keys;
      for (const int64_t i : numpy_argpartition_top(kept, top_n)) {
        const ErrorPair e = errors(arith, value_at(pair.mine, i), value_at(pair.golden, i));
        const double key = absolute ? e.abs : e.rel;
        keys.push_back({std::isfinite(key) ? key : NAN, i});  // inf was turned into NaN
      }
      python_sort_descending(keys);
      for (const SortKey& k : keys) picked.push_back(k.index);
    } else {
      for (const Ranked& r : top.sorted()) picked.push_back(r.index);
    }
    for (const int64_t i : picked) {
      const double x = value_at(pair.mine, i), y = value_at(pair.golden, i);
      const ErrorPair e = boolean ? ErrorPair{NAN, NAN} : errors(arith, x, y);
      lines.push_back(top_line(i, pair.shape, x, y, e, boolean));
    }
    return lines;
  };
  const std::vector<std::string> abs_lines = top_lines(top_abs.front(), kept_abs, true);
  const std::vector<std::string> rel_lines = top_lines(top_rel.front(), kept_rel, false);
  for (const auto& [kind, lines] :
       {std::pair{"absolute", &abs_lines}, std::pair{"relative", &rel_lines}}) {
    const std::string suffix = std::string("_") + kind + "_error_topn.csv";
    AtomicFile top(names.path(prefix + suffix, suffix));
    top.write(header);
    for (const std::string& line : *lines) top.write(line);
    top.commit();
  }
  names.save_mapping();
  result.outputs = names.paths();
  result.count = n;
  result.files = request.ignore_result ? 0 : files;
  result.top_tables = {top_table("Absolute Error", header, abs_lines),
                       top_table("Relative Error", header, rel_lines)};
  return result;
}

}  // namespace dumpcmp
