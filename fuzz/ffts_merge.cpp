// FFTS+ slices merged (docs/formats.md §3.4): the input is up to four binary dumps separated by
// "FFTSNEXT"; each is parsed, its attr JSON read (op name, FFTS+ mark, convert's thread shapes),
// and the slices merged as one op's.
#include "io/ffts_merge.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "io/dump_readers.hpp"
#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  constexpr std::string_view kSeparator = "FFTSNEXT";
  const std::string_view text = fuzz::as_text(data, size);
  std::vector<DumpFile> slices;
  std::size_t start = 0;
  while (start <= text.size() && slices.size() < 4) {
    const std::size_t end = std::min(text.find(kSeparator, start), text.size());
    fuzz::parse_or_reject([&] {
      const auto* piece = data + start;
      io_detail::FormAttempt attempt = io_detail::read_binary_dump(
          "Add.add.1.2.1700000000000000.4.7." + std::to_string(slices.size()) + ".0",
          fuzz::owned_bytes(piece, end - start));
      if (!attempt.file) return;
      DumpFile& slice = *attempt.file;
      (void)attr_op_name(slice);
      (void)is_ffts_dump(slice);
      for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
        (void)ffts_thread_shapes(slice, g);
      }
      slices.push_back(std::move(slice));
    });
    start = end + kSeparator.size();
  }
  if (slices.empty()) return 0;
  fuzz::parse_or_reject(
      [&] { fuzz::exercise_dump(merge_ffts_dumps("merged", std::move(slices))); });
  return 0;
}
