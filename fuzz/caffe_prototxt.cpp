// A Caffe .prototxt read as text for extract --model, then cut and written.
#include <cstddef>
#include <cstdint>
#include <string>

#include "extract/source_model.hpp"
#include "support/fuzz_input.hpp"
#include "support/model_checks.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const auto model =
        parse_caffe_model(std::string(fuzz::as_text(data, size)), "fuzz.prototxt", "", "");
    fuzz::exercise_model(*model);
  });
  return 0;
}
