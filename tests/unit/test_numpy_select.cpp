// numpy's argpartition and Python's sort as detail mode's top-N files need them; the expected
// values were printed by numpy 1.24 (Debian) and CPython 3.11 for these inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "detail/numpy_select.hpp"

namespace dumpcmp {
namespace {

struct Case {
  std::vector<double> values;
  int64_t top;
  std::vector<int64_t> expected;  // np.argpartition(values, -top)[-top:]
};

TEST(NumpySelect, ArgpartitionPicksAndOrdersLikeNumpy) {
  const std::vector<Case> cases = {
      {{2, 3, 3, 2, 3, 3, 3}, 2, {1, 6}},
      {{0, 1, 2, 1, 1, 2, 3, 2, 0, 2, 3, 0}, 5, {7, 2, 6, 10, 5}},
      {{2, 1, 3, 0, 1, 3, 1, 0, 3, 3, 3, 3, 1, 2, 3, 2, 3, 2, 0, 1,
        2, 1, 2, 1, 3, 0, 2, 0, 0, 2, 1, 1, 1, 3, 2, 1, 3, 3, 1, 0},
       20,
       {20, 17, 26, 29, 34, 36, 22, 13, 15, 2, 37, 33, 16, 5, 8, 9, 11, 24, 14, 10}},
      {{0, 0, 2, 2, 2, 3, 3, 2, 2, 0, 1, 3, 3, 0, 1, 1, 2, 0, 1, 1, 0, 3, 2, 0, 3,
        2, 0, 2, 1, 1, 1, 3, 0, 3, 0, 3, 3, 0, 3, 0, 1, 2, 2, 0, 0, 1, 3, 1, 2, 0,
        3, 3, 1, 3, 1, 1, 1, 0, 3, 0, 1, 2, 1, 0, 3, 3, 3, 0, 1, 1, 1, 0, 3, 2, 0,
        0, 1, 3, 3, 0, 3, 1, 0, 3, 0, 0, 3, 0, 2, 1, 0, 1, 2, 0, 0, 3, 2, 1, 2, 3},
       20,
       {36, 95, 86, 66, 46, 83, 65, 50, 80, 51, 78, 77, 53, 11, 58, 72, 12, 24, 64, 99}},
      {{2, 2, 0, 0, 2, 2, 1, 2, 1, 3, 1, 2, 2, 2, 2, 2, 2,
        0, 0, 1, 0, 3, 0, 2, 1, 3, 1, 0, 0, 3, 2, 3, 1},
       1,
       {31}},
      {{2, 2, 2, 2, 0, 3, 2, 2, 3}, 3, {3, 5, 8}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(numpy_argpartition_top(c.values, c.top), c.expected) << c.values.size();
  }
}

TEST(NumpySelect, PythonSortKeepsNanWhereTimsortLeavesIt) {
  // sorted([(nan,3),(0.5,1),(0.5,7),(nan,2),(1.0,0)], reverse=True) in CPython 3.11.
  std::vector<SortKey> keys = {{NAN, 3}, {0.5, 1}, {0.5, 7}, {NAN, 2}, {1.0, 0}};
  python_sort_descending(keys);
  const std::vector<int64_t> order = {3, 7, 1, 2, 0};
  ASSERT_EQ(keys.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(keys[i].index, order[i]) << i;
  std::vector<SortKey> plain = {{0.1, 4}, {0.9, 2}, {0.5, 9}, {0.9, 1}};
  python_sort_descending(plain);
  EXPECT_EQ(plain[0].index, 2);  // equal errors: the larger index first
  EXPECT_EQ(plain[1].index, 1);
  EXPECT_EQ(plain[3].index, 4);
}

}  // namespace
}  // namespace dumpcmp
