#include "core/error.hpp"
#include "extract/source_model.hpp"

namespace dumpcmp {

std::unique_ptr<SourceModel> read_tf_graph(const std::string& path) {
  throw Error(ExitCode::kUsage, path + ": TensorFlow models are not supported yet");
}

}  // namespace dumpcmp
