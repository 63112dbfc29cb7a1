// --hdf5 of a msprobe compare: the float64 of each number column's cell (probe/probe_hdf5).
#include <gtest/gtest.h>

#include <cmath>

#include "probe/probe_hdf5.hpp"

namespace dumpcmp {
namespace {

TEST(ProbeHdf5, CellsAsTheirNumbers) {
  EXPECT_EQ(probe_cell_number("0.1"), 0.1);
  EXPECT_EQ(probe_cell_number("1e-05"), 1e-05);
  EXPECT_EQ(probe_cell_number("-3"), -3.0);
  EXPECT_EQ(probe_cell_number("12.5%"), 12.5);     // statistics mode's relative errors
  EXPECT_EQ(probe_cell_number(" inf"), INFINITY);  // the CSV's infinities
  EXPECT_EQ(probe_cell_number(" -inf"), -INFINITY);
  EXPECT_EQ(probe_cell_number("inf%"), INFINITY);
  EXPECT_EQ(probe_cell_number("True"), 1.0);
  EXPECT_EQ(probe_cell_number("False"), 0.0);
  EXPECT_TRUE(std::isnan(probe_cell_number("nan")));
  for (const char* word : {"N/A", "unsupported", "Nan", "", "%", "1.0x", "shape unmatched"})
    EXPECT_TRUE(std::isnan(probe_cell_number(word))) << word;
}

}  // namespace
}  // namespace dumpcmp
