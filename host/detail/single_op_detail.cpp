// The files of single-operator detail mode (docs/algorithms.md §5; msaccucmp's detail_writer.py),
// written in one streaming pass: element values are decoded through the layout maps, the error is
// computed in numpy's promoted dtype (detail/element_errors), and each max_line block of rows is
// formatted (detail/detail_rows) and written by its own thread; then the summary and the top-N
// files (detail/top_errors, numpy_select), under msaccucmp's names (detail/detail_files).
#include "detail/single_op_detail.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "detail/detail_files.hpp"
#include "detail/detail_rows.hpp"
#include "detail/element_errors.hpp"
#include "detail/numpy_select.hpp"
#include "detail/top_errors.hpp"

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

using namespace single_op;

// Up to this size the errors are kept to choose the top-N rows exactly as numpy does among equal
// errors; beyond it a bounded heap decides (ties by the larger index).
constexpr int64_t kExactTopN = 8 << 20;

// What a request makes of a pair before any element is read.
struct DetailShape {
  int64_t n = 0;         // elements
  int64_t max_line = 1;  // rows per detail CSV
  int64_t files = 1;     // detail CSVs
  int64_t top_n = 0;     // rows of each top-N file
  Arith arith = Arith::kFloat;
  bool boolean = false;
  bool exact = false;  // the top-N rows chosen from every error (kExactTopN)
};

DetailShape shape_of(const DetailRequest& request, const DetailPair& pair) {
  DetailShape s;
  s.n = pair.mine.map.count;
  s.arith = promote(pair.mine.dtype, pair.golden.dtype);
  s.boolean = s.arith == Arith::kBool;
  s.max_line = std::max<int64_t>(1, request.max_line);
  // msaccucmp writes one (header-only) file for an empty tensor.
  s.files = s.n == 0 ? 1 : (s.n + s.max_line - 1) / s.max_line;
  // "if len < top_n: top_n = len - 1" (sic); argpartition(-0)[-0:] then takes every element.
  s.top_n = s.n < request.top_n ? std::max<int64_t>(0, s.n - 1) : request.top_n;
  if (s.top_n == 0 && !s.boolean) s.top_n = s.n;
  s.exact = !s.boolean && s.n <= kExactTopN;
  return s;
}

// What the pass over the elements gathers for the summary and the top-N files.
struct ErrorScan {
  MinMax range;
  TopN top_abs, top_rel;                   // beyond kExactTopN elements
  std::vector<double> kept_abs, kept_rel;  // up to it: every sanitised error
};

