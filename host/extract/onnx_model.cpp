// ONNX ModelProto read and cut at the wire level (docs/formats.md §10.1). Only what the sub-model
// needs is interpreted: the graph's nodes (inputs, outputs, name, op_type), initializers' names,
// and value infos' names and types; every other field is copied as its bytes.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "extract/source_model.hpp"
#include "io/proto_wire.hpp"

namespace dumpcmp {
namespace {

// ModelProto, GraphProto, NodeProto, ValueInfoProto, TypeProto, TensorProto field numbers.
constexpr uint32_t kModelGraph = 7;
constexpr uint32_t kGraphNode = 1, kGraphName = 2, kGraphInitializer = 5, kGraphInput = 11,
                   kGraphOutput = 12, kGraphValueInfo = 13, kGraphSparseInitializer = 15;
constexpr uint32_t kNodeInput = 1, kNodeOutput = 2, kNodeName = 3, kNodeOpType = 4,
                   kNodeAttribute = 5;
constexpr uint32_t kAttributeGraph = 6, kAttributeGraphs = 11;
constexpr int kMaxSubgraphDepth = 32;  // If/Loop/Scan bodies nested deeper are not a real model
constexpr uint32_t kValueName = 1, kValueType = 2;
constexpr uint32_t kTypeTensor = 1, kTensorElemType = 1, kTensorShape = 2;
constexpr uint32_t kShapeDim = 1, kDimValue = 1;
constexpr uint32_t kTensorDims = 1, kTensorDataType = 2, kTensorName = 8;
constexpr uint32_t kSparseValues = 1;

std::string str(std::string_view s) { return std::string(s); }

void outer_names(std::string_view graph, const std::string& where, int depth,
                 std::vector<std::string>& out);

// The names the subgraphs in a node's attributes (If branches, Loop and Scan bodies) read from
// the enclosing scopes: inputs of the node as real as its listed ones.
void subgraph_reads(const std::vector<pb::Field>& node, const std::string& where, int depth,
                    std::vector<std::string>& out) {
  for (const pb::Field& f : node) {
    if (f.number != kNodeAttribute || f.wire != pb::kLength) continue;
    for (const pb::Field& a : pb::parse_fields(f.data, where)) {
      if ((a.number == kAttributeGraph || a.number == kAttributeGraphs) && a.wire == pb::kLength) {
        outer_names(a.data, where, depth + 1, out);
      }
    }
  }
}

// The names a graph reads that it neither makes nor declares (inputs, initializers).
void outer_names(std::string_view graph, const std::string& where, int depth,
                 std::vector<std::string>& out) {
  if (depth > kMaxSubgraphDepth) throw format_error(where, "subgraphs nested too deeply");
  std::set<std::string> inside;
  std::vector<std::string> read;
  for (const pb::Field& f : pb::parse_fields(graph, where)) {
    if (f.wire != pb::kLength) continue;
    if (f.number == kGraphInput || f.number == kGraphInitializer) {
      const uint32_t name_field = f.number == kGraphInput ? kValueName : kTensorName;
      if (const auto n = pb::find_bytes(pb::parse_fields(f.data, where), name_field)) {
        inside.insert(str(*n));
      }
    } else if (f.number == kGraphNode) {
      const std::vector<pb::Field> node = pb::parse_fields(f.data, where);
      for (const pb::Field& g : node) {
        if (g.number == kNodeOutput && g.wire == pb::kLength) inside.insert(str(g.data));
        if (g.number == kNodeInput && g.wire == pb::kLength && !g.data.empty()) {
          read.push_back(str(g.data));
        }
      }
      subgraph_reads(node, where, depth, read);
    }
  }
  for (std::string& name : read) {
    if (!inside.count(name)) out.push_back(std::move(name));
  }
}

TensorType read_type(std::string_view type_proto, const std::string& where) {
  TensorType out;
  const auto tensor = pb::find_bytes(pb::parse_fields(type_proto, where), kTypeTensor);
  if (!tensor) return out;
  const std::vector<pb::Field> fields = pb::parse_fields((*tensor), where);
  for (const pb::Field& f : fields) {
    if (f.number == kTensorElemType && f.wire == pb::kVarint) {
      out.dtype = static_cast<int64_t>(f.varint);
    }
  }
  if (const auto shape = pb::find_bytes(fields, kTensorShape)) {
    out.has_shape = true;
    for (const std::string_view dim :
         pb::strings_of(pb::parse_fields((*shape), where), kShapeDim)) {
      const std::vector<int64_t> value =
          pb::ints_of(pb::parse_fields(dim, where), kDimValue, where);
      out.dims.push_back(value.empty() ? -1 : value.back());
    }
  }
  return out;
}

std::string value_info(const std::string& name, const TensorType& type) {
  std::string tensor;
  pb::put_int(tensor, kTensorElemType, type.dtype);
  if (type.has_shape) {
    std::string shape;
    for (const int64_t d : type.dims) {
      std::string dim;
      if (d >= 0) pb::put_int(dim, kDimValue, d);
      pb::put_bytes(shape, kShapeDim, dim);
    }
    pb::put_bytes(tensor, kTensorShape, shape);
  }
  std::string type_proto, out;
  pb::put_bytes(type_proto, kTypeTensor, tensor);
  pb::put_bytes(out, kValueName, name);
  pb::put_bytes(out, kValueType, type_proto);
  return out;
}

class OnnxModel : public SourceModel {
 public:
  OnnxModel(std::string bytes, const std::string& path)
      : SourceModel(ModelKind::kOnnx), bytes_(std::move(bytes)) {
    graph_.source = path;
    model_ = pb::parse_fields(bytes_, path);
    const auto graph = pb::find_bytes(model_, kModelGraph);
    if (!graph) throw format_error(path, "not an ONNX model: no graph (ModelProto field 7)");
    const std::string where = path + ": graph";
    graph_fields_ = pb::parse_fields((*graph), where);
    for (const pb::Field& f : graph_fields_) {
      if (f.wire != pb::kLength) continue;
      if (f.number == kGraphName) name_ = str(f.data);
      if (f.number == kGraphNode) {
        read_node(f.data, where + ".node[" + std::to_string(graph_.layers.size()) + "]");
      }
      if (f.number == kGraphInitializer) read_initializer(f.data, where + ".initializer");
      if (f.number == kGraphSparseInitializer) {
        if (const auto v = pb::find_bytes(pb::parse_fields(f.data, where), kSparseValues)) {
          read_initializer((*v), where + ".sparse_initializer");
        }
      }
      if (f.number == kGraphInput || f.number == kGraphOutput || f.number == kGraphValueInfo) {
        const std::vector<pb::Field> v = pb::parse_fields(f.data, where + ".value_info");
        const auto name = pb::find_bytes(v, kValueName);
        const auto type = pb::find_bytes(v, kValueType);
        if (!name) continue;
        infos_.emplace(str(*name), f.data);
        if (type && !graph_.tensors.count(str(*name))) {
          graph_.tensors[str(*name)] = read_type((*type), where + ".value_info");
        }
      }
    }
  }

