#pragma once
// Single-operator detail mode's text: numbers as Python's '%.6f' prints them, coordinates, the
// per-element rows of the detail CSVs, the top-N lines and the console's top-N table.
#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "detail/element_errors.hpp"
#include "detail/single_op_detail.hpp"

namespace dumpcmp::single_op {

// Python's '%.6f' (to_chars is correctly rounded like printf; NaN never prints a sign).
void append_fixed(std::string& out, double v);
std::string fixed(double v);
void append_int(std::string& out, int64_t v);

// Coordinates: the row-major multi-index of the shape padded with 1s to 4 dims, space-joined.
class Coordinates {
 public:
  Coordinates(const Shape& shape, int64_t start);
  void append(std::string& out) const;
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

// "Index,<format>,NPUDump,GroundTruth,AbsoluteError,RelativeError"
std::string header_line(const DetailPair& pair);
// The per-element row of detail_writer._write_one_detail.
void append_row(std::string& out, int64_t index, const Coordinates& at, double x, double y,
                const ErrorPair& e, bool boolean);
// A top-N line: every number '%.6f' then "nan" and "inf" replaced by '-' (msaccucmp's TopN).
std::string top_line(int64_t index, const Shape& shape, double x, double y, const ErrorPair& e,
                     bool boolean);
// The cells of _show_top_n's console table: the CSV lines split at commas, cells trimmed.
TopTable top_table(const char* title, const std::string& header,
                   const std::vector<std::string>& lines);

}  // namespace dumpcmp::single_op
