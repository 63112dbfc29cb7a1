#pragma once
// Numbers as msprobe's statistics compare reads and prints them (docs/statistics.md §4): cells
// parsed the way Python's float() and pandas read them, float32 arithmetic as numpy does it, and
// the text Python and numpy give a float when pandas writes the result CSV.
#include <optional>
#include <string>
#include <string_view>

namespace dumpcmp {

// Which numpy (and pandas) msprobe runs on: the two differ in float32 scalar promotion (NEP 50)
// and in how a float32 is printed (docs/statistics.md §4.3).
enum class NumpyGeneration {
  kNumpy1,  // numpy 1.x with pandas 2.x
  kNumpy2   // numpy 2.x with pandas 3.x
};

// A statistics cell as a number, or nullopt when it is not one. Accepts what Python's float()
// accepts for decimal text (surrounding white space, sign, "nan", "inf", "infinity" in any case),
// plus msprobe's three special words: "null" and "False" read as 0, "True" as 1.
std::optional<double> parse_stat_number(std::string_view text);
// Python's float() of a decimal text: white space around it, a sign, "nan", "inf", "infinity" in
// any case, digits with one '.' and an exponent; nullopt for anything else.
std::optional<double> parse_python_float(std::string_view text);

// Python's repr() of a float (numpy 1.x's str() of a float64 is the same): the shortest text that
// reads back to the same double; scientific when the decimal exponent is < -4 or >= 16.
std::string python_float_repr(double value);

// numpy's str() of a float32 scalar: the shortest text that reads back to the same float32;
// scientific below 1e-4, and from 1e16 (numpy 1.x) or 1e6 (numpy 2.x) up.
std::string numpy_float32_str(float value, NumpyGeneration generation);

}  // namespace dumpcmp
