// Compiled as part of fusion/, a folder below compare/: the second include must fail the build
// (tests/layering/CMakeLists.txt). The first, reached before it, shows that a folder below is.
#include "core/error.hpp"

// The upward include.
#include "compare/compare_engine.hpp"
