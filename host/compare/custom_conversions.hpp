#pragma once
// Format conversions supplied by the user (msaccucmp's -c DIR/format_convert/): the fusion-rule
// compare runs one in place of the built-in conversion of its format pair. What it returns is
// written to a .npy file that the plan names as the row's NPU tensor. Implemented by plugin/
// (Python); compare/ and fusion/ see only this interface.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

class CustomConversions {
 public:
  virtual ~CustomConversions() = default;

  // Whether a usable DIR/format_convert/convert_{from}_to_{to}.py is there.
  virtual bool has(Format from, Format to) = 0;

  // The tensor's array as msaccucmp hands it to a converter: `count` elements of numpy dtype
  // `descr` (a .npy descr such as "<f2"), flat.
  struct Array {
    std::string_view descr;
    const uint8_t* data = nullptr;
    uint64_t bytes = 0;
    int64_t count = 0;
  };
  struct Result {
    std::string path;   // the converted array's .npy file: kept while this object lives
    std::string error;  // msaccucmp's message when the converter failed (path is then empty)
    // The file cannot be used at all (no convert(), wrong arguments): msaccucmp warns once and
    // converts the pair with its built-in converter; has() is false from now on.
    bool unusable = false;
  };
  // Runs the converter of (from, to) as convert(shape_from, shape_to, array[, group]); the group
  // is passed when it is 2 or more.
  virtual Result convert(Format from, Format to, const Shape& shape_from, const Shape& shape_to,
                         int group, const Array& array) = 0;
};

}  // namespace dumpcmp
