#pragma once
// The seed's shape_conversion tool (msaccucmp's ShapeConversionMain, docs/formats.md §8.3): one
// tensor of one dump converted to another format with the built-in converters (no crop), saved as
// FILE.{input|output}.{index}.{d0xd1x...}.npy.
#include <cstdint>
#include <string>

#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

struct ShapeConversionOptions {
  std::string dump_file;
  std::string output_dir;
  Format format = Format::kNCHW;  // -format
  Shape shape;                    // -shape: the target shape (FRACTAL_NZ)
  std::string tensor = "output";  // -tensor: input | output
  int index = 0;                  // -index
  std::string custom_dir;         // -custom: DIR/format_convert/convert_{FROM}_to_{TO}.py
};

// The path written, or "" when the tensor already has the format (nothing to do). Throws Error
// naming the file for an unreadable dump, an index past the tensors or a conversion that fails. A
// custom converter for the pair (-custom DIR/format_convert/convert_{FROM}_to_{TO}.py) runs in
// Python (docs/plugins.md) instead of the built-in one.
std::string convert_shape(const ShapeConversionOptions& options);

}  // namespace dumpcmp
