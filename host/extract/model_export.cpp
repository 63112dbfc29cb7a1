#include "extract/model_export.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "extract/model_dtypes.hpp"
#include "extract/submodel_extract.hpp"
#include "fusion/graph_summary.hpp"
#include "io/dump_file.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

namespace {

int64_t format_dtype(ModelKind kind, DType t) {
  switch (kind) {
    case ModelKind::kOnnx:
      return onnx_elem_type(t);
    case ModelKind::kTensorFlow:
      return tf_data_type(t);
    case ModelKind::kCaffe:
      return 1;  // blobs are float
  }
  return -1;
}

// Fills what `into` lacks from `from`.
void merge_type(TensorType& into, const TensorType& from) {
  if (into.dtype < 0) into.dtype = from.dtype;
  if (!into.has_shape && from.has_shape) {
    into.has_shape = true;
    into.dims = from.dims;
  }
}

// The offline model's record of each original layer's outputs (origin name and output index ->
// its origin shape and dtype), indexed once.
class OriginIndex {
 public:
  OriginIndex(const FusionRule* rule, ModelKind kind) : kind_(kind) {
    if (!rule) return;
    for (const FusionOp& op : rule->ops()) {
      for (const OutputDesc& d : op.output_desc) {
        descs_.emplace(std::make_pair(d.origin_name, d.origin_output_index), &d);
      }
    }
  }

  // What it records of output `index` of layer `layer`.
  bool find(const std::string& layer, int index, TensorType& out) const {
    const auto it = descs_.find({layer, index});
    if (it == descs_.end()) return false;
    DType t;
    out.dtype = parse_dtype(it->second->data_type, t) ? format_dtype(kind_, t) : -1;
    out.has_shape = true;
    out.dims = it->second->origin_shape;
    return true;
  }

 private:
  ModelKind kind_;
  std::map<std::pair<std::string, int>, const OutputDesc*> descs_;  // the first of each
};

// The layer writing input `slot` of layer `consumer` and which of its outputs that is.
std::pair<int, int> producer_of(const LayerGraph& g, const std::vector<std::vector<int>>& producers,
                                const std::string& consumer, int slot) {
  const int c = g.find(consumer);
  if (c < 0) return {-1, 0};
  const int p = producers[static_cast<size_t>(c)][static_cast<size_t>(slot)];
  if (p < 0) return {-1, 0};
  const std::vector<std::string>& outs = g.layers[static_cast<size_t>(p)].outputs;
  const std::string& t = g.layers[static_cast<size_t>(c)].inputs[static_cast<size_t>(slot)];
  for (size_t k = 0; k < outs.size(); ++k) {
    if (outs[k] == t) return {p, static_cast<int>(k)};
  }
  return {p, 0};
}

std::string result_dir_name(const std::string& parent) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y_%m_%d_%H_%M_%S", &local);
  std::string dir = parent + "/dump_result_" + stamp;
  // Two exports in one second get their own folders.
  for (int n = 1; fs::exists(dir); ++n)
    dir = parent + "/dump_result_" + stamp + "_" + std::to_string(n);
  return dir;
}

void make_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw Error(ExitCode::kInput, dir + ": cannot create the folder");
}

