#include "convert/convert_dumps.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "convert/convert_files.hpp"
#include "convert/convert_messages.hpp"
#include "convert/torch_file.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/partial_files.hpp"
#include "core/text.hpp"
#include "fusion/fusion_messages.hpp"
#include "fusion/fusion_rule.hpp"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "io/ffts_merge.hpp"
#include "layout/layout_plan.hpp"
#include "overflow/overflow_scan.hpp"
#include "plugin/custom_algorithms.hpp"
#include "plugin/python_worker.hpp"
#include "tensor/array_export.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxFileName = 255;

std::string joined(const Shape& shape, const char* separator) {
  return format_dims(shape, "", separator, "");
}

class Converter {
 public:
  explicit Converter(const ConvertOptions& o) : o_(o) {}

  void say(Severity severity, const std::string& message) const {
    if (o_.report) o_.report(severity, message);
  }
  void warn(const std::string& message) const { say(Severity::kWarning, message); }

  // Returns "" or the failed tensors as ",input:0,output:1".
  std::string file(const std::string& path, ConvertSummary& summary) {
    DumpFile dump;
    try {
      dump = read_dump_file(path);
    } catch (const Error& e) {
      // msaccucmp reads a dump of at most 8 bytes as one without tensors, as compare does.
      std::error_code ec;
      const auto size = fs::file_size(path, ec);
      if (ec || size > 8 || fs::path(path).extension() == ".npy") throw;
      warn(e.what());
      for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
        warn(msg::no_tensors_in(tensor_group_name(g), path));
      }
      return "";
    }
    // msaccucmp decodes every tensor as it parses: one it cannot decode fails the whole file.
    if (const std::string problem = undecodable_dtype_message(dump); !problem.empty()) {
      throw format_error(path, problem);
    }
    written_.clear();
    std::string failed;
    try {
      failed = convert(dump, path, summary);
    } catch (const Error&) {
      // A write from a shrunk mapping fails (EFAULT): then the shrunk file is the cause, below.
      if (damaged_problem_after_probe(dump).empty()) throw;
    }
    // What was written from a file that shrank meanwhile holds zeros for its lost bytes: removed.
    if (std::string damage = damaged_problem(dump); !damage.empty()) {
      std::error_code ec;
      for (const std::string& out : written_) summary.written -= fs::remove(out, ec) ? 1 : 0;
      throw Error(ExitCode::kInput, damage);
    }
    return failed;
  }

 private:
  std::string convert(const DumpFile& dump, const std::string& path, ConvertSummary& summary) {
    const std::string name = fs::path(path).filename().string();
    std::string failed;
    if (name.rfind("Opdebug.Node_OpDebug.", 0) == 0) {
      // An overflow record: msaccucmp writes its fields as JSON, whatever -f and -t say.
      for (const TensorInfo& t : dump.outputs) {
        std::string json;
        parse_opdebug(dump.tensor_data(t), t.size, path, &json);
        if (json.empty())
          throw Error(ExitCode::kInput, path + ": the overflow record could not be read");
        const std::string out =
            output_path(name + ".output." + std::to_string(t.index) + ".json", ".json");
        write_file_atomically(out, json);
        ++summary.written;
      }
      return failed;
    }
    if (!o_.tensor.empty()) {
      const bool input = o_.tensor == "input";
      const std::vector<TensorInfo>& tensors = input ? dump.inputs : dump.outputs;
      if (o_.index >= static_cast<int>(tensors.size())) {
        throw Error(ExitCode::kInput,
                    msg::index_past_count("", o_.tensor, o_.index, tensors.size()));
      }
      tensor(dump, name, tensors[static_cast<size_t>(o_.index)], failed, summary);
      return failed;
    }
    for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
      const std::vector<TensorInfo>& tensors = dump.group(g);
      if (tensors.empty()) {
        warn(msg::no_tensors_in(tensor_group_name(g), path));
        continue;
      }
      // An automatic-mode FFTS+ slice: each tensor takes its thread's slice shape (without -f).
      const std::optional<std::vector<Shape>> shapes =
          o_.format ? std::nullopt : ffts_thread_shapes(dump, g);
      if (shapes && shapes->size() != tensors.size()) {
        throw format_error(path, "FFTS+ slice: " + std::to_string(shapes->size()) + " " +
                                     std::string(tensor_group_name(g)) + " slice shapes for " +
                                     std::to_string(tensors.size()) + " tensors");
      }
      for (const TensorInfo& t : tensors) {
        tensor(dump, name, t, failed, summary,
               shapes ? &(*shapes)[static_cast<std::size_t>(t.index)] : nullptr);
      }
    }
    if (!o_.format) {
      for (size_t k = 0; k < dump.buffers.size(); ++k) {
        const TensorInfo& b = dump.buffers[k];
        save(name + ".l1buffer." + std::to_string(k) + ".bin", ".bin", dump.tensor_data(b), b.size,
             summary);
      }
    }
    return failed;
  }

  // `slice_shape`: the shape an FFTS+ slice's tensor is saved with; a tensor whose element count
  // does not fit it is not written (msaccucmp logs the failed reshape and goes on).
  void tensor(const DumpFile& dump, const std::string& name, const TensorInfo& t,
              std::string& failed, ConvertSummary& summary, const Shape* slice_shape = nullptr) {
    const std::string type(tensor_group_name(t.group));
    const std::string label = type + ":" + std::to_string(t.index);
    const std::size_t width = dtype_storage_size(t.dtype);
    const int64_t want = shape_element_count(t.shape).value_or(-1);
    const int64_t have = t.dtype == DType::kUInt1
                             ? static_cast<int64_t>(t.size * 8)
                             : (width ? static_cast<int64_t>(t.size / width) : -1);
    if (width == 0 || want < 0 || want > have) {
      warn(msg::tensor_parse_failed(label, dump.path));
      if (o_.format) failed += "," + label;
      return;
    }
    LayoutMap map;
    map.count = want;
    Shape shape = t.shape;
    if (slice_shape) {
      if (shape_element_count(*slice_shape).value_or(-1) != want) {
        say(Severity::kError,
            dump.path + ": " + label + " holds " + std::to_string(want) +
                " elements, its FFTS+ slice shape " + shape_to_string(*slice_shape) + " needs " +
                std::to_string(shape_element_count(*slice_shape).value_or(-1)) + "; not written");
        return;
      }
      shape = *slice_shape;
    }
    Format format = t.format;
    if (o_.format) {
      if (const std::string module = custom_module(t); !module.empty()) {
        custom_tensor(dump, name, t, module, want, failed, summary);
        return;
      }
      const LayoutPlan plan = plan_convert_command(t, *o_.format, o_.shape);
      if (!plan.ok) {
        say(Severity::kError, msg::convert_format_failed(label, dump.path, plan.note));
        failed += "," + label;
        // msnpy still saves the tensor as it is (_save_file_for_convert_failed_tensor).
        if (o_.file_type == "msnpy") {
          save_npy(dump, name, t, export_array(dump.tensor_data(t), t.dtype, map), t.shape,
                   t.format, summary);
        }
        return;
      }
      if (!plan.note.empty()) warn(plan.note);
      map = plan.map;
      shape = plan.result_shape;
      format = plan.result_format;
    }
    ExportedArray array = export_array(dump.tensor_data(t), t.dtype, map);
    // msaccucmp's array of a dump tensor: np.array([]) (float64) when it is empty, and saved
    // without its shape when that is [] (`if shape:`), i.e. 1-D; torch.save reshapes it to [].
    if (!o_.format && want == 0) array.dtype = DType::kDouble;
    const Shape npy_shape = !o_.format && shape.empty() ? Shape{1} : shape;
    const std::string base = name + "." + type + "." + std::to_string(t.index);
    if (o_.file_type == "pt" && !o_.format) {
      // torch.save(torch.from_numpy(array)); a dtype torch cannot hold is logged, not failed.
      try {
        write_torch_tensor(output_path(base + ".pt", ".pt"), array.dtype, shape, array.data,
                           array.bytes);
        ++summary.written;
      } catch (const Error& e) {
        say(Severity::kError, e.what());
      }
      return;
    }
    if (o_.file_type == "bin" || o_.file_type == "pt") {
      const std::string_view dtype = dtype_numpy_name(t.dtype);
      // Without -f msaccucmp names the file by its flat array (the dump's data is 1-D there), an
      // empty one by its shape (np.array([]).reshape(shape)).
      const Shape named = o_.format || want == 0 ? shape : Shape{want};
      const std::string file = base + "." + joined(named, "_") + "." +
                               std::string(dtype.empty() ? "NaN" : dtype) + "." +
                               std::string(format_name(format)) + ".bin";
      if (o_.file_type == "pt") {
        // msaccucmp's -f path has no .pt branch: the .bin name, written by np.save.
        write_npy(output_path(file, ".bin"), array.dtype, shape, array.data, array.bytes);
        ++summary.written;
        return;
      }
      save(file, ".bin", array.data, array.bytes, summary);
      return;
    }
    if (o_.file_type == "msnpy") return save_npy(dump, name, t, array, npy_shape, format, summary);
    const std::string file = o_.format ? base + "." + joined(shape, "x") + ".npy" : base + ".npy";
    const std::string path = output_path(file, ".npy");
    write_npy(path, array.dtype, npy_shape, array.data, array.bytes);
    ++summary.written;
  }

  // -c: the custom converter for the tensor's format pair, or ""; the same format needs none.
  std::string custom_module(const TensorInfo& t) const {
    const Format from = converter_source_format(t.format, t.shape);
    return from == *o_.format ? "" : find_custom_converter(o_.custom_dir, from, *o_.format);
  }

  // One tensor through its custom converter (docs/plugins.md): msaccucmp's flat array of it goes to
  // the script with the dump's shape and the target shape (-s, else the original shape); the result
  // is cut to that shape as msaccucmp cuts it and saved under the name msaccucmp gives it. If the
  // cut fails the array is kept whole and named with the dump's format.
  void custom_tensor(const DumpFile& dump, const std::string& name, const TensorInfo& t,
                     const std::string& module, int64_t count, std::string& failed,
                     ConvertSummary& summary) {
    const std::string label =
        std::string(tensor_group_name(t.group)) + ":" + std::to_string(t.index);
    const ExportedArray array = export_array(dump.tensor_data(t), t.dtype, count);
    if (!worker_)
      worker_ = std::make_unique<PythonWorker>(o_.custom_dir, std::vector<std::string>{},
                                               AlgorithmParams{}, o_.report);
    std::copy(array.data, array.data + array.bytes, worker_->buffer(array.bytes));
    const Shape target = o_.shape.empty() ? t.original_shape : o_.shape;
    const std::string partial = o_.output_dir + "/." + name + ".dumpcmp.partial";
    const partial_files::Registration in_flight(partial);  // removed if the run is interrupted
    PythonWorker::Converted converted;
    try {
      converted = worker_->convert_file(module, t.shape, target, npy_descr(array.dtype), count,
                                        partial, target.empty() ? nullptr : &target);
      if (!converted.unusable.empty()) throw Error(ExitCode::kInput, converted.unusable);
    } catch (const Error& e) {
      std::error_code ec;
      fs::remove(partial, ec);
      say(Severity::kError, msg::convert_format_failed(label, dump.path, e.what()));
      failed += "," + label;
      if (o_.file_type == "msnpy") {
        save_npy(dump, name, t, array, t.shape, t.format, summary);
      }
      return;
    }
    const Format format = converted.sliced ? *o_.format : t.format;
    const Shape& shape = converted.shape;
    const std::string base =
        name + "." + std::string(tensor_group_name(t.group)) + "." + std::to_string(t.index);
    std::string file, suffix = ".npy";
    if (o_.file_type == "bin" || o_.file_type == "pt") {
      const std::string_view dtype = dtype_numpy_name(t.dtype);
      file = base + "." + joined(shape, "_") + "." + std::string(dtype.empty() ? "NaN" : dtype) +
             "." + std::string(format_name(format)) + ".bin";
      suffix = ".bin";
    } else if (o_.file_type == "msnpy") {
      file = msnpy_name(dump, name, t, format);
    } else {
      file = base + "." + joined(shape, "x") + ".npy";
    }
    const std::string path = output_path(file, suffix);
    std::error_code ec;
    if (o_.file_type == "bin") {  // the raw elements, as ndarray.tofile writes them
      const DumpFile saved = read_npy_file(partial);
      const TensorInfo& a = saved.outputs.at(0);
      write_file_atomically(path, saved.tensor_data(a), a.size);
      fs::remove(partial, ec);
    } else {
      fs::rename(partial, path, ec);
      if (ec) throw Error(ExitCode::kInput, path + ": cannot write: " + ec.message());
    }
    ++summary.written;
  }

  // -t msnpy (numpy for MindSpore): "{name}.{input|output}.{i}.{FORMAT}.npy", where a 5-field
  // dump name has its op field replaced by the last '/' part of the dump's own op name
  // (make_msnpy_file_name).
  void save_npy(const DumpFile& dump, const std::string& name, const TensorInfo& t,
                const ExportedArray& array, const Shape& shape, Format format,
                ConvertSummary& summary) {
    write_npy(output_path(msnpy_name(dump, name, t, format), ".npy"), array.dtype, shape,
              array.data, array.bytes);
    ++summary.written;
  }

  static std::string msnpy_name(const DumpFile& dump, const std::string& name, const TensorInfo& t,
                                Format format) {
    std::vector<std::string> fields = split_dots(name);
    std::string file = name;
    if (fields.size() == 5 && !dump.op_name.empty()) {
      fields[1] = dump.op_name.substr(dump.op_name.rfind('/') + 1);
      file = join_dots(fields);
    }
    return file + "." + std::string(tensor_group_name(t.group)) + "." + std::to_string(t.index) +
           "." + std::string(format_name(format)) + ".npy";
  }

  static std::vector<std::string> split_dots(const std::string& text) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t dot; (dot = text.find('.', start)) != std::string::npos; start = dot + 1) {
      fields.push_back(text.substr(start, dot - start));
    }
    fields.push_back(text.substr(start));
    return fields;
  }

  static std::string join_dots(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "." : "") + fields[i];
    return out;
  }

  // Where an output goes, remembered until the next input file.
  std::string output_path(const std::string& file, const std::string& suffix) {
    written_.push_back(file.size() < kMaxFileName ? o_.output_dir + "/" + file
                                                  : long_name_path(file, suffix));
    return written_.back();
  }

  // Names of 255 characters or more become a uuid3, recorded in mapping.csv ("new,old").
  std::string long_name_path(const std::string& file, const std::string& suffix) {
    std::string uuid = uuid3_dns(file);
    uuid.erase(std::remove(uuid.begin(), uuid.end(), '-'), uuid.end());
    append_line(o_.output_dir + "/mapping.csv", uuid + suffix + "," + file + "\n");
    return o_.output_dir + "/" + uuid + suffix;
  }

  void save(const std::string& file, const std::string& suffix, const uint8_t* data, std::size_t n,
            ConvertSummary& summary) {
    write_file_atomically(output_path(file, suffix), data, n);
    ++summary.written;
  }

  const ConvertOptions& o_;
  std::vector<std::string> written_;      // the current file's outputs
  std::unique_ptr<PythonWorker> worker_;  // -c's converters, started when first needed
};

}  // namespace

