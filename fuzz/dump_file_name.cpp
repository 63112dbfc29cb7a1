// A dump file's base name (docs/formats.md §3.2) and what the inventory derives from it: the task
// mode, the normalised op name, the slice keys; and a CANN statistics file name.
#include "io/dump_file_name.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "stats/statistic_csv.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view basename = fuzz::as_text(data, size);
  fuzz::parse_or_reject([&] {
    if (const std::optional<DumpFileName> name = parse_dump_file_name(basename)) {
      (void)has_valid_task_type(*name);
      (void)task_mode(*name);
      (void)normalize_op_name(name->op_name);
    }
    for (const bool with_fusion_json : {false, true}) {
      (void)strip_slice_fields(basename, with_fusion_json);
      (void)slice_op_key(basename, false, with_fusion_json);
      (void)slice_op_key(basename, true, with_fusion_json);
    }
    (void)parse_cann_stats_file_name(basename);
  });
  return 0;
}
