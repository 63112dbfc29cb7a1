#pragma once
// Single-operator detail mode (`compare -op NAME -o k | -i k`, docs/algorithms.md §5): every
// element of one tensor pair with its coordinates, absolute and relative error, in CSV files of at
// most max_line rows, plus a summary, the top-N errors and the NPU tensor as .npy.
#include <cstdint>
#include <string>

#include "compare/compare_engine.hpp"
#include "core/dtype.hpp"
#include "core/shape.hpp"
#include "layout/layout_map.hpp"

namespace dumpcmp {

struct DetailRequest {
  std::string op_name;
  bool input = false;  // -i k; otherwise -o k (the default: output 0)
  int index = 0;
  int top_n = 20;              // -n, 1..10000
  int64_t max_line = 1000000;  // -ml, 10000..1000000: rows per detail CSV
  bool ignore_result = false;  // --ignore_single_op_result: no per-element CSVs
  std::string output_dir;

  // "<op with '/' -> '_'>_<input|output>_<k>": the prefix of every file.
  std::string file_prefix() const;
  std::string tensor_id() const;  // "<op>:<input|output>:<k>"
};

// One side of the pair, already converted: element i is data's element map.source_index(i).
struct DetailSide {
  const uint8_t* data = nullptr;
  DType dtype = DType::kFloat;
  LayoutMap map;  // identity when nothing is converted; map.count = elements compared
};

struct DetailPair {
  DetailSide mine, golden;
  Shape shape;             // the NPU tensor's shape after conversion (coordinates, <prefix>.npy)
  std::string my_ops;      // the summary's NPUDump line (names space-joined)
  std::string golden_ops;  // GroundTruth line ("*" when none)
  std::string format;      // the header's coordinate letters: "N C H W", "N C D H W", "ID", ...
  std::string dump_file;   // basename of the NPU dump (names long files, as msaccucmp)
};

// msaccucmp's console table of the N largest errors (_show_top_n): a header and rows of cells.
struct TopTable {
  std::string title;                           // "Absolute Error", "Relative Error"
  std::vector<std::vector<std::string>> rows;  // the header first
};

struct DetailSummary {
  int64_t count = 0;
  int64_t files = 0;                  // per-element CSVs written
  std::vector<TopTable> top_tables;   // for the console
  std::vector<std::string> warnings;  // files that could not be written, for the console
  std::vector<std::string> outputs;   // the files written
};

// Writes <prefix>.npy, <prefix>_summary.txt, <prefix>_<start>.csv..., the two top-N files
// (after deleting the old files of the same prefix) and prints the top-N tables. Throws Error
// naming the file when one cannot be written.
DetailSummary write_single_op_detail(const DetailRequest& request, const DetailPair& pair);
// Removes the files write_single_op_detail writes for this request (those of names shortened
// for length only when listed in `outputs` of its summary).
void remove_single_op_detail_files(const DetailRequest& request);

// Finds the pair the request names (NPU vs NPU by op name, or through the fusion rule of
// `options`), converts it as msaccucmp's detail mode does, and writes it.
DetailSummary run_single_op_detail(const CompareOptions& options, const DetailRequest& request);

}  // namespace dumpcmp
