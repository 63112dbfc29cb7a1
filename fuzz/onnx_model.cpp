// An ONNX ModelProto read at the wire level for extract --model, then cut and written.
#include <cstddef>
#include <cstdint>
#include <string>

#include "extract/source_model.hpp"
#include "support/fuzz_input.hpp"
#include "support/model_checks.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const auto model = parse_onnx_model(std::string(fuzz::as_text(data, size)), "fuzz.onnx");
    fuzz::exercise_model(*model);
  });
  return 0;
}