void copy_into(const std::string& file, const std::string& dir) {
  std::error_code ec;
  fs::copy_file(file, fs::path(dir) / fs::path(file).filename(),
                fs::copy_options::overwrite_existing, ec);
  if (ec) throw Error(ExitCode::kInput, file + ": cannot copy: " + ec.message());
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

// The offline-model ops carrying a chosen layer, their dumps copied, and the start layer's input
// data exported. Returns the log's part from "Output Dump Path".
std::string export_dumps(const ModelExportOptions& o, const FusionRule& rule,
                         const Inventory& dumps, const std::set<std::string>& layers,
                         const std::string& data_dir, ModelExportSummary& summary) {
  make_dir(data_dir);
  std::string log = "Output Dump Path:" + data_dir + "\n";
  const FusionOp* start_op = nullptr;
  std::set<std::string> copied;
  auto copy_once = [&](const std::string& path) {
    if (copied.insert(path).second) {
      copy_into(path, data_dir);
      ++summary.copied;
    }
  };
  for (const FusionOp& op : rule.ops()) {
    const std::vector<std::string> carried =
        op.have_origin ? op.original_op_names : std::vector<std::string>{op.name};
    bool inside = false, has_start = false;
    for (const std::string& name : carried) {
      inside = inside || layers.count(name);
      has_start = has_start || name == o.start;
    }
    if (!inside) continue;
    ++summary.npu_ops;
    if (has_start && !start_op) start_op = &op;
    log += "Dump Layer:[" + join(carried, ", ") + "]\n";
    const OpDumps* own = dumps.find(op.name);
    if (own) {
      copy_once(own->chosen().path);
      log += "Output File:" + fs::path(own->chosen().path).filename().string() + "\n";
    } else {
      log += "Output File:none (no dump of " + op.name + ")\n";
      ++summary.missing;
    }
    std::set<std::string> listed;
    for (const std::string& input : op.inputs) {
      const size_t colon = input.rfind(':');
      const OpDumps* from = dumps.find(colon == std::string::npos ? input : input.substr(0, colon));
      if (!from || !listed.insert(from->chosen().path).second) continue;
      // The start layer's input data: the dump of the op making it.
      if (has_start) copy_once(from->chosen().path);
      log += "Input File:" + fs::path(from->chosen().path).filename().string() + "\n";
    }
  }
  const OpDumps* start_dump = start_op ? dumps.find(start_op->name) : nullptr;
  if (!start_dump) {
    log += "Input Data:none (no dump of an op carrying the start layer \"" + o.start + "\")\n";
    return log;
  }
  const std::string base = fs::path(start_dump->chosen().path).filename().string();
  for (const ExportedInput& e :
       export_dump_inputs(start_dump->chosen().path, data_dir + "/" + base)) {
    if (e.stem.empty()) {
      log += "Input Data:input " + std::to_string(e.index) + " cannot be decoded\n";
      continue;
    }
    log += "Input Data:" + e.stem + ".npy " + e.stem + ".float16.bin (" + e.format + " " +
           shape_to_string(e.shape) + ")\n";
    ++summary.exported;
  }
  return log;
}

// The start layer's NPU input types (restored shapes, the dump's dtype), in input order: the
// last source for a sub-model input's shape.
std::vector<TensorType> dump_input_types(const ModelExportOptions& o, const FusionRule& rule,
                                         const Inventory& dumps, ModelKind kind) {
  std::vector<TensorType> out;
  for (const FusionOp& op : rule.ops()) {
    const bool carries = op.have_origin ? std::count(op.original_op_names.begin(),
                                                     op.original_op_names.end(), o.start) > 0
                                        : op.name == o.start;
    if (!carries) continue;
    const OpDumps* d = dumps.find(op.name);
    if (!d) return out;
    const DumpFile file = read_dump_file(d->chosen().path);
    for (const TensorInfo& t : file.inputs) {
      TensorType type;
      type.dtype = format_dtype(kind, t.dtype);
      type.has_shape = true;
      type.dims = t.original_shape.empty() ? t.shape : t.original_shape;
      out.push_back(type);
    }
    return out;
  }
  return out;
}

}  // namespace

std::string model_name_warning(const SourceModel& model, const std::string& graph_json) {
  const std::vector<GeGraphSummary> graphs = list_graphs_file(graph_json);
  if (graphs.empty() || graphs[0].name.empty() || model.model_name().empty() ||
      graphs[0].name == model.model_name()) {
    return "";
  }
  return "the offline model " + graph_json + " was made from a model named \"" + graphs[0].name +
         "\", not \"" + model.model_name() + "\" (" + model.graph().source + ")";
}

