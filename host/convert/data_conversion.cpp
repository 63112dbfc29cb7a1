#include "convert/data_conversion.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <vector>

#include "convert/convert_files.hpp"
#include "convert/convert_messages.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "tensor/array_export.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;

bool framework_type(const std::string& type) {
  return type == "caffe" || type == "tf" || type == "quant";
}

// The name a file's outputs take (data_conversion.py's _get_*_layer_name): the first group of
// the type's file-name pattern, matched from the start of the name as Python's re.match does.
std::optional<std::string> layer_name(const std::string& type, bool to_numpy,
                                      const std::string& file) {
  static const std::regex kStandardDump(R"(^([A-Za-z0-9_-]+\.[0-9]+)\.[0-9]{1,255}\.pb$)");
  static const std::regex kQuantDump(R"(^([A-Za-z0-9_-]+\.[0-9]+)\.[0-9]{1,255}\.quant$)");
  static const std::regex kStandardNumpy(R"(^([\.A-Za-z0-9_-]+\.[0-9]+\.[0-9]{1,255})\.npy$)");
  static const std::regex kOfflineDump(
      R"(^[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)\.[0-9]+(\.[0-9]+)?\.[0-9]{1,255}(\.[0-9]+\.[0-9]+\.[0-9]+)?(\.[0-9]+)?)");
  static const std::regex kOfflineNumpy(
      R"(^([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[0-9]+\.[0-9]{1,255})\.[0-9]+\.\b(npy|data|bin|txt)\b$)");
  const std::regex& pattern = !framework_type(type) ? (to_numpy ? kOfflineDump : kOfflineNumpy)
                              : !to_numpy           ? kStandardNumpy
                              : type == "quant"     ? kQuantDump
                                                    : kStandardDump;
  std::smatch match;
  if (!std::regex_search(file, match, pattern)) return std::nullopt;
  return match[1].str();
}

std::string expected_names(const std::string& type, bool to_numpy) {
  if (!framework_type(type)) {
    return to_numpy ? "'op_type.op_name.task_id.timestamp'"
                    : "'op_type.op_name.task_id.timestamp.output_index.npy/data/bin/txt'";
  }
  if (!to_numpy) return "'op_name.output_index.timestamp.npy'";
  return type == "quant" ? "'op_name.output_index.timestamp.quant'"
                         : "'op_name.output_index.timestamp.pb'";
}

class DataConverter {
 public:
  explicit DataConverter(const DataConversionOptions& o) : o_(o) {}

  // One input file; throws Error(kInput) naming it when it fails as a whole.
  void file(const std::string& path, DataConversionSummary& summary) {
    const bool to_numpy = o_.target == "numpy";
    const std::string base = fs::path(path).filename().string();
    const std::optional<std::string> name = layer_name(o_.type, to_numpy, base);
    if (!name) {
      throw format_error(path,
                         "invalid file name, only supports " + expected_names(o_.type, to_numpy));
    }
    if (to_numpy) return to_npy(path, *name, summary);
    to_dump(path, *name, summary);
  }

 private:
  void warn(const std::string& text) const {
    if (o_.report) o_.report(Severity::kWarning, text);
  }

