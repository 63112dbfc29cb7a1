// TensorFlow GraphDef read and cut at the wire level (docs/formats.md §10.2). Interpreted: each
// NodeDef's name, op and inputs, and the attrs giving its outputs' types and shapes (dtype, T,
// _output_shapes). Chosen nodes are copied as their bytes, except inputs that now come from a new
// Placeholder (renamed) and control inputs from nodes left out (dropped).
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "extract/source_model.hpp"
#include "io/proto_wire.hpp"

namespace dumpcmp {
namespace {

// GraphDef, NodeDef, AttrValue, AttrValue.ListValue, TensorShapeProto field numbers.
constexpr uint32_t kGraphNode = 1;
constexpr uint32_t kNodeName = 1, kNodeOp = 2, kNodeInput = 3, kNodeAttr = 5;
constexpr uint32_t kEntryKey = 1, kEntryValue = 2;
constexpr uint32_t kAttrList = 1, kAttrType = 6, kAttrShape = 7;
constexpr uint32_t kListShape = 7;
constexpr uint32_t kShapeDim = 2, kShapeUnknownRank = 3, kDimSize = 1;

std::string str(std::string_view s) { return std::string(s); }

// "a" -> "a:0"; "a:2" stays.
std::string tensor_name(std::string_view input) {
  const size_t colon = input.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < input.size() &&
      input.find_first_not_of("0123456789", colon + 1) == std::string_view::npos) {
    return str(input);
  }
  return str(input) + ":0";
}

std::string node_of(const std::string& tensor) { return tensor.substr(0, tensor.rfind(':')); }

TensorType read_shape(std::string_view shape, const std::string& where) {
  TensorType out;
  const std::vector<pb::Field> fields = pb::parse_fields(shape, where);
  for (const pb::Field& f : fields) {
    if (f.number == kShapeUnknownRank && f.wire == pb::kVarint && f.varint) return out;
  }
  out.has_shape = true;
  for (const std::string_view dim : pb::strings_of(fields, kShapeDim)) {
    const std::vector<int64_t> size = pb::ints_of(pb::parse_fields(dim, where), kDimSize, where);
    out.dims.push_back(size.empty() ? 0 : size.back());  // proto3: a size of 0 is not written
  }
  return out;
}

std::string dtype_text(int64_t t) {
  static const std::map<int64_t, const char*> names = {
      {1, "DT_FLOAT"},   {2, "DT_DOUBLE"}, {3, "DT_INT32"},   {4, "DT_UINT8"},  {5, "DT_INT16"},
      {6, "DT_INT8"},    {7, "DT_STRING"}, {9, "DT_INT64"},   {10, "DT_BOOL"},  {14, "DT_BFLOAT16"},
      {17, "DT_UINT16"}, {19, "DT_HALF"},  {22, "DT_UINT32"}, {23, "DT_UINT64"}};
  const auto it = names.find(t);
  return it == names.end() ? std::to_string(t) : it->second;
}

std::string attr_entry(const std::string& key, const std::string& value) {
  std::string entry, out;
  pb::put_bytes(entry, kEntryKey, key);
  pb::put_bytes(entry, kEntryValue, value);
  pb::put_bytes(out, kNodeAttr, entry);
  return out;
}

class TfGraph : public SourceModel {
 public:
  TfGraph(std::string bytes, const std::string& path)
      : SourceModel(ModelKind::kTensorFlow), bytes_(std::move(bytes)) {
    graph_.source = path;
    fields_ = pb::parse_fields(bytes_, path);
    std::map<std::string, int> outputs;  // node -> output count seen
    for (const pb::Field& f : fields_) {
      if (f.number != kGraphNode || f.wire != pb::kLength) continue;
      const std::string where = path + ": node[" + std::to_string(graph_.layers.size()) + "]";
      Layer layer;
      TensorType type;
      std::vector<TensorType> shapes;
      for (const pb::Field& g : pb::parse_fields(f.data, where)) {
        if (g.wire != pb::kLength) continue;
        if (g.number == kNodeName) layer.name = str(g.data);
        if (g.number == kNodeOp) layer.type = str(g.data);
        if (g.number == kNodeInput && !g.data.empty() && g.data[0] != '^') {
          layer.inputs.push_back(tensor_name(g.data));
        }
        if (g.number == kNodeAttr) read_attr(g.data, where, type, shapes);
      }
      if (layer.name.empty()) throw format_error(where, "a node without a name");
      layer.feeds_model = layer.type == "Placeholder" || layer.type == "PlaceholderV2";
      outputs[layer.name] = std::max<int>(outputs[layer.name], static_cast<int>(shapes.size()));
      for (size_t k = 0; k < shapes.size(); ++k) {
        TensorType t = shapes[k];
        t.dtype = type.dtype;
        graph_.tensors[layer.name + ":" + std::to_string(k)] = t;
      }
      if (shapes.empty() && type.dtype >= 0) graph_.tensors[layer.name + ":0"].dtype = type.dtype;
      graph_.layers.push_back(std::move(layer));
    }
    // A node's outputs: those its consumers name and those _output_shapes lists (at least one).
    for (const Layer& layer : graph_.layers) {
      for (const std::string& t : layer.inputs) {
        const std::optional<int64_t> index = parse_natural(t.substr(t.rfind(':') + 1), 5);
        if (!index)
          throw format_error(
              path, "node \"" + layer.name + "\": input \"" + t + "\": output index out of range");
        const int k = static_cast<int>(*index);
        int& seen = outputs[node_of(t)];
        seen = std::max(seen, k + 1);
      }
    }
    for (Layer& layer : graph_.layers) {
      for (int k = 0; k < std::max(1, outputs[layer.name]); ++k) {
        layer.outputs.push_back(layer.name + ":" + std::to_string(k));
      }
    }
  }

