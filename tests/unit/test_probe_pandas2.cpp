// pandas 2's to_numeric parse against what pandas 2.3.3's pd.to_numeric gave for the same texts
// (run beside msprobe, docs/msprobe-compare.md §9.5): an ulp off where it is off, exact elsewhere.
#include <gtest/gtest.h>

#include <cstdlib>

#include "probe/probe_pandas2.hpp"

namespace dumpcmp {
namespace {

TEST(Pandas2ToNumeric, MatchesPandas233) {
  struct Case {
    const char* text;
    double pandas;
  };
  const Case cases[] = {
      {"-0.09129825816118142", -0.0912982581611814},  // one ulp from float()
      {"5.7744670227102635", 5.774467022710264},
      {"-9.433050469559873", -9.433050469559872},
      {"1e-05", 1e-05},
      {"0.1812744140625", 0.1812744140625},
      {"12345678901234567890.5", 1.2345678901234567e+19},  // digits beyond 17 scale
      {"1.5e300", 1.5e+300},
      {"2.2250738585072014e-310", 2.2250738585072014e-310},  // below 1e-308: two divisions
      {"42", 42.0},
      {" -7 ", -7.0},
  };
  for (const Case& c : cases) EXPECT_EQ(pandas2_to_numeric(c.text), c.pandas) << c.text;
  EXPECT_NE(pandas2_to_numeric("-0.09129825816118142"),
            std::strtod("-0.09129825816118142", nullptr));
}

}  // namespace
}  // namespace dumpcmp