  // A dump's tensors as .npy files, its buffers and workspaces as .bin files.
  void to_npy(const std::string& path, const std::string& name, DataConversionSummary& summary) {
    const DumpFile dump = read_dump_file(path);
    if (const std::string problem = undecodable_dtype_message(dump); !problem.empty()) {
      throw format_error(path, problem);
    }
    for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
      const std::vector<TensorInfo>& tensors = dump.group(g);
      if (tensors.empty()) warn(msg::no_tensors_in(tensor_group_name(g), path));
      for (const TensorInfo& t : tensors) tensor(dump, name, t, summary);
    }
    for (std::size_t k = 0; k < dump.buffers.size(); ++k) {
      save(name + ".l1buffer." + std::to_string(k) + ".bin", dump, dump.buffers[k], summary);
    }
    for (std::size_t k = 0; k < dump.workspaces.size(); ++k) {
      save(name + ".space." + std::to_string(k) + ".bin", dump, dump.workspaces[k], summary);
    }
    if (std::string damage = damaged_problem(dump); !damage.empty()) {
      throw Error(ExitCode::kInput, damage);
    }
  }

  // msaccucmp's array reshaped to the dump's shape (an empty tensor is np.array([]), float64); a
  // framework dump's tensors all go to NAME.npy, the last one written staying.
  void tensor(const DumpFile& dump, const std::string& name, const TensorInfo& t,
              DataConversionSummary& summary) {
    const std::string label =
        std::string(tensor_group_name(t.group)) + ":" + std::to_string(t.index);
    const std::size_t width = dtype_storage_size(t.dtype);
    const int64_t want = shape_element_count(t.shape).value_or(-1);
    const int64_t have = t.dtype == DType::kUInt1 ? static_cast<int64_t>(t.size * 8)
                                                  : static_cast<int64_t>(t.size / width);
    if (want < 0 || want > have || t.dtype == DType::kUInt1) {
      // uint1 unpacks to 8 elements a byte, which the dump's shape does not describe.
      if (o_.report) {
        o_.report(Severity::kError, dump.path + ": " + label + " holds " + std::to_string(have) +
                                        " elements, its shape " + shape_to_string(t.shape) +
                                        " needs " + std::to_string(want) + "; not converted");
      }
      return;
    }
    LayoutMap map;
    map.count = want;
    ExportedArray array = export_array(dump.tensor_data(t), t.dtype, map);
    if (want == 0) array.dtype = DType::kDouble;
    const std::string file = framework_type(o_.type)
                                 ? name + ".npy"
                                 : name + "." + std::string(tensor_group_name(t.group)) + "." +
                                       std::to_string(t.index) + ".npy";
    write_npy(o_.output_dir + "/" + file, array.dtype, t.shape, array.data, array.bytes);
    ++summary.written;
  }

  void save(const std::string& file, const DumpFile& dump, const TensorInfo& t,
            DataConversionSummary& summary) {
    write_file_atomically(o_.output_dir + "/" + file, dump.tensor_data(t), t.size);
    ++summary.written;
  }

  // A framework .npy file as a binary dump of one output (format RESERVED, as msaccucmp writes).
  void to_dump(const std::string& path, const std::string& name, DataConversionSummary& summary) {
    const DumpFile npy = read_npy_file(path);
    const TensorInfo& t = npy.outputs.at(0);
    switch (t.dtype) {
      case DType::kFloat:
      case DType::kFloat16:
      case DType::kDouble:
      case DType::kInt8:
      case DType::kInt16:
      case DType::kInt32:
      case DType::kInt64:
      case DType::kUInt8:
      case DType::kUInt16:
      case DType::kUInt32:
      case DType::kUInt64:
      case DType::kBool:
        break;
      default:
        throw format_error(
            path, "The dtype(" + std::string(dtype_numpy_name(t.dtype)) + ") does not support.");
    }
    TensorSpec out;
    out.dtype = t.dtype;
    out.format = Format::kReserved;
    out.shape = t.shape;
    out.bytes.assign(npy.tensor_data(t), npy.tensor_data(t) + t.size);
    DumpSpec spec;
    spec.dump_time = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count());
    spec.outputs.push_back(std::move(out));
    const std::string file = o_.type == "quant"        ? name + ".quant"
                             : framework_type(o_.type) ? name + ".pb"
                                                       : name;
    write_binary_dump(o_.output_dir + "/" + file, spec);
    ++summary.written;
  }

  const DataConversionOptions& o_;
};

}  // namespace

DataConversionSummary convert_data(const DataConversionOptions& o) {
  if (o.target != "numpy" && o.target != "dump") {
    throw Error(ExitCode::kUsage,
                "The input of target argument does not support, only supports dump and numpy.");
  }
  if (!framework_type(o.type) && o.type != "offline" && o.type != "sim") {
    throw Error(ExitCode::kUsage,
                "The input of type argument does not support, only supports tf, caffe, quant, "
                "offline and sim.");
  }
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (!fs::is_directory(o.output_dir)) {
    throw Error(ExitCode::kInput, o.output_dir + ": cannot create the output directory");
  }
  const std::string failed_list = o.output_dir + "/convert_failed_file_list.txt";
  fs::remove(failed_list, ec);
  bool several = false;
  const std::vector<std::string> files = input_files(o.input, several);
  DataConverter converter(o);
  DataConversionSummary summary;
  for (const std::string& path : files) {
    ++summary.files;
    try {
      converter.file(path, summary);
      continue;
    } catch (const Error& e) {
      if (!several) throw;
      if (o.report) o.report(Severity::kError, e.what());
    }
    ++summary.failed_files;
    append_line(failed_list, fs::absolute(path).lexically_normal().string() + "\n");
  }
  return summary;
}

}  // namespace dumpcmp
