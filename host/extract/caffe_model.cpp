// Caffe NetParameter: the .prototxt read as text (each layer block kept as written) and the
// .caffemodel at the wire level (docs/formats.md §10.3). Interpreted: the net's name and inputs,
// each layer's name, type, bottoms, tops and an Input layer's shapes; in the weights only each
// layer's name.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "core/text_format.hpp"
#include "extract/source_model.hpp"
#include "io/proto_wire.hpp"

namespace dumpcmp {
namespace {

// NetParameter and LayerParameter field numbers (caffe.proto).
constexpr uint32_t kNetLayersV1 = 2, kNetInput = 3, kNetInputDim = 4, kNetInputShape = 8,
                   kNetLayer = 100;
constexpr uint32_t kLayerName = 1;

Shape dims_of(const TextMessage& shape, const std::string& path) {
  Shape dims;
  for (const std::string& d : TextTree::values(shape, "dim")) {
    const std::optional<int64_t> v = parse_integer(d);
    if (!v) throw format_error(path, "shape dim \"" + d + "\" is not a number");
    dims.push_back(*v);
  }
  return dims;
}

// A text-format string.
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

TensorType float_blob(Shape dims) {
  TensorType t;
  t.dtype = 1;
  t.has_shape = true;
  t.dims = std::move(dims);
  return t;
}

class CaffeModel : public SourceModel {
 public:
  CaffeModel(std::string text, const std::string& prototxt, std::string weights,
             const std::string& caffemodel)
      : SourceModel(ModelKind::kCaffe), text_(std::move(text)) {
    graph_.source = prototxt;
    tree_ = TextTree::parse(text_, prototxt);
    const std::vector<std::string> names = TextTree::values(net(), "name");
    if (!names.empty()) name_ = names.back();
    read_net_inputs();
    for (const TextField& f : net().fields) {
      if (is_block(f, "layers")) {
        throw format_error(prototxt,
                           "V1 \"layers\" blocks are not supported (upgrade the net to \"layer\" "
                           "with Caffe's upgrade_net_proto_text)");
      }
      if (is_block(f, "layer")) read_layer(f);
    }
    if (!caffemodel.empty()) {
      weights_path_ = caffemodel;
      weights_ = std::move(weights);
      weight_fields_ = pb::parse_fields(weights_, caffemodel);
      bool v1 = false, layers = false;
      for (const pb::Field& f : weight_fields_) {
        v1 = v1 || (f.number == kNetLayersV1 && f.wire == pb::kLength);
        layers = layers || (f.number == kNetLayer && f.wire == pb::kLength);
      }
      if (v1 && !layers) {
        throw format_error(caffemodel,
                           "V1 \"layers\" records are not supported (upgrade the "
                           "weights with Caffe's upgrade_net_proto_binary)");
      }
    }
  }

  std::vector<ModelFile> write(const SubModel& sub, const KnownTypes& known,
                               std::vector<std::string>& added) const override {
    std::set<std::string> names, kept;
    for (const Layer& layer : graph_.layers) names.insert(layer.name);
    for (const int i : sub.layers) kept.insert(graph_.layers[static_cast<size_t>(i)].name);
    std::string inputs;
    for (size_t k = 0; k < sub.inputs.size(); ++k) {
      std::string name = sub.input_consumers[k] + "_input_" + std::to_string(sub.input_slots[k]);
      while (names.count(name)) name += "_";
      names.insert(name);
      const std::string text =
          input_layer(name, sub.inputs[k], known.input(k), sub.input_consumers[k]);
      added.push_back(text);
      inputs += "layer {\n";
      size_t at = 0;
      while (at < text.size()) {
        const size_t eol = text.find('\n', at);
        const size_t stop = eol == std::string::npos ? text.size() : eol;
        inputs += "  " + text.substr(at, stop - at) + "\n";
        at = stop + 1;
      }
      inputs += "}\n";
    }
    std::string prototxt;
    bool placed = false;
    size_t layer = 0;
    uint32_t copied_end = 0;
    for (const TextField& f : net().fields) {
      // The full net's inputs are not the sub-model's.
      if (f.name == "input" || f.name == "input_shape" || f.name == "input_dim") continue;
      if (f.end <= copied_end) continue;  // the items of a list after the first: copied with it
      if (is_block(f, "layer")) {
        if (!placed) prototxt += inputs;
        placed = true;
        if (!kept.count(graph_.layers[layer++].name)) continue;
      }
      prototxt.append(text_, f.begin, f.end - f.begin);
      prototxt += "\n";
      copied_end = f.end;
    }
    if (!placed) prototxt += inputs;
    std::vector<ModelFile> files = {{"dump.prototxt", std::move(prototxt)}};
    if (!weights_path_.empty()) {
      std::string weights;
      for (const pb::Field& f : weight_fields_) {
        if (f.number == kNetInput || f.number == kNetInputDim || f.number == kNetInputShape) {
          continue;
        }
        if (f.number == kNetLayer && f.wire == pb::kLength) {
          const auto name =
              pb::find_bytes(pb::parse_fields(f.data, weights_path_ + ": layer"), kLayerName);
          if (!name || !kept.count(std::string(*name))) continue;
        }
        weights.append(f.raw);
      }
      files.push_back({"dump.caffemodel", std::move(weights)});
    }
    return files;
  }

