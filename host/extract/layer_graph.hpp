#pragma once
// A model's layers as a plain graph of named tensors, whatever the framework (ONNX nodes,
// TensorFlow NodeDefs, Caffe layers): enough to choose a sub-model between two layers, list the
// layers with their shapes and draw them. The format readers fill it; nothing here knows a format.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/shape.hpp"

namespace dumpcmp {

// What is known of one tensor. dtype is the format's own enum (ONNX TensorProto.DataType,
// TensorFlow DataType); Caffe blobs are float.
// Which nodes a breadth-first walk along `next` (node -> the nodes it leads to) reaches from
// `from`, itself included: 1 for reached.
std::vector<char> reachable(const std::vector<std::vector<int>>& next, int from);

struct TensorType {
  int64_t dtype = -1;  // -1: unknown
  bool has_shape = false;
  Shape dims;  // -1 for a dim of unknown size
};

struct Layer {
  std::string name, type;
  std::vector<std::string> inputs;   // data inputs, as tensor names
  std::vector<std::string> outputs;  // tensor names
  bool feeds_model = false;          // a model input (Caffe Input/Data, TensorFlow Placeholder)
};

struct LayerGraph {
  std::string source;  // the model file, for messages
  std::vector<Layer> layers;
  std::set<std::string> constants;            // tensors holding data no layer makes (weights)
  std::map<std::string, TensorType> tensors;  // the types and shapes the model records

  int find(const std::string& name) const;  // index of the layer, or -1
  // producers()[i][j]: the layer making input j of layer i, or -1 (a model input or a constant).
  // A tensor written by several layers (Caffe's in-place layers) comes from the last writer
  // before the reader.
  std::vector<std::vector<int>> producers() const;
};

// The sub-model between two layers.
struct SubModel {
  std::vector<int> layers;                   // indexes into LayerGraph::layers, in model order
  std::vector<std::string> inputs;           // tensors fed from outside, the start layer's first
  std::vector<std::string> outputs;          // the end layer's outputs
  std::vector<std::string> input_consumers;  // the first selected layer reading each input
  std::vector<int> input_slots;              // and which of its inputs it is
};

// The start layer, the end layer, every layer on a data path between them, and the layers that
// compute only from constants (ONNX Constant, TensorFlow Const) feeding those. Every other tensor
// read from outside becomes an input. Throws Error(kUsage) naming the layer for an unknown name,
// an end before the start, or layers not connected.
SubModel select_submodel(const LayerGraph& graph, const std::string& start, const std::string& end);

// "[1,3,224,224]", "[?,3]" or "?" when nothing is known.
std::string tensor_type_text(const TensorType* type);

}  // namespace dumpcmp