  std::vector<ModelFile> write(const SubModel& sub, const KnownTypes& known,
                               std::vector<std::string>& added) const override {
    const std::set<int> chosen(sub.layers.begin(), sub.layers.end());
    std::set<std::string> used, made;
    for (const int i : sub.layers) {
      const Layer& layer = graph_.layers[static_cast<size_t>(i)];
      used.insert(layer.inputs.begin(), layer.inputs.end());
      made.insert(layer.outputs.begin(), layer.outputs.end());
    }
    const std::string where = graph_.source + ": graph";
    std::string inputs;
    for (size_t k = 0; k < sub.inputs.size(); ++k) {
      const std::string info = input_info(sub.inputs[k], known.input(k), sub.input_consumers[k]);
      added.push_back(describe(sub.inputs[k], info));
      pb::put_bytes(inputs, kGraphInput, info);
    }
    std::string outputs;
    for (size_t k = 0; k < sub.outputs.size(); ++k) {
      const std::string& name = sub.outputs[k];
      const auto it = infos_.find(name);
      const auto type = graph_.tensors.find(name);
      const bool typed = type != graph_.tensors.end() && type->second.dtype >= 0;
      if (it != infos_.end() && typed) {
        pb::put_bytes(outputs, kGraphOutput, it->second);
      } else if (typed || known.output(k).dtype >= 0) {
        TensorType t = typed ? type->second : known.output(k);
        if (!t.has_shape && known.output(k).has_shape) t = known.output(k);
        pb::put_bytes(outputs, kGraphOutput, value_info(name, t));
      } else {
        throw Error(ExitCode::kUsage, graph_.source + ": the type of the output \"" + name +
                                          "\" is unknown: the model has no value_info for it "
                                          "(run ONNX shape inference on the model first, or give "
                                          "--graph and --dump)");
      }
    }
    std::string graph;
    bool inputs_done = false, outputs_done = false;
    int node = 0;
    for (const pb::Field& f : graph_fields_) {
      if (f.number == kGraphNode && f.wire == pb::kLength) {
        if (chosen.count(node++)) graph.append(f.raw);  // node k is layer k
      } else if (f.number == kGraphInitializer || f.number == kGraphSparseInitializer) {
        if (used.count(initializer_name(f, where))) graph.append(f.raw);
      } else if (f.number == kGraphInput) {
        if (!inputs_done) graph += inputs;
        inputs_done = true;
        // IR 3 lists initializers among the inputs: those still used stay.
        const std::string name = info_name(f, where);
        if (graph_.constants.count(name) && used.count(name)) graph.append(f.raw);
      } else if (f.number == kGraphOutput) {
        if (!outputs_done) graph += outputs;
        outputs_done = true;
      } else if (f.number == kGraphValueInfo) {
        const std::string name = info_name(f, where);
        if (made.count(name) && !std::count(sub.outputs.begin(), sub.outputs.end(), name)) {
          graph.append(f.raw);
        }
      } else {
        graph.append(f.raw);
      }
    }
    if (!inputs_done) graph += inputs;
    if (!outputs_done) graph += outputs;
    std::string model;
    for (const pb::Field& f : model_) {
      if (f.number == kModelGraph && f.wire == pb::kLength) {
        pb::put_bytes(model, kModelGraph, graph);
      } else {
        model.append(f.raw);
      }
    }
    return {{"dump.onnx", std::move(model)}};
  }

