#pragma once
// What pandas 2.x (2.3.3) does differently from pandas 3 in msprobe's statistics cells
// (docs/msprobe-compare.md §9.5), for `--pandas 2`.
#include <string_view>

namespace dumpcmp {

// pd.to_numeric of a number's text under pandas 2: precise_xstrtod, which keeps 17 significant
// digits, accumulates them digit by digit in a double and scales once by a power of ten, so it
// can be an ulp away from the correctly rounded value. The text must be a number Python's
// float() reads (parse_python_float); "inf"/"nan" spellings are not handled here.
double pandas2_to_numeric(std::string_view text);

}  // namespace dumpcmp
