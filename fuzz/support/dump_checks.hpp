#pragma once
#include "io/dump_file.hpp"

namespace dumpcmp::fuzz {

// What a compare does with a dump after its header parsed, on every tensor: the dtype, shape and
// payload checks, the layout restore planned from its format, every element loaded through the
// map (each source index must lie inside the payload), the special-value count and the fp16
// overflow cell. Traps when an invariant fails. Returns the elements' sum, so that no load is
// optimised away.
double exercise_dump(const DumpFile& file);

}  // namespace dumpcmp::fuzz
