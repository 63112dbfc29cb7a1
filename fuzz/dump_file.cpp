// Any dump file as a compare opens it: the form is told from the bytes (input that starts with the
// .npy magic is named .npy, as the dispatcher tells .npy by its suffix), then every tensor is
// checked and loaded.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  constexpr std::string_view kNpyMagic = "\x93NUMPY";
  const bool npy = fuzz::as_text(data, size).substr(0, kNpyMagic.size()) == kNpyMagic;
  const char* path = npy ? "fuzz.npy" : fuzz::kDumpName;
  fuzz::parse_or_reject(
      [&] { fuzz::exercise_dump(read_dump_bytes(path, fuzz::owned_bytes(data, size))); });
  return 0;
}