  std::vector<ModelFile> write(const SubModel& sub, const KnownTypes& known,
                               std::vector<std::string>& added) const override {
    std::set<std::string> names, kept;
    for (const Layer& layer : graph_.layers) names.insert(layer.name);
    for (const int i : sub.layers) kept.insert(graph_.layers[static_cast<size_t>(i)].name);
    std::map<std::string, std::string> renamed;  // tensor -> placeholder
    std::string placeholders;
    for (size_t k = 0; k < sub.inputs.size(); ++k) {
      std::string name = sub.input_consumers[k] + "_input_" + std::to_string(sub.input_slots[k]);
      while (names.count(name)) name += "_";
      names.insert(name);
      renamed[sub.inputs[k]] = name;
      placeholders +=
          placeholder(name, sub.inputs[k], known.input(k), sub.input_consumers[k], added);
    }
    std::string out;
    bool placed = false;
    size_t node = 0;
    for (const pb::Field& f : fields_) {
      if (f.number != kGraphNode || f.wire != pb::kLength) {
        out.append(f.raw);
        continue;
      }
      if (!placed) out += placeholders;
      placed = true;
      if (!kept.count(graph_.layers[node++].name)) continue;
      std::string rewritten;
      bool changed = false;
      for (const pb::Field& g : pb::parse_fields(f.data, graph_.source)) {
        if (g.number == kNodeInput && g.wire == pb::kLength && !g.data.empty()) {
          if (g.data[0] == '^') {
            // A control edge from a node left out cannot be kept.
            if (!kept.count(str(g.data.substr(1)))) {
              changed = true;
              continue;
            }
          } else if (const auto it = renamed.find(tensor_name(g.data)); it != renamed.end()) {
            pb::put_bytes(rewritten, kNodeInput, it->second);
            changed = true;
            continue;
          }
        }
        rewritten.append(g.raw);
      }
      if (changed) {
        pb::put_bytes(out, kGraphNode, rewritten);
      } else {
        out.append(f.raw);
      }
    }
    if (!placed) out += placeholders;
    return {{"dump.pb", std::move(out)}};
  }

 private:
  static void read_attr(std::string_view entry, const std::string& where, TensorType& type,
                        std::vector<TensorType>& shapes) {
    const std::vector<pb::Field> fields = pb::parse_fields(entry, where);
    const auto key = pb::find_bytes(fields, kEntryKey);
    const auto value = pb::find_bytes(fields, kEntryValue);
    if (!key || !value) return;
    const std::vector<pb::Field> v = pb::parse_fields((*value), where);
    if ((*key) == "_output_shapes") {
      if (const auto list = pb::find_bytes(v, kAttrList)) {
        for (const std::string_view s :
             pb::strings_of(pb::parse_fields((*list), where), kListShape)) {
          shapes.push_back(read_shape(s, where));
        }
      }
    } else if ((*key) == "dtype" || (*key) == "T" || (*key) == "out_type" || (*key) == "DstT") {
      const std::vector<int64_t> t = pb::ints_of(v, kAttrType, where);
      // "dtype" (Placeholder, Const) names the output; T only when nothing better is there.
      if (!t.empty() && (type.dtype < 0 || (*key) == "dtype")) type.dtype = t.back();
    }
  }

  std::string placeholder(const std::string& name, const std::string& tensor,
                          const TensorType& type, const std::string& consumer,
                          std::vector<std::string>& added) const {
    if (type.dtype < 0) {
      throw Error(ExitCode::kUsage,
                  graph_.source + ": the type of \"" + tensor + "\" (an input of layer \"" +
                      consumer +
                      "\") is unknown: no dtype, T or out_type attr gives it (give "
                      "--graph and --dump)");
    }
    std::string dtype_value, shape, shape_value, node;
    pb::put_int(dtype_value, kAttrType, type.dtype);
    std::string text = "name: \"" + name + "\"\nop: \"Placeholder\"\n" +
                       "attr {\n  key: \"dtype\"\n  value {\n    type: " + dtype_text(type.dtype) +
                       "\n  }\n}\nattr {\n  key: \"shape\"\n  value {\n    shape {\n";
    if (type.has_shape) {
      for (const int64_t d : type.dims) {
        std::string dim;
        pb::put_int(dim, kDimSize, d);
        pb::put_bytes(shape, kShapeDim, dim);
        text += "      dim {\n        size: " + std::to_string(d) + "\n      }\n";
      }
    } else {
      pb::put_int(shape, kShapeUnknownRank, 1);
      text += "      unknown_rank: true\n";
    }
    text += "    }\n  }\n}";
    pb::put_bytes(shape_value, kAttrShape, shape);
    pb::put_bytes(node, kNodeName, name);
    pb::put_bytes(node, kNodeOp, "Placeholder");
    node += attr_entry("dtype", dtype_value);  // map entries in key order, as TF writes them
    node += attr_entry("shape", shape_value);
    added.push_back(std::move(text));
    std::string out;
    pb::put_bytes(out, kGraphNode, node);
    return out;
  }

  std::string bytes_;
  std::vector<pb::Field> fields_;
};

}  // namespace

std::unique_ptr<SourceModel> parse_tf_graph(std::string bytes, const std::string& path) {
  return std::make_unique<TfGraph>(std::move(bytes), path);
}

}  // namespace dumpcmp
