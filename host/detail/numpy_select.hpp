#pragma once
// Which rows msaccucmp's detail mode puts in its top-N files, and in which order, when errors tie:
// the choice is numpy 1.24's np.argpartition (introselect) and the order Python's sorted() with
// reverse=True on (error, index) tuples, where NaN compares unequal to everything. Both are
// reproduced here so the files match msaccucmp's byte for byte.
#include <cstdint>
#include <vector>

namespace dumpcmp {

// np.argpartition(values, -n)[-n:]: the indices of the n largest values, in the order the
// partition leaves them (0 < n <= values.size()).
std::vector<int64_t> numpy_argpartition_top(const std::vector<double>& values, int64_t n);

struct SortKey {
  double value;  // may be NaN
  int64_t index;
};

// sorted(keys, reverse=True) with Python's tuple comparison (NaN never equal, never less).
void python_sort_descending(std::vector<SortKey>& keys);

}  // namespace dumpcmp
