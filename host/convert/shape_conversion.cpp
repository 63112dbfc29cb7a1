#include "convert/shape_conversion.hpp"

#include <algorithm>
#include <filesystem>

#include "compare/tensor_elements.hpp"
#include "convert/array_export.hpp"
#include "core/error.hpp"
#include "core/msaccucmp_messages.hpp"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {

namespace fs = std::filesystem;

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
  if (!o.custom_dir.empty()) {
    const fs::path script = fs::path(o.custom_dir) / "format_convert" /
                            ("convert_" + std::string(format_name(t.format)) + "_to_" +
                             std::string(format_name(o.format)) + ".py");
    if (fs::exists(script, ec)) {
      throw Error(ExitCode::kUsage, script.string() +
                                        ": custom Python converters need the plug-in runner, "
                                        "which dumpcmp does not have yet");
    }
  }
  LayoutOptions layout;
  layout.extensions = false;  // the seed's tool has msaccucmp's converters only
  const LayoutPlan plan = plan_tool_conversion(t, o.format, o.shape, layout);
  if (!plan.ok) throw format_error(o.dump_file, plan.note);
  const std::size_t width = std::max<std::size_t>(1, dtype_storage_size(t.dtype));
  if (static_cast<int64_t>(t.size / width) < shape_element_count(t.shape).value_or(-1)) {
    throw format_error(o.dump_file, o.tensor + ":" + std::to_string(o.index) +
                                        " holds fewer elements than its shape " +
                                        shape_to_string(t.shape));
  }
  const ExportedArray array = export_array(dump.tensor_data(t), t.dtype, plan.map);
  const std::string path = o.output_dir + "/" + fs::path(o.dump_file).filename().string() + "." +
                           o.tensor + "." + std::to_string(o.index) + "." +
                           format_dims(plan.result_shape, "", "x", "") + ".npy";
  write_npy(path, array.dtype, plan.result_shape, array.data, array.bytes);
  return path;
}

}  // namespace dumpcmp