Shape parse_convert_shape(const std::string& text) {
  Shape shape;
  if (text.empty()) return shape;
  bool ok = text.find(',') != std::string::npos;
  for (const std::string& dim : ok ? split_commas(text) : std::vector<std::string>{}) {
    const std::optional<int64_t> n = parse_natural(dim);
    ok = n.has_value();
    if (!ok) break;
    if (*n == 0) {
      throw Error(ExitCode::kUsage, msg::shape_dim_not_positive(text));
    }
    shape.push_back(*n);
  }
  if (!ok) {
    throw Error(ExitCode::kUsage, msg::shape_text_invalid(text));
  }
  return shape;
}

ConvertSummary convert_dumps(const ConvertOptions& o) {
  if (o.file_type != "npy" && o.file_type != "bin" && o.file_type != "msnpy" &&
      o.file_type != "pt") {
    throw Error(ExitCode::kUsage, "-t must be npy, bin, msnpy or pt (got '" + o.file_type + "')");
  }
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (!fs::is_directory(o.output_dir)) {
    throw Error(ExitCode::kInput, o.output_dir + ": cannot create the output directory");
  }
  bool several = false;
  const std::vector<std::string> files = input_files(o.dump_path, several);
  if (several && !o.tensor.empty() && o.report) {
    o.report(Severity::kWarning, msg::directory_ignores_tensor_arguments());
  }
  ConvertOptions effective = o;
  if (several) effective.tensor.clear();
  Converter converter(effective);
  ConvertSummary summary;
  const std::string failed_list = o.output_dir + "/convert_failed_file_list.txt";
  for (const std::string& path : files) {
    ++summary.files;
    std::string failed;
    try {
      failed = converter.file(path, summary);
      if (failed.empty()) continue;
    } catch (const Error& e) {
      if (!several) throw;
      if (o.report) o.report(Severity::kError, e.what());
    }
    ++summary.failed_files;
    if (several)
      append_line(failed_list, fs::absolute(path).lexically_normal().string() + failed + "\n");
  }
  return summary;
}

}  // namespace dumpcmp
