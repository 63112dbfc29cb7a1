#include "core/error.hpp"
#include "extract/source_model.hpp"

namespace dumpcmp {

std::unique_ptr<SourceModel> read_caffe_model(const std::string& prototxt, const std::string&) {
  throw Error(ExitCode::kUsage, prototxt + ": Caffe models are not supported yet");
}

}  // namespace dumpcmp