std::string list_layers(const SourceModel& model, const FusionRule* rule,
                        const std::vector<int>& chosen) {
  const LayerGraph& g = model.graph();
  const OriginIndex origins(rule, model.kind());
  const std::set<int> marked(chosen.begin(), chosen.end());
  std::string out;
  for (size_t i = 0; i < g.layers.size(); ++i) {
    const Layer& layer = g.layers[i];
    out += marked.count(static_cast<int>(i)) ? "* " : "  ";
    out += layer.name + " (" + layer.type + ")";
    if (!layer.inputs.empty()) out += " <- " + join(layer.inputs, ", ");
    out += " ->";
    for (size_t k = 0; k < layer.outputs.size(); ++k) {
      const auto it = g.tensors.find(layer.outputs[k]);
      TensorType type = it == g.tensors.end() ? TensorType{} : it->second;
      TensorType origin;
      if (!type.has_shape && origins.find(layer.name, static_cast<int>(k), origin)) {
        merge_type(type, origin);
      }
      out += (k ? ", " : " ") + layer.outputs[k] + " " + tensor_type_text(&type);
    }
    out += "\n";
  }
  return out;
}

ModelExportSummary export_submodel(const ModelExportOptions& o) {
  const std::unique_ptr<SourceModel> model = read_source_model(o.model, o.weights);
  const LayerGraph& g = model->graph();
  const SubModel sub = select_submodel(g, o.start, o.end);
  const bool with_dumps = !o.graph_json.empty() && !o.dump_dir.empty();
  std::optional<FusionRule> rule;
  ModelExportSummary summary;
  if (!o.graph_json.empty()) {
    rule = FusionRule::parse_file(o.graph_json);
    if (std::string w = model_name_warning(*model, o.graph_json); !w.empty()) {
      summary.warnings.push_back(std::move(w));
    }
  }

  // Each input's type: the model's record, else the offline model's origin, else the dump.
  const std::vector<std::vector<int>> producers = g.producers();
  std::optional<Inventory> dumps;
  if (with_dumps) dumps = Inventory::scan(o.dump_dir);
  const std::vector<TensorType> from_dump =
      with_dumps ? dump_input_types(o, *rule, *dumps, model->kind()) : std::vector<TensorType>{};
  const OriginIndex origins(rule ? &*rule : nullptr, model->kind());
  KnownTypes known;
  int start_slot = 0;
  for (size_t k = 0; k < sub.inputs.size(); ++k) {
    const auto it = g.tensors.find(sub.inputs[k]);
    TensorType type = it == g.tensors.end() ? TensorType{} : it->second;
    TensorType origin;
    const auto [p, index] = producer_of(g, producers, sub.input_consumers[k], sub.input_slots[k]);
    if (origins.find(p >= 0 ? g.layers[static_cast<size_t>(p)].name : sub.inputs[k],
                     p >= 0 ? index : 0, origin)) {
      merge_type(type, origin);
    }
    if (sub.input_consumers[k] == o.start) {
      if (static_cast<size_t>(start_slot) < from_dump.size()) {
        merge_type(type, from_dump[static_cast<size_t>(start_slot)]);
      }
      ++start_slot;
    }
    known.inputs.push_back(type);
  }
  for (size_t k = 0; k < sub.outputs.size(); ++k) {
    const auto it = g.tensors.find(sub.outputs[k]);
    TensorType type = it == g.tensors.end() ? TensorType{} : it->second;
    TensorType origin;
    if (origins.find(o.end, static_cast<int>(k), origin)) merge_type(type, origin);
    known.outputs.push_back(type);
  }

  std::vector<std::string> added;
  const std::vector<ModelFile> files = model->write(sub, known, added);
  for (const int i : sub.layers) summary.layers.push_back(g.layers[static_cast<size_t>(i)].name);

  make_dir(o.output_dir);
  summary.result_dir = result_dir_name(o.output_dir);
  make_dir(summary.result_dir);
  for (const ModelFile& f : files) {
    write_file_atomically(summary.result_dir + "/" + f.name, f.bytes);
    summary.files.push_back(summary.result_dir + "/" + f.name);
  }
  std::string log;
  for (const std::string& text : added) log += "Add Layer Into Prototxt:\n" + text + "\n";
  if (with_dumps) {
    log += export_dumps(o, *rule, *dumps, {summary.layers.begin(), summary.layers.end()},
                        summary.result_dir + "/dump_data", summary);
  }
  log += "Export Layer:" + join(summary.layers, ",") + "\n";
  summary.log_path = summary.result_dir + "/extract_log.txt";
  write_file_atomically(summary.log_path, log);
  return summary;
}

}  // namespace dumpcmp
