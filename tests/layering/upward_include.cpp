// Compiled as part of fusion/, a folder below compare/: the second include must fail the build
// (tests/layering/CMakeLists.txt). The first shows that a folder below is reachable.
#include "core/error.hpp"
#include "compare/compare_engine.hpp"
