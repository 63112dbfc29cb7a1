#pragma once
// A file that shrinks while it is mapped (truncated or rewritten by another process) makes a read
// past its new end raise SIGBUS, which would end the process. While a mapping is registered here,
// a SIGBUS inside it instead maps zero pages from the faulting page to the mapping's end, so the
// read completes, and marks the mapping as damaged; whoever computed from it asks damaged() and
// fails that result. A SIGBUS anywhere else goes to the handler installed before, or kills the
// process as it would have.
#include <cstddef>

namespace dumpcmp::sigbus_guard {

// Registers [begin, begin + size) (begin page-aligned, as mmap returns it) and installs the
// handler the first time. Returns the slot to pass below, or -1 when every slot is taken (the
// mapping is then unguarded).
int watch(const void* begin, std::size_t size);
// Whether a read in the watched mapping faulted since watch().
bool damaged(int slot);
// Stops watching; call before munmap.
void unwatch(int slot);

}  // namespace dumpcmp::sigbus_guard
