#include "convert/shape_conversion.hpp"

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "fusion/fusion_messages.hpp"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "layout/layout_plan.hpp"
#include "plugin/custom_algorithms.hpp"
#include "plugin/python_worker.hpp"
#include "tensor/array_export.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void too_few_elements(const ShapeConversionOptions& o, const TensorInfo& t) {
  throw format_error(o.dump_file, o.tensor + ":" + std::to_string(o.index) +
                                      " holds fewer elements than its shape " +
                                      shape_to_string(t.shape));
}

// The seed's -custom: DIR/format_convert/<module>.py takes precedence over the built-in converter.
// Its convert(shape_from, shape_to, array) gets msaccucmp's array of the tensor; its result is
// saved by numpy, then named by its shape.
std::string convert_with_custom(const ShapeConversionOptions& o, const DumpFile& dump,
                                const TensorInfo& t, const std::string& module,
                                const std::string& base) {
  const int64_t n = shape_element_count(t.shape).value_or(-1);
  const std::size_t width = std::max<std::size_t>(1, dtype_storage_size(t.dtype));
  if (n < 0 || static_cast<int64_t>(t.size / width) < n) {
    too_few_elements(o, t);
  }
  const ExportedArray array = export_array(dump.tensor_data(t), t.dtype, n);
  const std::string_view descr = npy_descr(array.dtype);
  PythonWorker worker(o.custom_dir, {}, {}, {});
  std::copy(array.data, array.data + array.bytes, worker.buffer(array.bytes));
  const std::string partial = base + "partial.npy";
  std::vector<int64_t> shape;
  try {
    const PythonWorker::Converted converted =
        worker.convert_file(module, t.shape, o.shape, descr, n, partial);
    if (!converted.unusable.empty()) throw Error(ExitCode::kInput, converted.unusable);
    shape = converted.shape;
  } catch (const Error& e) {
    std::error_code ec;
    fs::remove(partial, ec);
    throw format_error(o.dump_file, e.what());
  }
  const std::string path = base + format_dims(shape, "", "x", "") + ".npy";
  std::error_code ec;
  fs::rename(partial, path, ec);
  if (ec) throw Error(ExitCode::kInput, path + ": cannot write: " + ec.message());
  return path;
}

}  // namespace

std::string convert_shape(const ShapeConversionOptions& o) {
  if (o.tensor != "input" && o.tensor != "output") {
    throw Error(ExitCode::kUsage,
                "The tensor (" + o.tensor + ") is invalid, only supports input and output.");
  }
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (!fs::is_directory(o.output_dir)) {
    throw Error(ExitCode::kInput, o.output_dir + ": cannot create the output directory");
  }
  const DumpFile dump = read_dump_file(o.dump_file);
  if (const std::string problem = undecodable_dtype_message(dump); !problem.empty()) {
    throw format_error(o.dump_file, problem);
  }
  const std::vector<TensorInfo>& tensors = o.tensor == "input" ? dump.inputs : dump.outputs;
  if (o.index < 0 || static_cast<std::size_t>(o.index) >= tensors.size()) {
    throw Error(ExitCode::kInput, msg::index_past_count("", o.tensor, o.index, tensors.size()));
  }
  const TensorInfo& t = tensors[static_cast<std::size_t>(o.index)];
  if (t.format == o.format) return "";
  const std::string base = o.output_dir + "/" + fs::path(o.dump_file).filename().string() + "." +
                           o.tensor + "." + std::to_string(o.index) + ".";
  if (const std::string module =
          find_custom_converter(o.custom_dir, converter_source_format(t.format, t.shape), o.format);
      !module.empty()) {
    return convert_with_custom(o, dump, t, module, base);
  }
  LayoutOptions layout;
  layout.extensions = false;  // the seed's tool has msaccucmp's converters only
  const LayoutPlan plan = plan_tool_conversion(t, o.format, o.shape, layout);
  if (!plan.ok) throw format_error(o.dump_file, plan.note);
  const std::size_t width = std::max<std::size_t>(1, dtype_storage_size(t.dtype));
  if (static_cast<int64_t>(t.size / width) < shape_element_count(t.shape).value_or(-1)) {
    too_few_elements(o, t);
  }
  const ExportedArray array = export_array(dump.tensor_data(t), t.dtype, plan.map);
  const std::string path = base + format_dims(plan.result_shape, "", "x", "") + ".npy";
  write_npy(path, array.dtype, plan.result_shape, array.data, array.bytes);
  return path;
}

}  // namespace dumpcmp
