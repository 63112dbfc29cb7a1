# One interface target carries the project's warning and floating-point policy.
add_library(dumpcmp_warnings INTERFACE)
target_compile_options(dumpcmp_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror>
  # Element math must round exactly like msaccucmp's float32 numpy: no FMA contraction, no fast-math.
  # -fno-trapping-math only lets selects replace branches (no FP traps are ever enabled here).
  $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off -fno-fast-math -fno-trapping-math>)
# GCC 13's -Wdangling-reference misfires on references bound to members of returned objects (as in
# the tests' rule.ops()[i] uses); seen on Ubuntu 24.04's GCC 13 with -Werror.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 13)
  target_compile_options(dumpcmp_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-dangling-reference>)
endif()
if(DUMPCMP_NATIVE)
  target_compile_options(dumpcmp_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
