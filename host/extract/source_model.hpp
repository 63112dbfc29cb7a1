#pragma once
// A model file read for `extract --model`: its layer graph, and the writer of a sub-model of it in
// the same format. Each format keeps its records as read (bytes or text) and writes the chosen
// ones back unchanged; only the records it must make (the new inputs) are its own.
#include <memory>
#include <string>
#include <vector>

#include "extract/layer_graph.hpp"

namespace dumpcmp {

struct ModelFile {
  std::string name;  // "dump.onnx", "dump.pb", "dump.prototxt", "dump.caffemodel"
  std::string bytes;
};

// What is known of a sub-model's inputs and outputs (parallel to SubModel::inputs and outputs;
// shorter lists mean unknown): the model's records merged with the offline model's and the dump's.
struct KnownTypes {
  std::vector<TensorType> inputs, outputs;
  TensorType input(size_t k) const { return k < inputs.size() ? inputs[k] : TensorType{}; }
  TensorType output(size_t k) const { return k < outputs.size() ? outputs[k] : TensorType{}; }
};

enum class ModelKind { kOnnx, kTensorFlow, kCaffe };

class SourceModel {
 public:
  virtual ~SourceModel() = default;
  ModelKind kind() const { return kind_; }
  const LayerGraph& graph() const { return graph_; }
  // The name the model gives itself ("" when its format has none).
  const std::string& model_name() const { return name_; }
  // The sub-model's files. `known` holds what is known of each input and output beyond the
  // model's own records; the text of every record made for an input is appended to `added`, for
  // the log. Throws Error(kUsage) when a type the format needs is unknown.
  virtual std::vector<ModelFile> write(const SubModel& sub, const KnownTypes& known,
                                       std::vector<std::string>& added) const = 0;

 protected:
  explicit SourceModel(ModelKind kind) : kind_(kind) {}
  ModelKind kind_;
  LayerGraph graph_;
  std::string name_;
};

// By extension: .onnx, .pb, .prototxt (weights: the .caffemodel, "" for the same stem when it
// exists). Throws Error(kUsage) for another extension, Error(kInput) for a malformed file.
std::unique_ptr<SourceModel> read_source_model(const std::string& path, const std::string& weights);

// The same from bytes already read; `path` names them in errors. Caffe: `caffemodel` is "" when
// there are no weights.
std::unique_ptr<SourceModel> parse_onnx_model(std::string bytes, const std::string& path);
std::unique_ptr<SourceModel> parse_tf_graph(std::string bytes, const std::string& path);
std::unique_ptr<SourceModel> parse_caffe_model(std::string text, const std::string& prototxt,
                                               std::string weights, const std::string& caffemodel);

// The whole file; throws Error(kInput) naming it.
std::string read_model_bytes(const std::string& path);

}  // namespace dumpcmp