 private:
  void read_node(std::string_view bytes, const std::string& where) {
    Layer layer;
    const std::vector<pb::Field> fields = pb::parse_fields(bytes, where);
    for (const pb::Field& f : fields) {
      if (f.wire != pb::kLength) continue;
      // An empty input is an optional input left out.
      if (f.number == kNodeInput && !f.data.empty()) layer.inputs.push_back(str(f.data));
      if (f.number == kNodeOutput) layer.outputs.push_back(str(f.data));
      if (f.number == kNodeName) layer.name = str(f.data);
      if (f.number == kNodeOpType) layer.type = str(f.data);
    }
    std::vector<std::string> implicit;
    subgraph_reads(fields, where, 0, implicit);
    for (std::string& name : implicit) {
      if (std::find(layer.inputs.begin(), layer.inputs.end(), name) == layer.inputs.end()) {
        layer.inputs.push_back(std::move(name));
      }
    }
    // Node names are optional in ONNX: such a node is known by its first output.
    if (layer.name.empty() && !layer.outputs.empty()) layer.name = layer.outputs[0];
    graph_.layers.push_back(std::move(layer));
  }

  void read_initializer(std::string_view bytes, const std::string& where) {
    const std::vector<pb::Field> fields = pb::parse_fields(bytes, where);
    const auto name = pb::find_bytes(fields, kTensorName);
    if (!name) return;
    graph_.constants.insert(str(*name));
    TensorType type;
    type.has_shape = true;
    type.dims = pb::ints_of(fields, kTensorDims, where);
    const std::vector<int64_t> dtype = pb::ints_of(fields, kTensorDataType, where);
    type.dtype = dtype.empty() ? -1 : dtype.back();
    graph_.tensors[str(*name)] = type;
  }

  static std::string initializer_name(const pb::Field& f, const std::string& where) {
    std::vector<pb::Field> fields = pb::parse_fields(f.data, where);
    if (f.number == kGraphSparseInitializer) {
      const auto values = pb::find_bytes(fields, kSparseValues);
      if (!values) return "";
      fields = pb::parse_fields((*values), where);
    }
    const auto name = pb::find_bytes(fields, kTensorName);
    return name ? str(*name) : "";
  }

  static std::string info_name(const pb::Field& f, const std::string& where) {
    const auto name = pb::find_bytes(pb::parse_fields(f.data, where), kValueName);
    return name ? str(*name) : "";
  }

  // The model's own record of the tensor when it has a type and a shape; else one made from what
  // is known.
  std::string input_info(const std::string& name, const TensorType& known,
                         const std::string& consumer) const {
    const auto it = infos_.find(name);
    const auto type = graph_.tensors.find(name);
    const bool recorded = it != infos_.end() && type != graph_.tensors.end();
    if (recorded && type->second.dtype >= 0 && type->second.has_shape) return str(it->second);
    if (known.dtype >= 0) return value_info(name, known);
    if (recorded && type->second.dtype >= 0) return str(it->second);
    throw Error(ExitCode::kUsage,
                graph_.source + ": the type of \"" + name + "\" (an input of layer \"" + consumer +
                    "\") is unknown: the model has no value_info for it (run ONNX shape "
                    "inference on the model first, or give --graph and --dump)");
  }

  std::string describe(const std::string& name, const std::string& info) const {
    const std::vector<pb::Field> v = pb::parse_fields(info, graph_.source);
    const auto type = pb::find_bytes(v, kValueType);
    const TensorType t = type ? read_type((*type), graph_.source) : TensorType{};
    return "input {\n  name: \"" + name + "\"\n  elem_type: " + std::to_string(t.dtype) +
           "\n  shape: " + tensor_type_text(&t) + "\n}";
  }

  std::string bytes_;
  std::vector<pb::Field> model_, graph_fields_;
  std::map<std::string, std::string_view> infos_;  // ValueInfoProto bytes by tensor name
};

}  // namespace

std::unique_ptr<SourceModel> parse_onnx_model(std::string bytes, const std::string& path) {
  return std::make_unique<OnnxModel>(std::move(bytes), path);
}

}  // namespace dumpcmp
