#pragma once
#include <cstddef>
#include <cstdint>

#include "io/byte_sources.hpp"
#include "io/dump_file.hpp"

namespace dumpcmp::fuzz {

// A dump file name of the offline-model grammar (the nano reader takes the op name from it).
inline constexpr const char* kDumpName = "Conv2D.conv1.2.3.1700000000000000";

// A copy of the input as the bytes a reader parses.
io_detail::SharedBytes owned_bytes(const uint8_t* data, std::size_t size);

// What a compare does with a dump after its header parsed, on every tensor: the dtype, shape and
// payload checks, the layout restore planned from its format, every element loaded through the
// map (each source index must lie inside the payload), the special-value count and the fp16
// overflow cell. Traps when an invariant fails. Returns the elements' sum, so that no load is
// optimised away.
double exercise_dump(const DumpFile& file);

}  // namespace dumpcmp::fuzz