// Writes the per-element CSVs (one per max_line rows, each by its own thread; none with
// --ignore_single_op_result) and gathers the errors' range and top N. Throws Error naming the
// file that could not be written.
ErrorScan scan_elements(const DetailRequest& request, const DetailPair& pair, const DetailShape& s,
                        const std::vector<std::string>& paths, const std::string& header) {
  const auto files = static_cast<size_t>(s.files);
  ErrorScan scan{MinMax{}, TopN(static_cast<size_t>(s.top_n)), TopN(static_cast<size_t>(s.top_n)),
                 std::vector<double>(s.exact ? static_cast<size_t>(s.n) : 0),
                 std::vector<double>(s.exact ? static_cast<size_t>(s.n) : 0)};
  std::vector<TopN> top_abs(files, TopN(static_cast<size_t>(s.top_n)));
  std::vector<TopN> top_rel(files, TopN(static_cast<size_t>(s.top_n)));
  std::vector<MinMax> ranges(files);
  std::vector<std::string> failures(files);
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t f = 0; f < s.files; ++f) {
    const auto slot = static_cast<size_t>(f);
    try {
      const int64_t begin = f * s.max_line, end = std::min(s.n, begin + s.max_line);
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
        const ErrorPair e = s.boolean ? ErrorPair{NAN, NAN} : errors(s.arith, x, y);
        if (!s.boolean) {
          ranges[slot].add(sanitized(e.abs), sanitized(e.rel));
          if (s.exact) {
            scan.kept_abs[static_cast<size_t>(i)] = sanitized(e.abs);
            scan.kept_rel[static_cast<size_t>(i)] = sanitized(e.rel);
          } else {
            top_abs[slot].offer(sanitized(e.abs), i);
            top_rel[slot].offer(sanitized(e.rel), i);
          }
        }
        if (out) {
          append_row(text, i, at, x, y, e, s.boolean);
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
  for (size_t f = 0; f < files; ++f) {
    scan.range.merge(ranges[f]);
    scan.top_abs.merge(top_abs[f]);
    scan.top_rel.merge(top_rel[f]);
  }
  return scan;
}

// <prefix>_summary.txt: the min/max of the sanitised errors, NaN when nothing was compared ('-'
// for bools).
void write_summary(const std::string& path, const DetailPair& pair, const DetailShape& s,
                   const MinMax& range) {
  const bool any = s.n > 0 && !s.boolean;
  std::string summary = "TotalCount:" + std::to_string(s.n) + "\nNPUDump:" + pair.my_ops +
                        "\nGroundTruth:" + pair.golden_ops + "\nFormat:" + pair.format + "\n";
  summary += "MinAbsoluteError:" + fixed(any ? range.min_abs : NAN) + "\n";
  summary += "MaxAbsoluteError:" + fixed(any ? range.max_abs : NAN) + "\n";
  summary += "MinRelativeError:" + fixed(any ? range.min_rel : NAN) + "\n";
  summary += "MaxRelativeError:" + fixed(any ? range.max_rel : NAN) + "\n";
  if (s.boolean) {
    for (size_t p; (p = summary.find("nan")) != std::string::npos;) summary.replace(p, 3, "-");
  }
  AtomicFile file(path);
  file.write(summary);
  file.commit();
}

// The lines of a top-N file: the bool path takes the first N elements, as msaccucmp does;
// otherwise the rows np.argpartition picks, in the order Python's sort gives them
// (numpy_select.hpp), or beyond kExactTopN the heap's.
std::vector<std::string> top_lines(const DetailPair& pair, const DetailShape& s, const TopN& top,
                                   const std::vector<double>& kept, bool absolute) {
  std::vector<int64_t> picked;
  if (s.boolean) {
    for (int64_t i = 0; i < s.top_n; ++i) picked.push_back(i);
  } else if (s.exact && s.top_n > 0) {
    std::vector<SortKey> keys;
    for (const int64_t i : numpy_argpartition_top(kept, s.top_n)) {
      const ErrorPair e = errors(s.arith, value_at(pair.mine, i), value_at(pair.golden, i));
      const double key = absolute ? e.abs : e.rel;
      keys.push_back({std::isfinite(key) ? key : NAN, i});  // inf was turned into NaN
    }
    python_sort_descending(keys);
    for (const SortKey& k : keys) picked.push_back(k.index);
  } else {
    for (const Ranked& r : top.sorted()) picked.push_back(r.index);
  }
  std::vector<std::string> lines;
  for (const int64_t i : picked) {
    const double x = value_at(pair.mine, i), y = value_at(pair.golden, i);
    const ErrorPair e = s.boolean ? ErrorPair{NAN, NAN} : errors(s.arith, x, y);
    lines.push_back(top_line(i, pair.shape, x, y, e, s.boolean));
  }
  return lines;
}

}  // namespace

void remove_single_op_detail_files(const DetailRequest& request) {
  delete_old_files(request);
  std::error_code ec;
  std::filesystem::remove(request.output_dir + "/" + request.file_prefix() + ".npy", ec);
}

DetailSummary write_single_op_detail(const DetailRequest& request, const DetailPair& pair) {
  const DetailShape s = shape_of(request, pair);
  if (pair.golden.map.count != s.n) {
    throw Error(ExitCode::kInput, "[" + request.op_name + "] the two tensors hold " +
                                      std::to_string(s.n) + " and " +
                                      std::to_string(pair.golden.map.count) + " elements");
  }
  std::error_code ec;
  std::filesystem::create_directories(request.output_dir, ec);
  delete_old_files(request);
  FileNames names(request, pair);
  const std::string prefix = request.file_prefix();
  DetailSummary result;
  write_npu_array(names.path(prefix + ".npy", ".npy"), pair.mine, pair.shape, result.warnings);

  std::vector<std::string> paths(static_cast<size_t>(s.files));
  for (int64_t f = 0; f < s.files; ++f) {
    paths[static_cast<size_t>(f)] =
        names.path(prefix + "_" + std::to_string(f * s.max_line) + ".csv", ".csv", f * s.max_line);
  }
  const std::string header = header_line(pair);
  const ErrorScan scan = scan_elements(request, pair, s, paths, header);
  write_summary(names.path(prefix + "_summary.txt", "_summary.txt"), pair, s, scan.range);

  const std::vector<std::string> abs_lines = top_lines(pair, s, scan.top_abs, scan.kept_abs, true);
  const std::vector<std::string> rel_lines = top_lines(pair, s, scan.top_rel, scan.kept_rel, false);
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
  result.count = s.n;
  result.files = request.ignore_result ? 0 : s.files;
  result.top_tables = {top_table("Absolute Error", header, abs_lines),
                       top_table("Relative Error", header, rel_lines)};
  return result;
}

}  // namespace dumpcmp
