#include "extract/source_model.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"

namespace dumpcmp {

std::string read_model_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(path, "cannot open the model file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw format_error(path, "cannot read the model file");
  return std::move(bytes).str();
}

std::unique_ptr<SourceModel> read_source_model(const std::string& path,
                                               const std::string& weights) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".onnx") return parse_onnx_model(read_model_bytes(path), path);
  if (ext == ".pb") return parse_tf_graph(read_model_bytes(path), path);
  if (ext == ".prototxt") {
    std::string w = weights;
    if (w.empty()) {
      const std::string same_stem =
          std::filesystem::path(path).replace_extension(".caffemodel").string();
      if (std::filesystem::exists(same_stem)) w = same_stem;
    }
    std::string text = read_model_bytes(path);
    return parse_caffe_model(std::move(text), path, w.empty() ? "" : read_model_bytes(w), w);
  }
  throw Error(ExitCode::kUsage,
              "--model " + path + ": unknown model type (expected .onnx, .pb or .prototxt)");
}

}  // namespace dumpcmp