 private:
  void read_net_inputs() {
    const std::vector<std::string> inputs = TextTree::values(net(), "input");
    std::vector<Shape> shapes;
    for (const TextField& f : net().fields) {
      if (is_block(f, "input_shape")) shapes.push_back(dims_of(tree_.message(f), graph_.source));
    }
    if (shapes.empty()) {  // legacy: four input_dim values per input
      Shape dims;
      for (const std::string& d : TextTree::values(net(), "input_dim")) {
        dims.push_back(parse_integer(d).value_or(-1));
        if (dims.size() == 4) {
          shapes.push_back(dims);
          dims.clear();
        }
      }
    }
    for (size_t i = 0; i < inputs.size() && i < shapes.size(); ++i) {
      graph_.tensors[inputs[i]] = float_blob(shapes[i]);
    }
  }

  void read_layer(const TextField& field) {
    const TextMessage& block = tree_.message(field);
    Layer layer;
    const std::vector<std::string> name = TextTree::values(block, "name");
    const std::vector<std::string> type = TextTree::values(block, "type");
    if (name.empty()) {
      throw format_error(graph_.source,
                         "layer block at byte " + std::to_string(field.begin) + " has no name");
    }
    layer.name = name.back();
    layer.type = type.empty() ? "" : type.back();
    layer.inputs = TextTree::values(block, "bottom");
    layer.outputs = TextTree::values(block, "top");
    // Data layers (Input, Data, ImageData, ...) have no bottoms: they feed the net.
    layer.feeds_model = layer.inputs.empty();
    if (const TextField* param = TextTree::first_message(block, "input_param")) {
      std::vector<Shape> shapes;
      for (const TextField& s : tree_.message(*param).fields) {
        if (is_block(s, "shape")) shapes.push_back(dims_of(tree_.message(s), graph_.source));
      }
      // One shape serves every top; else one per top.
      for (size_t k = 0; k < layer.outputs.size() && !shapes.empty(); ++k) {
        graph_.tensors[layer.outputs[k]] = float_blob(shapes[std::min(k, shapes.size() - 1)]);
      }
    }
    graph_.layers.push_back(std::move(layer));
  }

  std::string input_layer(const std::string& name, const std::string& blob, const TensorType& type,
                          const std::string& consumer) const {
    if (!type.has_shape) {
      throw Error(ExitCode::kUsage,
                  graph_.source + ": the shape of blob \"" + blob + "\" (an input of layer \"" +
                      consumer +
                      "\") is unknown: a .prototxt records only its inputs' shapes (give "
                      "--graph and --dump: the offline model knows it)");
    }
    std::string text = "name: " + quote(name) + "\ntype: \"Input\"\ntop: " + quote(blob) +
                       "\ninput_param {\n  shape {\n";
    for (const int64_t d : type.dims) text += "    dim: " + std::to_string(d) + "\n";
    return text + "  }\n}";
  }

  const TextMessage& net() const { return tree_.root(); }
  static bool is_block(const TextField& f, std::string_view name) {
    return f.kind == TextValueKind::kMessage && f.name == name;
  }

  std::string text_;
  TextTree tree_;  // views into text_
  std::string weights_path_, weights_;
  std::vector<pb::Field> weight_fields_;
};

}  // namespace

std::unique_ptr<SourceModel> parse_caffe_model(std::string text, const std::string& prototxt,
                                               std::string weights, const std::string& caffemodel) {
  return std::make_unique<CaffeModel>(std::move(text), prototxt, std::move(weights), caffemodel);
}

}  // namespace dumpcmp
